import type { Snapshot } from '../machine/types.js';

/**
 * How an execution ended, read from its final snapshot: done, or aborted with the reason a reader
 * is given. An abort is the machine's (a bound, a budget, a host stop such as `/cancel`) or the
 * executor's own `abort` outcome, whose result says why. Both hosts end runs by this one rule.
 */
export type RunEnding = { outcome: 'done'; reason?: undefined } | { outcome: 'aborted'; reason: string };

/** Said when an aborted run carries no reason of its own. */
export const abortFallbackReason = 'the executor aborted';

export function runEnding(final: Snapshot): RunEnding {
  const lastCycle = final.context.history.at(-1);
  if (final.abortReason === undefined && lastCycle?.outcome !== 'abort') return { outcome: 'done' };
  return { outcome: 'aborted', reason: final.abortReason ?? lastCycle?.result ?? abortFallbackReason };
}
