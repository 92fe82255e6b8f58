import type { Outcome } from './fields.js';
import type { StateName } from './types.js';

/**
 * The machine's names as a reader of a comment, a pull request, a log or the terminal says them.
 * The executor ends almost every cycle with `replan`, which only hands control back to the planner
 * for the next step; shown as "replan" it reads as "the plan changed", which it rarely did. Where
 * the plan did change, the progress comment and the pull request say so from the plans themselves
 * (render/plan-changes.ts). The machine, the record and the prompts keep the internal names.
 */

/** How a cycle ended. */
export const outcomeWords: Record<Outcome, string> = { done: 'done', replan: 'next step', abort: 'abort' };

/** What a state is for. */
export const stateWords: Record<StateName, string> = {
  plan: 'plan',
  ask: 'ask',
  execute: 'execute',
  replan: 'next step',
  finish: 'finish',
  abort: 'abort',
  done: 'done',
};

/** Plan step numbers as a reader says them: "step 3", "steps 3 and 4", "steps 3, 4 and 5". */
export function stepList(steps: readonly number[]): string {
  if (steps.length <= 1) return `step ${steps.join('')}`;
  return `steps ${steps.slice(0, -1).join(', ')} and ${steps.at(-1)}`;
}

/**
 * Which plan step a cycle carried out and which ran at the same time, e.g. "step 2 (ran with steps 3
 * and 4)", so a reader of the history, the terminal or the planner's messages tells a batch's results
 * apart and sees them as one batch. '' for a cycle that names no step: every run of a plan that does
 * not order its steps reads as before.
 */
export function stepWords(entry: { step?: number; together?: readonly number[] }): string {
  if (entry.step === undefined) return '';
  const others = (entry.together ?? []).filter((n) => n !== entry.step);
  return others.length > 0 ? `step ${entry.step} (ran with ${stepList(others)})` : `step ${entry.step}`;
}
