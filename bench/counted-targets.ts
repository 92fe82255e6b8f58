import type { TargetResult } from './targets.js';

/**
 * Which of bench/targets.ts's targets are judged from counts (GitHub API calls, tokens, cache hits,
 * retries on a virtual clock): the emulators give the same counts on every run, so one play of each
 * scenario judges them, on every change (bench/quick.ts). The others are judged from times and need
 * the full `npm run bench`. A target in neither list fails the quick check, so a new one is sorted
 * into one of them rather than silently skipped.
 */
const counted: readonly RegExp[] = [
  /^Prefix efficiency/,
  /^Cache-hit ratio/,
  /^\/plan: at most \d+ GitHub API calls/,
  /^\/approve with \d+ cycles?: at most \d+ calls/,
  /^A refusal: at most \d+ calls/,
  /^Prompt tokens grow/,
  /^Billed-equivalent prompt tokens per cycle/,
  /^One model request recovers/,
];
const timed: readonly RegExp[] = [
  /^Cold start/,
  /^A broken runner environment/,
  /^`\/plan` overhead/,
  /^`search`/,
  /^`list_files`/,
  /^Tool output bounded/,
  /^Peak RSS/,
  /latency no worse than linear in repository size$/,
  /^`npm run bench` under/,
  /^`npm ci` through the egress proxy/,
  // Its tokens are counts, but the scenario waits on a slow model by design, so only the full run plays it.
  /^Latency scenario:/,
];

export type TargetKind = 'counted' | 'timed' | 'unsorted';

export function targetKind(target: Pick<TargetResult, 'target'>): TargetKind {
  if (counted.some((pattern) => pattern.test(target.target))) return 'counted';
  if (timed.some((pattern) => pattern.test(target.target))) return 'timed';
  return 'unsorted';
}

/** The counted targets' patterns no target matched: a renamed target the list no longer finds. */
export function unmatchedCounted(targets: readonly Pick<TargetResult, 'target'>[]): RegExp[] {
  return counted.filter((pattern) => !targets.some((t) => pattern.test(t.target)));
}
