import type { PlanContext, Role, StagedFields, StageableField } from './fields.js';

/**
 * The machine is data: states, what each requires, guarded edges and actions. A generic reducer
 * (reducer.ts) interprets it. Nothing here performs I/O, so a snapshot is plain JSON.
 */

export type StateName = 'plan' | 'execute' | 'replan' | 'finish' | 'abort' | 'done';

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

/** A condition over the context, declared as data so the definition stays serializable-friendly. */
export type Guard = { field: 'outcome'; equals: PlanContext['outcome'] } | { always: true };

/** Effects run on exit or on a transition. Declared, not coded, so the reducer stays generic. */
export type Action =
  | { kind: 'appendHistory' }
  | { kind: 'consume'; fields: StageableField[] }
  | { kind: 'countIteration' };

export interface Edge {
  to: StateName;
  /** Fields that must be staged for this edge; defaults to the state's `requires`. */
  requires?: StageableField[];
  guard: Guard;
  actions?: Action[];
}

export interface StateDefinition {
  /** The agent the host summons while the machine sits here; null for the terminal state. */
  agent: Role | null;
  /** What the state needs before any edge is considered; named in the `Stage:` line. */
  requires: StageableField[];
  edges: Edge[];
  onExit?: Action[];
  terminal?: boolean;
}

export interface MachineDefinition {
  initial: StateName;
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
  | { type: 'abort'; reason: string };
