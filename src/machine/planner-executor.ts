import { startSnapshot } from './start-snapshot.js';
import type { Action, MachineDefinition, Policy, Snapshot } from './types.js';

/**
 * The plangate loop, declared as data for the reducer: the planner plans, the executor carries out
 * one directive at a time and judges it, and the planner revises or wraps up. Every trigger an edge
 * reads is consumed on the way out, so a later visit of a state settles only on freshly staged values.
 */

// Leaving execute spends the cycle's triggers; a surviving one would let the next visit settle on stale data.
const consumeCycle: Action = { kind: 'consume', fields: ['directive', 'result', 'outcome', 'steps'] };
// Entering a wrap-up state: the planner must write the summary there, not reuse one staged earlier.
const consumeSummary: Action = { kind: 'consume', fields: ['summary'] };

// Asking a question: whatever else was half-staged predates the answer, so the next plan visit must
// settle on values written after it (the question itself stays for the host to post).
const consumeBeforeAsking: Action = { kind: 'consume', fields: ['plan', 'directive', 'summary'] };
// A no-change answer ends the run with nothing to approve: a half-staged plan would read as work.
const consumeUnusedPlan: Action = { kind: 'consume', fields: ['plan', 'directive'] };

/** The plan / execute / replan / finish / abort machine (with clarification) that every planned run follows. */
export const plannerExecutorMachine: MachineDefinition = {
  initial: 'plan',
  abortState: 'abort',
  // A forced abort can strike mid-cycle: clear every trigger so the abort summary starts clean.
  abortActions: [{ kind: 'consume', fields: ['directive', 'result', 'outcome', 'steps', 'question', 'summary'] }],
  states: {
    plan: {
      agent: 'planner',
      // The `Stage:` line asks for a plan; a question or a no-change summary are the planner's alternatives.
      requires: ['plan', 'directive'],
      // Order matters: a full plan wins over a question staged beside it, and a question over a summary.
      edges: [
        { to: 'execute', guard: { always: true } },
        { to: 'ask', requires: ['question'], guard: { always: true }, actions: [consumeBeforeAsking] },
        { to: 'done', requires: ['summary'], guard: { always: true }, actions: [consumeUnusedPlan] },
      ],
    },
    ask: {
      // No agent: the run pauses here until a maintainer answers, possibly in a later workflow run.
      agent: null,
      requires: [],
      edges: [],
      // The answer goes back to a fresh plan visit, which sees every clarification so far.
      onAnswer: { to: 'plan', actions: [{ kind: 'recordAnswer' }] },
    },
    execute: {
      agent: 'executor',
      requires: ['result', 'outcome'],
      onExit: [{ kind: 'appendHistory' }, { kind: 'countIteration' }],
      // The interrupted directive stays in history so the record shows what was being attempted.
      onForcedAbort: [{ kind: 'appendAbortedCycle' }],
      edges: [
        // A batch of a step graph that went as planned: the next batch starts without the planner,
        // which is summoned only when a step finds the plan wrong, or to wrap up.
        {
          to: 'execute',
          guard: { all: [{ field: 'outcome', equals: 'done' }, { stepsRemain: true }] },
          actions: [consumeCycle],
          loop: true,
        },
        { to: 'finish', guard: { field: 'outcome', equals: 'done' }, actions: [consumeCycle, consumeSummary] },
        // The plan is kept: the planner revises it with the full history.
        { to: 'replan', guard: { field: 'outcome', equals: 'replan' }, actions: [consumeCycle], loop: true },
        { to: 'abort', guard: { field: 'outcome', equals: 'abort' }, actions: [consumeCycle, consumeSummary] },
      ],
    },
    replan: {
      agent: 'planner',
      requires: ['directive'],
      edges: [{ to: 'execute', guard: { always: true } }],
    },
    finish: {
      agent: 'planner',
      requires: ['summary'],
      forcedAbortTo: 'done',
      edges: [{ to: 'done', guard: { always: true } }],
    },
    abort: {
      agent: 'planner',
      requires: ['summary'],
      forcedAbortTo: 'done',
      edges: [{ to: 'done', guard: { always: true } }],
    },
    done: { agent: null, requires: [], edges: [], terminal: true },
  },
};

/** Bounds used when the configuration sets none: generous enough for real work, finite for runaway agents. */
export const defaultPolicy: Policy = {
  maxIterations: 8,
  maxExchangesPerStage: 40,
  maxExchangesPerAgentPerStage: 40,
  checkpointEvery: 1,
};

/** Where a `/plan` run starts: the planner has only the objective. */
export function initialSnapshot(objective: string, policy: Policy): Snapshot {
  return startSnapshot(plannerExecutorMachine.initial, { objective, history: [] }, policy);
}
