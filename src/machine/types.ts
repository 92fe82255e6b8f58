import type { PlanContext, Role, StagedFields, StageableField, StepReport } from './fields.js';

/**
 * The machine is data: states, what each requires, guarded edges and actions. A generic reducer
 * (reducer.ts) interprets it. Nothing here performs I/O, so a snapshot is plain JSON.
 */

/** Every state a machine may declare; `ask` is where a run pauses for a maintainer's answer. */
export type StateName = 'plan' | 'execute' | 'replan' | 'finish' | 'abort' | 'done' | 'ask';

/** Bounds the reducer enforces; hitting one is an abort with a reason, never a silent stop. */
export interface Policy {
  /** Execute cycles allowed before the run aborts. */
  maxIterations: number;
  /** Model exchanges allowed in one visit of a state, all agents together. */
  maxExchangesPerStage: number;
  /** Model exchanges one agent may spend in one visit of a state. */
  maxExchangesPerAgentPerStage: number;
  /** The host checkpoints the run record every this many cycles. */
  checkpointEvery: number;
}

/**
 * A condition over the context, declared as data so the definition stays serializable-friendly.
 * `stepsRemain`: a batch of steps was reported (`steps`) and the plan still has steps to carry out
 * (machine/step-order.ts); `all`: every guard listed holds.
 */
export type Guard =
  { field: 'outcome'; equals: PlanContext['outcome'] } | { always: true } | { stepsRemain: true } | { all: Guard[] };

/**
 * Effects run on exit, on a transition or on a forced abort. Declared, not coded, so the reducer
 * stays generic.
 * - `appendHistory`: keep the finished cycle (`directive`, `result`, `outcome`), only when all three are
 *   staged; a reported batch of steps (`steps`) is kept as one entry per step instead.
 * - `appendAbortedCycle`: keep a cycle cut short by a forced abort, so the record shows what was
 *   asked even when no result came back; only when a `directive` is staged.
 * - `consume`: remove triggers so the next visit of a state needs fresh values instead of settling on stale ones.
 * - `countIteration`: one more execute cycle spent against `maxIterations`; one per step of a reported batch.
 * - `recordAnswer`: keep the host's answer beside the staged `question` in `clarifications` and
 *   consume the question, so the next planning visit cannot settle on it again; only meaningful
 *   where an `answer` event is handled (elsewhere there is no answer and it does nothing).
 */
export type Action =
  | { kind: 'appendHistory' }
  | { kind: 'appendAbortedCycle' }
  | { kind: 'consume'; fields: Array<StageableField | 'steps'> }
  | { kind: 'countIteration' }
  | { kind: 'recordAnswer' };

export interface Edge {
  to: StateName;
  /** Fields that must be staged for this edge; defaults to the state's `requires`. */
  requires?: StageableField[];
  guard: Guard;
  actions?: Action[];
  /**
   * The edge goes round the loop once more; it is refused once `iteration` has reached
   * `maxIterations` (after the state's exit actions counted the cycle), and the run aborts instead.
   */
  loop?: true;
}

/** Where a host `answer` event leads; declared per state so only a waiting state can be answered. */
export interface AnswerHandler {
  to: StateName;
  /** Run after the state's `onExit`; the answer text is available to `recordAnswer`. */
  actions: Action[];
}

export interface StateDefinition {
  /**
   * The agent the host summons while the machine sits here; null where no agent works: the
   * terminal state, or a non-terminal state where the run waits for the host (see `onAnswer`).
   */
  agent: Role | null;
  /**
   * What the state asks its agent for, named in the `Stage:` line, and what its edges need unless
   * an edge declares its own `requires` (so an edge can leave on a different field alone).
   */
  requires: StageableField[];
  edges: Edge[];
  /** Run when an edge is taken or an answer moves the run, before their own actions; not run on a forced abort. */
  onExit?: Action[];
  /** Run first when a forced abort leaves this state, e.g. to keep an interrupted cycle in history. */
  onForcedAbort?: Action[];
  /**
   * Where a forced abort leads from this state instead of the machine's `abortState`, with no
   * actions. Wrap-up states point at the terminal state so a failing summary writer cannot loop.
   */
  forcedAbortTo?: StateName;
  terminal?: boolean;
  /** Accepts the host's `answer` event here; every other state ignores it. */
  onAnswer?: AnswerHandler;
}

export interface MachineDefinition {
  initial: StateName;
  /**
   * Where a forced abort (a policy bound, the host stopping the run) leads from an ordinary state.
   * May be the terminal state itself when no agent is left to write an abort summary.
   */
  abortState: StateName;
  /** Run on every forced abort into `abortState`, after the state's `onForcedAbort`: clears triggers so its agent starts clean. */
  abortActions: Action[];
  states: Record<StateName, StateDefinition>;
}

/** One step of the run's path through the machine, kept for the record and the diagram. */
export interface Transition {
  from: StateName;
  to: StateName;
  /** Present when the move was forced (a bound, a host abort) rather than chosen by a guard. */
  reason?: string;
}

/** Everything needed to resume a run: JSON-serializable by construction. */
export interface Snapshot {
  state: StateName;
  context: PlanContext;
  policy: Policy;
  /** Execute cycles completed. */
  iteration: number;
  /** Exchanges in the current state visit, all agents together, and per agent. */
  stageExchanges: number;
  agentExchanges: Partial<Record<Role, number>>;
  /** Why the run aborted, when it did. */
  abortReason?: string;
  trail: Transition[];
}

export type MachineEvent =
  /** An agent wrote fields through update_context. Fields the current state's agent may not stage are ignored. */
  | { type: 'stage'; agent: Role; fields: StagedFields }
  /** One model request/response pair was spent by an agent in the current state. */
  | { type: 'exchange'; agent: Role }
  /** The host stops the run (cancel, budget, agent failure); the reason is kept. */
  | { type: 'abort'; reason: string }
  /** A maintainer answered the question the run is waiting on; ignored by states without `onAnswer`. */
  | { type: 'answer'; text: string }
  /**
   * The host ran several steps of a step graph at once, each in a session of its own, and reports
   * what each session staged. Handled as the agent's `result` and `outcome` (the batch's outcome is
   * the gravest of its steps'), with the reports kept as `steps`; ignored where `agent` is not summoned.
   */
  | { type: 'steps'; agent: Role; reports: StepReport[] };
