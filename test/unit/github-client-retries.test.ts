import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGitHubClient, runnerFetch, withOrchestrationId, type GitHubClient } from '../../src/github/client.js';
import { secondaryRateLimit, startGitHubEmulator, type GitHubEmulator } from '../fakes/github-emulator.js';

// plangate's client retries and rate-limit waits without Bottleneck's timer hops. These tests play
// the same failures against it and against the composition it replaced (@actions/github's
// getOctokit with @octokit/plugin-retry and @octokit/plugin-throttling) and expect the same
// attempts, the same waits and the same outcome. Waits are read off setTimeout, not the clock.

const owner = 'octo';
const repo = 'sample';
const token = 'ghs_retryTestToken0123456789';
/** Milliseconds per wait unit: an odd number, so retry waits stand out among other timers. */
const UNIT = 7;

let gh: GitHubEmulator;
beforeAll(async () => {
  gh = await startGitHubEmulator({ owner, repo, token });
});
afterAll(async () => {
  await gh?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A Bottleneck group that starts every job at once: the reference's write pacing would cost seconds here. */
const unpaced = {
  key: () => ({ schedule: (_options: unknown, job: (...a: unknown[]) => unknown, ...args: unknown[]) => job(...args) }),
};

/** The composition createGitHubClient replaced, with the same retry and rate-limit settings. */
function reference(): GitHubClient {
  const giveUpAfterTwo = (_after: number, _options: unknown, _octokit: unknown, retryCount: number) => retryCount < 2;
  return getOctokit(
    token,
    {
      baseUrl: gh.url,
      retry: { retries: 3, retryAfterBaseValue: UNIT },
      throttle: {
        retryAfterBaseValue: UNIT,
        write: unpaced,
        notifications: unpaced,
        onRateLimit: giveUpAfterTwo,
        onSecondaryRateLimit: giveUpAfterTwo,
      },
    },
    retry,
    throttling,
  );
}

const plangate = (): GitHubClient => createGitHubClient(token, gh.url, { waitUnitMs: UNIT, pace: false });

interface Played {
  outcome: string;
  attempts: number;
  /** Waits of whole units, in order: retry backoff and rate-limit waits. */
  waits: number[];
}

/** Runs `call` with `failures` armed and reports what the emulator saw and which waits were taken. */
async function play(
  client: GitHubClient,
  failures: (path: string) => void,
  call: (octokit: GitHubClient, issue: number) => Promise<unknown>,
): Promise<Played> {
  const issue = gh.addIssue({ title: 'Retries', login: 'mona' }).number;
  const path = `/repos/${owner}/${repo}/issues/${issue}`;
  failures(path);
  const before = gh.requests.length;
  const timers = vi.spyOn(globalThis, 'setTimeout');
  let outcome = 'ok';
  try {
    await call(client, issue);
  } catch (error) {
    outcome = `failed ${(error as { status?: number }).status}`;
  }
  const waits = timers.mock.calls
    .map(([, ms]) => Number(ms ?? 0))
    .filter((ms) => ms > 0 && ms < 1_000 && ms % UNIT === 0);
  timers.mockRestore();
  const attempts = gh.requests.slice(before).filter((r) => r.path.startsWith(path) || r.path === '/graphql').length;
  return { outcome, attempts, waits };
}

const getIssue = (octokit: GitHubClient, issue: number) =>
  octokit.rest.issues.get({ owner, repo, issue_number: issue });

/** Each case: the failures to arm, the call, and what plangate's client must do (the reference must agree). */
const cases: Array<{
  name: string;
  failures: (path: string) => void;
  call: (o: GitHubClient, issue: number) => Promise<unknown>;
  expected: Played;
}> = [
  {
    name: 'retries a 5xx with 1 and 4 units of backoff until it succeeds',
    failures: (path) => gh.failNext('GET', path, 502, 2),
    call: getIssue,
    expected: { outcome: 'ok', attempts: 3, waits: [UNIT, 4 * UNIT] },
  },
  {
    name: 'gives up after three retries (1, 4, 9 units)',
    failures: (path) => gh.failNext('GET', path, 500, 10),
    call: getIssue,
    expected: { outcome: 'failed 500', attempts: 4, waits: [UNIT, 4 * UNIT, 9 * UNIT] },
  },
  {
    name: 'never retries a status a retry cannot change',
    failures: (path) => gh.failNext('GET', path, 404, 1),
    call: getIssue,
    expected: { outcome: 'failed 404', attempts: 1, waits: [] },
  },
  {
    name: 'leaves a call with request.retries 0 unretried',
    failures: (path) => gh.failNext('POST', `${path}/comments`, 500, 1),
    call: (octokit, issue) =>
      octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: 'once', request: { retries: 0 } }),
    expected: { outcome: 'failed 500', attempts: 1, waits: [] },
  },
  {
    name: 'retries a connection lost before the answer',
    failures: (path) => gh.failAfter('GET', path, 'reset', 1),
    call: getIssue,
    expected: { outcome: 'ok', attempts: 2, waits: [UNIT] },
  },
  {
    name: 'retries GraphQL\'s "Something went wrong" answer',
    failures: () =>
      gh.failNext('POST', '/graphql', 200, 1, {
        body: {
          data: null,
          errors: [{ message: 'Something went wrong while executing your query. Please try again later.' }],
        },
      }),
    call: (octokit) => octokit.graphql(`query { repository(owner: "${owner}", name: "${repo}") { name } }`),
    expected: { outcome: 'ok', attempts: 2, waits: [UNIT] },
  },
  {
    name: 'waits out a secondary rate limit and gives up after two retries',
    failures: (path) => gh.failNext('GET', path, 403, 5, secondaryRateLimit(2)),
    call: getIssue,
    expected: { outcome: 'failed 403', attempts: 3, waits: [2 * UNIT, 2 * UNIT] },
  },
  {
    name: 'starts the backoff afresh after a rate-limit wait',
    failures: (path) => {
      gh.failNext('GET', path, 502, 1);
      gh.failNext('GET', path, 403, 1, secondaryRateLimit(1));
      gh.failNext('GET', path, 503, 1);
    },
    call: getIssue,
    expected: { outcome: 'ok', attempts: 4, waits: [UNIT, UNIT, UNIT] },
  },
];

describe('createGitHubClient retries', () => {
  for (const c of cases) {
    it(c.name, async () => {
      // GraphQL failures match on the path alone, so the two plays must not overlap.
      const expected = await play(reference(), c.failures, c.call);
      const actual = await play(plangate(), c.failures, c.call);
      expect(actual).toEqual(c.expected);
      expect(actual).toEqual(expected);
    });
  }

  it('sends a request without a single timer hop, where the composition it replaced took a dozen', async () => {
    const hops = async (client: GitHubClient) => {
      const issue = gh.addIssue({ title: 'Hops', login: 'mona' }).number;
      const timers = vi.spyOn(globalThis, 'setTimeout');
      await getIssue(client, issue);
      // Zero-delay timers only: the HTTP client's own timeouts (seconds) are no hop.
      const count = timers.mock.calls.filter(([, ms]) => Number(ms ?? 0) < 1_000).length;
      timers.mockRestore();
      return count;
    };
    expect(await hops(plangate())).toBe(0);
    expect(await hops(reference())).toBeGreaterThanOrEqual(8);
  });

  it('runs at most ten requests at once, the rest as slots free up', async () => {
    const octokit = plangate();
    const issue = gh.addIssue({ title: 'Many reads', login: 'mona' }).number;
    // Requests reach this fetch only when the client lets them go; each is held until released.
    let inFlight = 0;
    const held: Array<() => void> = [];
    const holdingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      inFlight += 1;
      await new Promise<void>((resolve) => held.push(resolve));
      try {
        return await globalThis.fetch(input, init);
      } finally {
        inFlight -= 1;
      }
    };
    let finished = 0;
    const calls = Promise.all(
      Array.from({ length: 25 }, () =>
        octokit.rest.issues
          .get({ owner, repo, issue_number: issue, request: { fetch: holdingFetch } })
          .finally(() => (finished += 1)),
      ),
    );
    const settle = async () => {
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    // Each round: let the client start what it will, note how many it started, release them.
    const started: number[] = [];
    for (let round = 0; finished < 25 && round < 10; round++) {
      await settle();
      started.push(inFlight);
      for (const release of held.splice(0)) release();
    }
    expect(finished).toBe(25);
    const results = await calls;
    expect(started[0]).toBe(10);
    expect(Math.max(...started)).toBe(10);
    expect(results.map((r) => r.data.number)).toEqual(Array.from({ length: 25 }, () => issue));
  });
});

describe('runnerFetch', () => {
  it("is Node's own fetch when no proxy variable is set", () => {
    expect(runnerFetch({ no_proxy: 'example.com' })).toBe(globalThis.fetch);
    expect(runnerFetch({ HTTPS_PROXY: '' })).toBe(globalThis.fetch);
  });
});

describe('withOrchestrationId', () => {
  it('appends the runner’s orchestration id, made safe, once', () => {
    expect(withOrchestrationId('plangate', {})).toBe('plangate');
    expect(withOrchestrationId('plangate', { ACTIONS_ORCHESTRATION_ID: '  ' })).toBe('plangate');
    expect(withOrchestrationId('plangate', { ACTIONS_ORCHESTRATION_ID: 'run 42/a:b' })).toBe(
      'plangate actions_orchestration_id/run_42_a_b',
    );
    expect(withOrchestrationId('plangate actions_orchestration_id/x', { ACTIONS_ORCHESTRATION_ID: 'x' })).toBe(
      'plangate actions_orchestration_id/x',
    );
  });
});
