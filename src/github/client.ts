import * as core from '@actions/core';
import { getOctokit } from '@actions/github';
import { defaults as actionsDefaults } from '@actions/github/lib/utils';
import { retry } from '@octokit/plugin-retry';
import { throttling, type ThrottlingOptions } from '@octokit/plugin-throttling';
import { honourZeroRetryAfter } from './retry-after-fetch.js';
import { fetchWithTimeout, type Fetch } from './timeout-fetch.js';
import { createPacingBucket, NOTIFICATION_PACING, UNPACED, WRITE_PACING, type PacingRule } from './write-pacing.js';

/**
 * The Octokit client plangate talks to GitHub with. `getOctokit` brings the runner's proxy settings
 * and the GitHub Enterprise Server base URL; the retry plugin absorbs transient 5xx answers and the
 * throttling plugin waits out primary and secondary rate limits a bounded number of times.
 *
 * Pacing. @octokit/plugin-throttling 11 on its own starts every write (any method but GET/HEAD) and
 * every GraphQL call at least 1 s after the previous one (Bottleneck group `write`, minTime 1000),
 * and writes that notify people at least 3 s apart (group `notifications`, minTime 3000), from the
 * first write of the process on. That cost /plan (2 writes) a full second of idle wall time. What
 * GitHub documents: "If you are making a large number of POST, PATCH, PUT, or DELETE requests, wait
 * at least one second between each request" and "make requests serially instead of concurrently"
 * (docs.github.com, REST API, "Best practices for using the REST API"); the secondary limits are at
 * most 100 concurrent requests, 900 points a minute per REST endpoint (a write costs 5), and "no more
 * than 80 content-generating requests per minute and no more than 500 content-generating requests
 * per hour" ("Rate limits for the REST API", About secondary rate limits). A run makes about 2 to
 * 20 writes, so plangate replaces the two groups with token buckets (write-pacing.ts): up to 15
 * writes back to back, then one a second; up to 5 notifying writes, then one every 3 s. Writes stay
 * serial, a long run still settles at one a second, and no 60 s window can hold more than 15 + 60 =
 * 75 writes, under the 80 content-generating requests GitHub allows a minute. A secondary-limit
 * answer is still waited out (retry-after, else the plugin's 60 s) and retried, as below.
 */
export type GitHubClient = ReturnType<typeof getOctokit>;

export interface GitHubClientOptions {
  /**
   * How long one request may take before it fails (default 60 s). A hung connection must become
   * an error the retry logic can handle, not a job that hangs until the runner's timeout.
   */
  timeoutMs?: number;
  /**
   * Milliseconds per unit of the plugins' waits: retry backoff (1, 4, 9 units) and GitHub's
   * `retry-after` seconds. GitHub means seconds, so 1000 outside tests; tests shrink it so a
   * retried request does not cost wall-clock seconds.
   */
  waitUnitMs?: number;
  /**
   * Paces writes as WRITE_PACING and NOTIFICATION_PACING say (see the note on pacing below). Only
   * tests turn this off, where pacing would cost wall-clock time and prove nothing; rate-limit
   * answers are still waited out and retried.
   */
  pace?: boolean;
  /** The clock pacing waits on; tests pass one that records the waits instead of sleeping. */
  pacingClock?: PacingClock;
}

/** Monotonic milliseconds and a way to wait: what write pacing needs of time. */
export interface PacingClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: PacingClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

type LimiterGroup = NonNullable<ThrottlingOptions['write']>;

/**
 * Stands in for one of the throttling plugin's Bottleneck groups (`write`, `notifications`): the
 * plugin awaits `group.key(id).schedule(options, noop)` before it sends a write, so delaying that
 * job delays the write. A retried write is booked like any other, as Bottleneck applies its minTime
 * to retries too. One bucket per client: plangate makes one client per run.
 */
function pacedGroup(rule: PacingRule, clock: PacingClock): LimiterGroup {
  const bucket = createPacingBucket(rule);
  const limiter = {
    // Called as schedule(job, ...args) or schedule(options, job, ...args); the options only matter to Bottleneck.
    schedule: async (...args: unknown[]) => {
      const [job, ...jobArgs] = (typeof args[0] === 'function' ? args : args.slice(1)) as [(...a: unknown[]) => unknown, ...unknown[]];
      const now = clock.now();
      const wait = bucket.reserve(now) - now;
      if (wait > 0) await clock.sleep(wait);
      return job(...jobArgs);
    },
  };
  return { key: () => limiter } as unknown as LimiterGroup;
}

const maxRateLimitRetries = 2;
const defaultTimeoutMs = 60_000;
const secondMs = 1000;

export function createGitHubClient(token: string, apiUrl: string, options: GitHubClientOptions = {}): GitHubClient {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const waitUnitMs = options.waitUnitMs ?? secondMs;
  const clock = options.pacingClock ?? realClock;
  // Passing `request` replaces @actions/github's defaults wholesale, so its proxy-aware fetch and
  // agent are carried over explicitly and only wrapped with the timeout.
  const inherited = actionsDefaults.request ?? {};
  const baseFetch = (inherited.fetch as Fetch | undefined) ?? globalThis.fetch;
  return getOctokit(
    token,
    {
      baseUrl: apiUrl,
      userAgent: 'plangate',
      request: { ...inherited, fetch: honourZeroRetryAfter(fetchWithTimeout(baseFetch, timeoutMs)) },
      retry: { retries: 3, retryAfterBaseValue: waitUnitMs },
      throttle: {
        retryAfterBaseValue: waitUnitMs,
        write: pacedGroup(options.pace === false ? UNPACED : WRITE_PACING, clock),
        notifications: pacedGroup(options.pace === false ? UNPACED : NOTIFICATION_PACING, clock),
        onRateLimit: (retryAfter, options, _octokit, retryCount) => {
          core.warning(`GitHub rate limit hit on ${options.method} ${options.url}; retry ${retryCount + 1} in ${retryAfter}s.`);
          return retryCount < maxRateLimitRetries;
        },
        onSecondaryRateLimit: (retryAfter, options, _octokit, retryCount) => {
          core.warning(`GitHub secondary rate limit on ${options.method} ${options.url}; retry ${retryCount + 1} in ${retryAfter}s.`);
          return retryCount < maxRateLimitRetries;
        },
      },
    },
    retry,
    throttling,
  );
}
