import { startSnapshot } from './start-snapshot.js';
import type { PlanContext } from './fields.js';
import type { MachineDefinition, Policy, Snapshot, StateDefinition } from './types.js';

/**
 * The machine of one plan step run beside others (run/step-batch.ts): the executor stages its
 * result and outcome once and the session is over; the main run's machine then takes the reports
 * of the whole batch together (event `steps`). Bounds and aborts work as in every other machine, so
 * a step that runs away ends with its reason instead of holding the batch up.
 */

const unreachable: StateDefinition = { agent: null, requires: [], edges: [], terminal: true };

export const oneStepMachine: MachineDefinition = {
  initial: 'execute',
  // No planner writes a step's summary: a forced abort ends the step with its reason.
  abortState: 'done',
  abortActions: [],
  states: {
    execute: {
      agent: 'executor',
      requires: ['result', 'outcome'],
      edges: [{ to: 'done', guard: { always: true } }],
    },
    done: { agent: null, requires: [], edges: [], terminal: true },
    plan: unreachable,
    replan: unreachable,
    finish: unreachable,
    abort: unreachable,
    ask: unreachable,
  },
};

/** Where a step's session starts: the run's context as it stands, with the step's directive. */
export function oneStepSnapshot(context: PlanContext, directive: string, policy: Policy): Snapshot {
  const { objective, plan, history } = context;
  return startSnapshot('execute', { objective, ...(plan ? { plan } : {}), history, directive }, policy);
}
