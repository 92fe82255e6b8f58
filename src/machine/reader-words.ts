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
