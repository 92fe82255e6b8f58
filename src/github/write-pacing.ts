/**
 * How far apart plangate starts its GitHub writes: a token bucket per kind of write. A run may make
 * `burst` writes back to back; after that, one more per `intervalMs`. So a run's few writes wait for
 * nothing, while a long run settles at the steady one-per-interval rate GitHub asks of integrations
 * that make many writes. In any window of W ms at most `burst + W / intervalMs` writes start, which is
 * the bound the rules below are chosen against (see src/github/client.ts for the documentation).
 * Pure and without imports, so the benchmark can replay it over a request log.
 */
export interface PacingRule {
  /** Writes that may start at once before pacing sets in. */
  burst: number;
  /** The steady spacing once the burst is spent, and the time one write's allowance takes to come back. */
  intervalMs: number;
}

/** Every write and every GraphQL call (the throttling plugin counts GraphQL queries as writes too). */
export const WRITE_PACING: PacingRule = { burst: 15, intervalMs: 1_000 };

/** Writes that notify people (new issues, comments, pull requests, review requests), on top of WRITE_PACING. */
export const NOTIFICATION_PACING: PacingRule = { burst: 5, intervalMs: 3_000 };

/** No pacing at all: for tests, where pacing would cost wall-clock time and prove nothing. */
export const UNPACED: PacingRule = { burst: Number.POSITIVE_INFINITY, intervalMs: 0 };

export interface PacingBucket {
  /**
   * Books the next write asked for at `now` (ms on any monotonic clock) and returns when it may
   * start: never before `now`, never before a write booked earlier, and never faster than the rule.
   */
  reserve(now: number): number;
}

export function createPacingBucket(rule: PacingRule): PacingBucket {
  let tokens = rule.burst;
  // The time `tokens` was last computed for: the start of the latest booked write.
  let at = Number.NEGATIVE_INFINITY;
  return {
    reserve(now) {
      // Writes start in the order asked: one asked while another still waits queues behind it.
      const from = Math.max(now, at);
      const refilled = rule.intervalMs > 0 ? (from - at) / rule.intervalMs : Number.POSITIVE_INFINITY;
      let available = Math.min(rule.burst, tokens + refilled);
      let start = from;
      if (available < 1) {
        start = from + (1 - available) * rule.intervalMs;
        available = 1;
      }
      tokens = available - 1;
      at = start;
      return start;
    },
  };
}
