/**
 * When a model request is tried again, and after how long. Real providers have overload episodes
 * that outlast a few sub-second retries (a 500, another 500, then a 429 asking for a second), so
 * plangate keeps its own policy instead of the `openai` client's: more attempts, exponential backoff
 * with jitter, the provider's own wait honoured (`retry-after`, `retry-after-ms`, the rate-limit
 * reset headers), and a cap on the time one request may spend waiting. Pure: the caller sleeps.
 */

/** What one failed attempt looked like, as the retry decision needs it. */
export interface AttemptFailure {
  /** The HTTP status; undefined when no answer came (connection failure or timeout). */
  status?: number;
  /** The response headers, lower-case names; empty when no answer came. */
  headers: Readonly<Record<string, string>>;
  /** The provider's error code (`insufficient_quota`, `context_length_exceeded`, ...), when it sent one. */
  code?: string;
  /**
   * For failures without an answer: `timeout`, `refused`, `dns`, `tls` or `connection`. Refused
   * connections and unknown hosts are mostly a wrong `base-url`, so they get fewer attempts; a
   * certificate that does not verify never gets better by waiting.
   */
  network?: 'timeout' | 'refused' | 'dns' | 'tls' | 'connection';
}

export interface RetryLimits {
  /** Retries after the first attempt. */
  retries: number;
  /** Longest single wait, whatever a header asks for. */
  maxWaitMs: number;
  /** Longest total of all waits for one request. */
  totalWaitMs: number;
  /** First backoff step; it doubles per retry. */
  baseDelayMs: number;
  /** Longest backoff step (header waits are capped by maxWaitMs instead). */
  maxDelayMs: number;
}

export const defaultRetryLimits: Omit<RetryLimits, 'retries'> = {
  maxWaitMs: 60_000,
  totalWaitMs: 120_000,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
};

/** Refused connections and unknown hosts: enough to ride out a restarting server, not a typo. */
const configurationLikeRetries = 2;

export type RetryDecision =
  | { retry: true; waitMs: number; /** Where the wait came from, for the log line. */ source: string }
  | {
      retry: false;
      /** Why not, when it was not the failure's kind: the attempts or the time ran out. */ why?: string;
    };

/** Statuses a provider answers when trying again may succeed. */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Decides about the retry after failed attempt number `attempt` (1-based), given the time already
 * spent waiting for this request. `random` is in [0, 1), for the jitter.
 */
export function decideRetry(
  failure: AttemptFailure,
  attempt: number,
  waitedMs: number,
  limits: RetryLimits,
  random: () => number = Math.random,
): RetryDecision {
  if (!retryable(failure)) return { retry: false };
  const allowed =
    failure.network === 'refused' || failure.network === 'dns'
      ? Math.min(limits.retries, configurationLikeRetries)
      : limits.retries;
  if (attempt > allowed) return { retry: false };
  const remaining = limits.totalWaitMs - waitedMs;
  const asked = providerWaitMs(failure);
  if (asked !== undefined) {
    if (asked.ms > limits.maxWaitMs || asked.ms > remaining) {
      return { retry: false, why: `the provider asked to wait ${formatWait(asked.ms)}` };
    }
    return { retry: true, waitMs: asked.ms, source: asked.source };
  }
  const step = Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** (attempt - 1));
  // Equal jitter: half the step for sure, the other half random, so parallel clients spread out.
  const waitMs = Math.min(Math.round(step / 2 + (random() * step) / 2), remaining);
  if (waitMs < Math.min(100, limits.baseDelayMs)) {
    return { retry: false, why: `after ${attempt} attempts and ${formatWait(waitedMs)} of waiting` };
  }
  return { retry: true, waitMs, source: 'backoff' };
}

function retryable(failure: AttemptFailure): boolean {
  // A provider that says so is believed: it knows whether the same request can succeed.
  const should = failure.headers['x-should-retry'];
  if (should === 'false') return false;
  if (failure.status === undefined) return failure.network !== 'tls';
  // An exhausted quota is a billing matter: no wait brings the credit back.
  if (failure.status === 429 && failure.code === 'insufficient_quota') return false;
  return retryableStatus(failure.status);
}

/**
 * The wait the provider asked for: `retry-after-ms`, then `retry-after` (seconds or an HTTP date),
 * then on a 429 the rate-limit reset of the exhausted limit (or the sooner reset when neither says
 * it is exhausted). Undefined when it named none.
 */
export function providerWaitMs(
  failure: Pick<AttemptFailure, 'status' | 'headers'>,
  now: number = Date.now(),
): { ms: number; source: string } | undefined {
  const { headers } = failure;
  const ms = numberOf(headers['retry-after-ms']);
  if (ms !== undefined) return { ms, source: 'retry-after-ms' };
  const after = headers['retry-after'];
  if (after !== undefined) {
    const seconds = numberOf(after);
    if (seconds !== undefined) return { ms: seconds * 1000, source: 'retry-after' };
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return { ms: Math.max(0, date - now), source: 'retry-after' };
  }
  if (failure.status !== 429) return undefined;
  const resets = (['requests', 'tokens'] as const)
    .map((limit) => ({
      limit,
      ms: parseDuration(headers[`x-ratelimit-reset-${limit}`]),
      exhausted: headers[`x-ratelimit-remaining-${limit}`]?.trim() === '0',
    }))
    .filter((r): r is { limit: 'requests' | 'tokens'; ms: number; exhausted: boolean } => r.ms !== undefined);
  const exhausted = resets.filter((r) => r.exhausted);
  const pick = (exhausted.length > 0 ? exhausted : resets).sort((a, b) =>
    exhausted.length > 0 ? b.ms - a.ms : a.ms - b.ms,
  )[0];
  return pick ? { ms: pick.ms, source: `x-ratelimit-reset-${pick.limit}` } : undefined;
}

function numberOf(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}

const durationUnits: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001 };

/**
 * OpenAI's reset durations (Go's spelling): `1s`, `6m0s`, `20ms`, `1h2m3.5s`; undefined when the
 * value is none. A bare number is taken as seconds.
 */
export function parseDuration(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const bare = numberOf(text);
  if (bare !== undefined) return bare * 1000;
  if (!/^(\d+(\.\d+)?(h|ms|m|s|us|µs))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, , unit] of text.matchAll(/(\d+(\.\d+)?)(h|ms|m|s|us|µs)/g)) {
    total += Number(amount) * (durationUnits[unit ?? 's'] ?? 0);
  }
  return Math.round(total);
}

/** A wait as a log line says it: `350 ms`, `2.5 s`, `2 min`. */
export function formatWait(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Number((ms / 1000).toFixed(1))} s`;
  return `${Number((ms / 60_000).toFixed(1))} min`;
}
