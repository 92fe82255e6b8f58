import type { Plan } from '../machine/fields.js';
import type { Snapshot } from '../machine/types.js';

/**
 * What a planning run produced, read from where the machine stopped: a plan to show, a question
 * for the maintainer, a no-change answer, or nothing usable. Both hosts (the action's planning and
 * the local CLI's) read it here, so they cannot disagree on what counts as a plan.
 */
export type PlanningOutcome =
  | { kind: 'planned'; plan: Plan }
  | { kind: 'asked'; question: string }
  | { kind: 'answered'; summary: string }
  | { kind: 'failed'; reason: string };

/** Reads the snapshot a planner-only drive stopped at (the first state after `plan`). */
export function planningOutcome(snapshot: Snapshot): PlanningOutcome {
  const { state, context, abortReason } = snapshot;
  if (state === 'execute' && context.plan !== undefined) return { kind: 'planned', plan: context.plan };
  // The machine's `ask` state requires a question, and update_context refuses an empty one.
  if (state === 'ask' && context.question) return { kind: 'asked', question: context.question };
  if (state === 'done' && abortReason === undefined && context.summary !== undefined)
    return { kind: 'answered', summary: context.summary };
  return { kind: 'failed', reason: abortReason ?? 'the planner stopped without staging a plan' };
}
