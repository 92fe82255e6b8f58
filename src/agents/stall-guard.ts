import type { StageableField } from '../machine/fields.js';
import { stageLine } from './stage-line.js';

/**
 * The executor's stall guard. An executor that keeps reading without ever changing a file, running
 * a check or staging burns the exchange budget and ends in a bound abort that says nothing useful.
 * The guard nudges it once, and if the nudge does not help, stops it with a reason that says what
 * happened. Pure: summon feeds it one exchange at a time and acts on the verdict.
 */

/** Consecutive idle exchanges before the nudge when the configuration names none. */
export const DEFAULT_STALL_LIMIT = 8;

/** Tools whose successful call is progress: they change the workspace, run a check, or move the machine. */
const PROGRESS_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file', 'run_command', 'update_context']);

/** One tool call of an exchange as the guard sees it. */
export interface CallResult {
  name: string;
  /** False when the tool refused; a refused write changed nothing. */
  ok: boolean;
}

/** Whether an exchange moved the work on: any successful call of a progress tool. */
export function madeProgress(calls: readonly CallResult[]): boolean {
  return calls.some((call) => call.ok && PROGRESS_TOOLS.has(call.name));
}

export type StallVerdict = 'continue' | 'nudge' | 'abort';

export interface StallStep {
  /** Consecutive exchanges without progress, including this one. */
  idle: number;
  verdict: StallVerdict;
}

/**
 * Counts one exchange. Progress resets the count (so a later stall earns a fresh nudge); the
 * `limit`-th idle exchange in a row earns the nudge and the `2 × limit`-th the abort. A limit below
 * 1 turns the guard off, leaving only the machine's exchange bounds.
 */
export function observeExchange(idle: number, progressed: boolean, limit: number): StallStep {
  if (progressed) return { idle: 0, verdict: 'continue' };
  const next = idle + 1;
  if (limit < 1) return { idle: next, verdict: 'continue' };
  if (next >= 2 * limit) return { idle: next, verdict: 'abort' };
  return { idle: next, verdict: next === limit ? 'nudge' : 'continue' };
}

/** The one nudge: what the executor has not been doing, ending with the Stage line like every summons. */
export function stallNudge(idle: number, pending: readonly StageableField[]): string {
  return [
    `You have made ${idle} exchanges without writing, running a command or staging.`,
    'Stop exploring: make the change the directive asks for and verify it, or stage your result with what you found and the outcome (replan or abort if the directive cannot be done as written).',
    stageLine(pending),
  ].join('\n');
}

/** The abort reason the machine keeps and the planner's abort summary quotes. */
export function stallAbortReason(idle: number): string {
  return `executor stalled: ${idle} exchanges without writing, running a command or staging`;
}
