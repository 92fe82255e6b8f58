import * as core from '@actions/core';
import { getOctokit } from '@actions/github';
import { defaults as actionsDefaults } from '@actions/github/lib/utils';
import { retry } from '@octokit/plugin-retry';
import { throttling, type ThrottlingOptions } from '@octokit/plugin-throttling';
import { honourZeroRetryAfter } from './retry-after-fetch.js';
import { fetchWithTimeout, type Fetch } from './timeout-fetch.js';

/**
 * The Octokit client plangate talks to GitHub with. `getOctokit` brings the runner's proxy settings
 * and the GitHub Enterprise Server base URL; the retry plugin absorbs transient 5xx answers and the
 * throttling plugin waits out primary and secondary rate limits a bounded number of times.
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
   * GitHub asks integrations to space their writes (the throttling plugin waits a second between
   * writes and three between ones that notify). Only tests turn this off, where the pacing would
   * cost wall-clock seconds and prove nothing; rate-limit answers are still waited out and retried.
   */
  pace?: boolean;
}

type LimiterGroup = NonNullable<ThrottlingOptions['write']>;

/** A stand-in for the plugin's write limiters that runs every job at once. */
const unpaced = {
  key: () => ({
    schedule: (...args: unknown[]) => {
      const [first, ...rest] = args;
      const [job, ...jobArgs] = (typeof first === 'function' ? args : rest) as [(...a: unknown[]) => unknown, ...unknown[]];
      return Promise.resolve(job(...jobArgs));
    },
  }),
} as unknown as LimiterGroup;

const maxRateLimitRetries = 2;
const defaultTimeoutMs = 60_000;
const secondMs = 1000;

export function createGitHubClient(token: string, apiUrl: string, options: GitHubClientOptions = {}): GitHubClient {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const waitUnitMs = options.waitUnitMs ?? secondMs;
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
        ...(options.pace === false ? { write: unpaced, notifications: unpaced } : {}),
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
