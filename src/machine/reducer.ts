import { stageableBy } from './fields.js';
import type { HistoryEntry, Outcome, PlanContext, Role, StagedFields, StageableField, StepReport } from './fields.js';
import { finishedSteps, remainingSteps } from './step-order.js';
import type { Action, Guard, MachineDefinition, MachineEvent, Snapshot, StateName } from './types.js';

/**
 * The generic interpreter of a MachineDefinition. It knows no state names: everything it does is
 * declared in the definition, so the loop's control flow can be read (and tested) as data.
 * Pure: inputs are never mutated and every change returns new objects, which keeps a snapshot safe
 * to serialize, compare and resume.
 */

/** The part of a snapshot that actions change. */
interface Work {
  context: PlanContext;
  iteration: number;
}

/**
 * Advances a run by one event. Staging settles at most one transition per event so the next
 * state's agent is always summoned to stage fresh values; bounds and host aborts become a forced
 * abort with a reason, never a silent stop.
 */
export function reduce(definition: MachineDefinition, snapshot: Snapshot, event: MachineEvent): Snapshot {
  if (isTerminal(definition, snapshot)) return snapshot;
  switch (event.type) {
    case 'stage':
      return stage(definition, snapshot, event.agent, event.fields);
    case 'exchange':
      return exchange(definition, snapshot, event.agent);
    case 'abort':
      return forceAbort(definition, snapshot, work(snapshot), event.reason, true);
    case 'answer':
      return answer(definition, snapshot, event.text);
    case 'steps':
      return steps(definition, snapshot, event.agent, event.reports);
  }
}

/**
 * A batch's reports, staged as one result and outcome: abort if any step aborted, else replan if any
 * found the plan wrong, else done. Whether steps remain is the machine's guard, not the host's say.
 */
function steps(definition: MachineDefinition, snapshot: Snapshot, agent: Role, reports: StepReport[]): Snapshot {
  if (definition.states[snapshot.state].agent !== agent || reports.length === 0) return snapshot;
  const outcome: Outcome = reports.some((r) => r.outcome === 'abort')
    ? 'abort'
    : reports.some((r) => r.outcome === 'replan')
      ? 'replan'
      : 'done';
  const result = reports.map((r) => `Step ${r.step}: ${r.result}`).join('\n\n');
  return stage(definition, { ...snapshot, context: { ...snapshot.context, steps: reports } }, agent, {
    result,
    outcome,
  });
}

/** What the host still has to obtain from the current agent; it names these in the `Stage:` line. */
export function pendingFields(definition: MachineDefinition, snapshot: Snapshot): StageableField[] {
  return definition.states[snapshot.state].requires.filter((field) => !isStaged(snapshot.context, field));
}

/** Whether the run is over, so the host stops summoning agents and publishes the outcome. */
export function isTerminal(definition: MachineDefinition, snapshot: Snapshot): boolean {
  return definition.states[snapshot.state].terminal === true;
}

/**
 * Whether the run is paused on the host (e.g. waiting for a maintainer's answer): no agent to
 * summon, yet not over, so the host saves the snapshot and ends the workflow run without publishing
 * an outcome.
 */
export function isWaiting(definition: MachineDefinition, snapshot: Snapshot): boolean {
  const state = definition.states[snapshot.state];
  return state.terminal !== true && state.agent === null;
}

/** The role the host must summon next, or null once no agent has anything left to do. */
export function currentAgent(definition: MachineDefinition, snapshot: Snapshot): Role | null {
  const state = definition.states[snapshot.state];
  return state.terminal === true ? null : state.agent;
}

function stage(definition: MachineDefinition, snapshot: Snapshot, agent: Role, fields: StagedFields): Snapshot {
  const state = definition.states[snapshot.state];
  // Only the agent the state summoned may write, and only the fields its role owns.
  if (state.agent !== agent) return snapshot;
  const allowed: readonly StageableField[] = stageableBy[agent];
  const context: PlanContext = { ...snapshot.context };
  for (const field of allowed) {
    const value = fields[field];
    if (value !== undefined) Object.assign(context, { [field]: value });
  }
  const staged = { ...snapshot, context };

  for (const edge of state.edges) {
    const requires = edge.requires ?? state.requires;
    if (!requires.every((field) => isStaged(context, field)) || !holds(edge.guard, context)) continue;
    const exited = applyActions(state.onExit ?? [], work(staged));
    // A loop edge is refused once the cycles are spent: abort with the cycle already in history.
    if (edge.loop === true && exited.iteration >= snapshot.policy.maxIterations) {
      return forceAbort(definition, staged, exited, `reached max-iterations (${snapshot.policy.maxIterations})`, false);
    }
    return move(staged, applyActions(edge.actions ?? [], exited), edge.to);
  }
  // Requirements unmet, or no guard accepts the staged values: wait for more staging.
  return staged;
}

function answer(definition: MachineDefinition, snapshot: Snapshot, text: string): Snapshot {
  const state = definition.states[snapshot.state];
  // An answer nobody asked for must not move the run: only a state that declares it accepts one.
  if (state.onAnswer === undefined) return snapshot;
  const exited = applyActions(state.onExit ?? [], work(snapshot));
  return move(snapshot, applyActions(state.onAnswer.actions, exited, text), state.onAnswer.to);
}

function exchange(definition: MachineDefinition, snapshot: Snapshot, agent: Role): Snapshot {
  const stageExchanges = snapshot.stageExchanges + 1;
  const agentCount = (snapshot.agentExchanges[agent] ?? 0) + 1;
  const counted: Snapshot = {
    ...snapshot,
    stageExchanges,
    agentExchanges: { ...snapshot.agentExchanges, [agent]: agentCount },
  };
  const { maxExchangesPerAgentPerStage, maxExchangesPerStage } = snapshot.policy;
  if (agentCount > maxExchangesPerAgentPerStage) {
    const reason = `${agent} used more than ${maxExchangesPerAgentPerStage} exchanges in state ${snapshot.state} (max-exchanges-per-agent-per-stage)`;
    return forceAbort(definition, counted, work(counted), reason, true);
  }
  if (stageExchanges > maxExchangesPerStage) {
    const reason = `agents used more than ${maxExchangesPerStage} exchanges in state ${snapshot.state} (max-exchanges-per-stage)`;
    return forceAbort(definition, counted, work(counted), reason, true);
  }
  return counted;
}

/**
 * Leaves the current state for its forced-abort target. `runStateActions` is false when the
 * state's exit actions already ran (the max-iterations case), so the cycle is not recorded twice.
 */
function forceAbort(
  definition: MachineDefinition,
  snapshot: Snapshot,
  current: Work,
  reason: string,
  runStateActions: boolean,
): Snapshot {
  const state = definition.states[snapshot.state];
  // The first reason is the real one; later failures (e.g. while writing the summary) only follow from it.
  const abortReason = snapshot.abortReason ?? reason;
  if (state.forcedAbortTo !== undefined) {
    return { ...move(snapshot, current, state.forcedAbortTo, reason), abortReason };
  }
  const before = runStateActions ? applyActions(state.onForcedAbort ?? [], current) : current;
  const after = applyActions(definition.abortActions, before);
  return { ...move(snapshot, after, definition.abortState, reason), abortReason };
}

function move(snapshot: Snapshot, next: Work, to: StateName, reason?: string): Snapshot {
  const transition = reason === undefined ? { from: snapshot.state, to } : { from: snapshot.state, to, reason };
  return {
    ...snapshot,
    state: to,
    context: next.context,
    iteration: next.iteration,
    // Bounds are per visit of a state: the new state's agent starts with a fresh allowance.
    stageExchanges: 0,
    agentExchanges: {},
    trail: [...snapshot.trail, transition],
  };
}

/** `answer` is the host's answer text when an answer event is being applied, otherwise undefined. */
function applyActions(actions: readonly Action[], start: Work, answer?: string): Work {
  let current = start;
  for (const action of actions) current = applyAction(action, current, answer);
  return current;
}

function applyAction(action: Action, current: Work, answer: string | undefined): Work {
  const { context } = current;
  switch (action.kind) {
    case 'appendHistory': {
      if (context.steps !== undefined) {
        const history = [...context.history, ...context.steps];
        return { ...current, context: { ...context, history } };
      }
      const { directive, result, outcome } = context;
      if (directive === undefined || result === undefined || outcome === undefined) return current;
      return withHistory(current, { directive, result, outcome });
    }
    case 'appendAbortedCycle': {
      const { directive, result } = context;
      if (directive === undefined) return current;
      return withHistory(current, { directive, result: result ?? '(no result reported)', outcome: 'abort' });
    }
    case 'consume': {
      const next: PlanContext = { ...context };
      // Deleted rather than set to undefined so a snapshot's JSON round-trip is exact.
      for (const field of action.fields) delete next[field];
      return { ...current, context: next };
    }
    case 'countIteration':
      return { ...current, iteration: current.iteration + Math.max(1, context.steps?.length ?? 0) };
    case 'recordAnswer': {
      if (answer === undefined) return current;
      const { question, ...rest } = context;
      // Kept even without a staged question: the maintainer's words matter more than the pairing.
      const clarification = { question: question ?? '(no question recorded)', answer };
      return { ...current, context: { ...rest, clarifications: [...(context.clarifications ?? []), clarification] } };
    }
  }
}

function withHistory(current: Work, entry: HistoryEntry): Work {
  return { ...current, context: { ...current.context, history: [...current.context.history, entry] } };
}

function holds(guard: Guard, context: PlanContext): boolean {
  if ('always' in guard) return true;
  if ('all' in guard) return guard.all.every((g) => holds(g, context));
  if ('stepsRemain' in guard) {
    if (context.steps === undefined || context.plan === undefined) return false;
    const finished = finishedSteps([...context.history, ...context.steps]);
    return remainingSteps(context.plan, finished).length > 0;
  }
  return context[guard.field] === guard.equals;
}

function isStaged(context: PlanContext, field: StageableField): boolean {
  return context[field] !== undefined;
}

function work(snapshot: Snapshot): Work {
  return { context: snapshot.context, iteration: snapshot.iteration };
}
