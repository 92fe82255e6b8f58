import * as core from '@actions/core';
import type { getOctokit } from '@actions/github';
import { Octokit, type OctokitOptions } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { restEndpointMethods } from '@octokit/plugin-rest-endpoint-methods';
import { throttling, type ThrottlingOptions } from '@octokit/plugin-throttling';
import { RequestError } from '@octokit/request-error';
import { honourZeroRetryAfter } from './retry-after-fetch.js';
import { fetchWithTimeout, type Fetch } from './timeout-fetch.js';
import { createPacingBucket, NOTIFICATION_PACING, UNPACED, WRITE_PACING, type PacingRule } from './write-pacing.js';

/**
 * The Octokit client plangate talks to GitHub with: the client @actions/github's `getOctokit` builds
 * (its REST methods and pagination, `token` auth, the runner's orchestration id in the user agent),
 * with the GitHub Enterprise Server base URL; retries absorb transient 5xx answers and the throttling
 * plugin waits out primary and secondary rate limits a bounded number of times.
 *
 * Built here rather than by `getOctokit` because importing @actions/github evaluates its proxy
 * support at once: a bundled copy of undici (the biggest module of the action) and an HTTP client,
 * which cost every run tens of milliseconds although only a runner with a proxy uses them. So the
 * runner's proxy settings are honoured lazily: with no proxy variable set, requests go through
 * Node's own fetch (what @actions/github's fetch does then too: a direct connection); with one set,
 * @actions/github's proxy-aware fetch is loaded on the first request and used as before.
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

/** @actions/github's client with retries and throttling, in the order getOctokit applied them. */
const PlangateOctokit = Octokit.plugin(restEndpointMethods, paginateRest, retryTransientFailures, throttling);

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
  /**
   * Asked as each write starts (anything but a read: GET, HEAD and GraphQL queries); when it says
   * no, the write fails with WritesStoppedError and nothing is sent. A stopped job's gate (see
   * entry/stop-gate.ts).
   */
  mayWrite?: () => boolean;
}

/** A write refused because the job is being stopped. */
export class WritesStoppedError extends Error {
  override name = 'WritesStoppedError';
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
    schedule: async (...args: unknown[]) => {
      const [job, jobArgs] = scheduled(args);
      const now = clock.now();
      const wait = bucket.reserve(now) - now;
      if (wait > 0) await clock.sleep(wait);
      return job(...jobArgs);
    },
  };
  return { key: () => limiter } as unknown as LimiterGroup;
}

type Job = (...args: unknown[]) => unknown;

/** Bottleneck's schedule is called as schedule(job, ...args) or schedule(options, job, ...args). */
function scheduled(args: unknown[]): [Job, unknown[], { weight?: number }] {
  const [job, ...jobArgs] = (typeof args[0] === 'function' ? args : args.slice(1)) as [Job, ...unknown[]];
  const options = typeof args[0] === 'function' ? {} : ((args[0] ?? {}) as { weight?: number });
  return [job, jobArgs, options];
}

/*
 * Timer hops. A Bottleneck limiter passes every job through four zero-delay timers (its datastore
 * yields to the event loop on submit, register, run and free), about 5 ms however idle it is, and
 * the throttling plugin put every request through two of them (`retryLimiter`, then the `global`
 * group) on top of the retry plugin's own: some 15 ms of waiting per API call. The two below do what
 * the plugin asks of those two limiters, without timers.
 */

/**
 * Stands in for the `global` and `auth` groups: at most `maxConcurrent` requests at once (10 and 1,
 * the plugin's numbers), the rest started in the order they came as slots free up. A request the
 * plugin retries after a rate limit comes with weight 0 and, as in Bottleneck, takes no slot.
 * Bottleneck shares these groups between the clients of a process; plangate makes one client per run.
 */
function concurrencyGroup(maxConcurrent: number): LimiterGroup {
  let running = 0;
  const waiting: Array<() => void> = [];
  const limiter = {
    schedule: async (...args: unknown[]) => {
      const [job, jobArgs, options] = scheduled(args);
      if (options.weight === 0) return job(...jobArgs);
      // A finished job hands its slot straight to the next in line, so `running` counts held slots.
      if (running < maxConcurrent) running += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await job(...jobArgs);
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running -= 1;
      }
    },
  };
  return { key: () => limiter } as unknown as LimiterGroup;
}

type FailedListener = (error: unknown, info: { args: unknown[]; options: object; retryCount: number }) => unknown;

/** What the plugin calls on its `retryLimiter` (a Bottleneck instance, not in its option types). */
interface RetryLimiter {
  on(event: string, listener: FailedListener): void;
  schedule(...args: unknown[]): Promise<unknown>;
}

/**
 * Stands in for the plugin's `retryLimiter`, which decides rate-limit retries: a job that fails is
 * offered to the `failed` listeners, and run again after the milliseconds one of them returns (the
 * plugin's listener answers with the wait GitHub asked for, or nothing to give up), else its error
 * stands. That is all the plugin uses of it; a listener that throws counts as no answer, as in
 * Bottleneck.
 */
function retryLimiter(): RetryLimiter {
  const listeners: FailedListener[] = [];
  return {
    on(event, listener) {
      if (event === 'failed') listeners.push(listener);
    },
    async schedule(...args) {
      const [job, jobArgs] = scheduled(args);
      for (let retryCount = 0; ; retryCount += 1) {
        try {
          return await job(...jobArgs);
        } catch (error) {
          const info = { args: jobArgs, options: {}, retryCount };
          const answers = await Promise.all(
            listeners.map(async (listener) => await Promise.resolve(listener(error, info)).catch(() => null)),
          );
          const retryAfter = answers.find((answer) => answer !== undefined && answer !== null);
          if (retryAfter === undefined) throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.trunc(Number(retryAfter)) || 0));
        }
      }
    },
  };
}

/** Statuses a retry cannot change: the request itself is wrong or not allowed (@octokit/plugin-retry's list). */
const DO_NOT_RETRY = new Set([400, 401, 403, 404, 410, 422, 451]);
/** GitHub's answer to a GraphQL query that failed on its side, in a 200 response. */
const GRAPHQL_SERVER_FAILURE = /Something went wrong while executing your query/;

interface RetryOptions {
  retries?: number;
  retryAfterBaseValue?: number;
}

/** Per-request retry knobs in the options' `request` field; `retries: 0` turns retries off for one call. */
interface RetryKnobs {
  retries?: unknown;
  retryAfter?: unknown;
  retryCount?: number;
}

/** What a failed request leaves on its error: a copy of the request options, whose `request` field holds the knobs. */
type FailedRequest = { request?: RetryKnobs };

/** The failed request an Octokit error carries, by shape as the retry plugin tells them; undefined for any other error. */
function failedRequestOf(error: unknown): FailedRequest | undefined {
  if (typeof error !== 'object' || error === null || !('request' in error)) return undefined;
  return (error as { request?: FailedRequest }).request;
}

/** A knob as a whole number, as Bottleneck read the plugin's answers (`~~value`): anything odd is 0. */
const whole = (value: unknown): number => Math.trunc(Number(value)) || 0;

/**
 * Retries transient failures (5xx, a lost connection, which Octokit reports as 500, and GraphQL's
 * "Something went wrong" answer) up to `retries` times (3), waiting 1, 4 and 9 units of
 * `retryAfterBaseValue`; statuses in DO_NOT_RETRY fail at once. This is the behaviour of
 * @octokit/plugin-retry 8, which ran each request through a Bottleneck limiter of its own only to
 * get there, at about 5 ms of timer hops per call (see "Timer hops" above). Registered where that
 * plugin was, below the throttling plugin, so a rate-limit retry starts a fresh round of these.
 */
function retryTransientFailures(octokit: Octokit, octokitOptions: OctokitOptions): Record<string, never> {
  const settings = (octokitOptions.retry ?? {}) as RetryOptions;
  const retries = settings.retries ?? 3;
  const unitMs = settings.retryAfterBaseValue ?? 1000;
  const knobsOf = (options: unknown): RetryKnobs => (options as { request: RetryKnobs }).request;
  // A retryable failure gets, on its copy of the request, how often to retry and after how many units.
  const markRetryable = (error: unknown, options: unknown): never => {
    const failed = failedRequestOf(error);
    const status = (error as { status?: unknown }).status;
    if (!failed?.request || typeof status !== 'number' || status < 400 || DO_NOT_RETRY.has(status)) throw error;
    const knobs = knobsOf(options);
    failed.request = {
      ...failed.request,
      retries: knobs.retries ?? retries,
      retryAfter: ((knobs.retryCount ?? 0) + 1) ** 2,
    };
    throw error;
  };
  octokit.hook.error('request', markRetryable);
  octokit.hook.wrap('request', async (request, options) => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const response = await request(options);
        const first = (response.data as { errors?: Array<{ message?: unknown }> } | undefined)?.errors?.[0]?.message;
        if (typeof first === 'string' && GRAPHQL_SERVER_FAILURE.test(first))
          markRetryable(new RequestError(first, 500, { request: options, response }), options);
        return response;
      } catch (error) {
        const failed = failedRequestOf(error);
        if (failed === undefined) throw error;
        // The next attempt's backoff counts from here; the throttling plugin sets its own count when it retries a rate limit.
        knobsOf(options).retryCount = attempt + 1;
        if (!(whole(failed.request?.retries) > attempt)) throw error;
        await new Promise((resolve) => setTimeout(resolve, whole(failed.request?.retryAfter) * unitMs));
      }
    }
  });
  return {};
}

const maxRateLimitRetries = 2;
/** One search request at a time, starts at least 2 s apart: the plugin's `search` group. */
const SEARCH_PACING: PacingRule = { burst: 1, intervalMs: 2_000 };
const defaultTimeoutMs = 60_000;
const secondMs = 1000;

export function createGitHubClient(token: string, apiUrl: string, options: GitHubClientOptions = {}): GitHubClient {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const waitUnitMs = options.waitUnitMs ?? secondMs;
  const clock = options.pacingClock ?? realClock;
  // getOctokit's own check: a client without a token would only fail later, on every call.
  if (!token) throw new Error('Parameter token or opts.auth is required');
  const throttle: ThrottlingOptions = {
    retryAfterBaseValue: waitUnitMs,
    write: pacedGroup(options.pace === false ? UNPACED : WRITE_PACING, clock),
    notifications: pacedGroup(options.pace === false ? UNPACED : NOTIFICATION_PACING, clock),
    // Bottleneck's minTime of 2 s between search requests, as the plugin sets it, paced or not.
    search: pacedGroup(SEARCH_PACING, clock),
    onRateLimit: (retryAfter, options, _octokit, retryCount) => {
      core.warning(
        `GitHub rate limit hit on ${options.method} ${options.url}; retry ${retryCount + 1} in ${retryAfter}s.`,
      );
      return retryCount < maxRateLimitRetries;
    },
    onSecondaryRateLimit: (retryAfter, options, _octokit, retryCount) => {
      core.warning(
        `GitHub secondary rate limit on ${options.method} ${options.url}; retry ${retryCount + 1} in ${retryAfter}s.`,
      );
      return retryCount < maxRateLimitRetries;
    },
  };
  // Read by the plugin at run time like `write`, though its option types do not list them.
  const withoutTimerHops = { global: concurrencyGroup(10), auth: concurrencyGroup(1), retryLimiter: retryLimiter() };
  const client = new PlangateOctokit({
    auth: `token ${token}`,
    baseUrl: apiUrl,
    userAgent: withOrchestrationId('plangate', process.env),
    request: { fetch: honourZeroRetryAfter(fetchWithTimeout(runnerFetch(process.env), timeoutMs)) },
    retry: { retries: 3, retryAfterBaseValue: waitUnitMs },
    throttle: { ...throttle, ...withoutTimerHops },
  });
  const { mayWrite } = options;
  if (mayWrite)
    client.hook.before('request', (request) => {
      const read = request.method === 'GET' || request.method === 'HEAD' || request.url === '/graphql';
      if (!read && !mayWrite())
        throw new WritesStoppedError(
          `The job is being stopped: plangate writes nothing more to GitHub (${request.method} ${request.url}).`,
        );
    });
  // The same instance getOctokit returned; its declared type just does not list the two plugins.
  return client as GitHubClient;
}

/** The proxy variables @actions/http-client reads; with none set, no request of the run is proxied. */
const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;

/**
 * The fetch GitHub requests go through. @actions/github proxies a request only when one of
 * PROXY_VARIABLES is set (and no_proxy does not exempt the host), so with none set its fetch makes
 * the same direct connection Node's does. With one set, its fetch is loaded on the first request and
 * used as it was: it reads the runner's proxy settings, no_proxy included, as it always has.
 */
export function runnerFetch(env: NodeJS.ProcessEnv): Fetch {
  if (!PROXY_VARIABLES.some((name) => env[name])) return globalThis.fetch;
  let proxied: Promise<Fetch> | undefined;
  return async (input, init) => {
    proxied ??= import('@actions/github/lib/utils').then(
      ({ defaults }) => (defaults.request?.fetch as Fetch | undefined) ?? globalThis.fetch,
    );
    return (await proxied)(input, init);
  };
}

/**
 * The user agent with the runner's orchestration id appended, as getOctokit sends it: GitHub uses
 * the id to tie API traffic to the workflow run that made it.
 */
export function withOrchestrationId(userAgent: string, env: NodeJS.ProcessEnv): string {
  const id = env.ACTIONS_ORCHESTRATION_ID?.trim();
  if (!id) return userAgent;
  const tag = `actions_orchestration_id/${id.replace(/[^a-z0-9_.-]/gi, '_')}`;
  return userAgent.includes(tag) ? userAgent : `${userAgent} ${tag}`;
}
