import { startSnapshot } from './start-snapshot.js';
import type { Action, MachineDefinition, Policy, Snapshot, StateDefinition } from './types.js';

/**
 * The loop for runs with no planner: the objective is the executor's one standing directive and it
 * works on it cycle after cycle until it reports done or abort. Declared as data for the same
 * reducer, so bounds, history and resumability behave exactly as in a planned run.
 */

// The run is over: nothing may linger for a resumed snapshot to settle on.
const consumeAll: Action = { kind: 'consume', fields: ['directive', 'result', 'outcome'] };
// Another cycle: a fresh result and outcome are needed, but the objective (the directive) stands.
const consumeReport: Action = { kind: 'consume', fields: ['result', 'outcome'] };

// Every StateName needs a definition; states this machine never enters are terminal and agent-less
// so a snapshot that somehow lands there stops instead of summoning a planner that does not exist.
const unreachable: StateDefinition = { agent: null, requires: [], edges: [], terminal: true };

/** The execute-only machine: execute loops on itself and ends in done, with no summary to write. */
export const executorOnlyMachine: MachineDefinition = {
  initial: 'execute',
  // There is no planner to write an abort summary: a forced abort ends the run at once, with its reason.
  abortState: 'done',
  abortActions: [consumeAll],
  states: {
    execute: {
      agent: 'executor',
      requires: ['result', 'outcome'],
      onExit: [{ kind: 'appendHistory' }, { kind: 'countIteration' }],
      // The interrupted cycle stays in history so the record shows what was being attempted.
      onForcedAbort: [{ kind: 'appendAbortedCycle' }],
      edges: [
        { to: 'done', guard: { field: 'outcome', equals: 'done' }, actions: [consumeAll] },
        { to: 'execute', guard: { field: 'outcome', equals: 'replan' }, actions: [consumeReport], loop: true },
        { to: 'done', guard: { field: 'outcome', equals: 'abort' }, actions: [consumeAll] },
      ],
    },
    done: { agent: null, requires: [], edges: [], terminal: true },
    plan: unreachable,
    replan: unreachable,
    finish: unreachable,
    abort: unreachable,
    ask: unreachable,
  },
};

/**
 * Where a run with no planner starts: the objective itself is the one directive, so the executor
 * is summoned straight away.
 */
export function executorOnlySnapshot(objective: string, policy: Policy): Snapshot {
  return startSnapshot(executorOnlyMachine.initial, { objective, directive: objective, history: [] }, policy);
}
