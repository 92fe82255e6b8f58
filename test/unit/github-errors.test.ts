import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient, type GitHubClient } from '../../src/github/client.js';
import { explainGitHubError, outcomeUnknown, statusOf } from '../../src/github/errors.js';
import { checkStored, ReadBackMismatchError } from '../../src/github/read-back.js';
import { honourZeroRetryAfter } from '../../src/github/retry-after-fetch.js';
import { fetchWithTimeout, GitHubTimeoutError, type Fetch } from '../../src/github/timeout-fetch.js';
import { secondaryRateLimit, startGitHubEmulator, type GitHubEmulator } from '../fakes/github-emulator.js';
import { createOrigin, type Origin } from './github-origin-fixture.js';

// What failed GitHub requests mean, checked on the errors the real client raises against the emulator.

const owner = 'octo';
const repo = 'sample';
const token = 'ghs_errorsTestToken0123456789';

let origin: Origin;
let gh: GitHubEmulator;
let octokit: GitHubClient;

beforeAll(async () => {
  origin = createOrigin();
  gh = await startGitHubEmulator({ owner, repo, token, originPath: origin.path });
  octokit = createGitHubClient(token, gh.url, { waitUnitMs: 1, pace: false });
});

afterAll(async () => {
  await gh?.close();
  origin?.remove();
});

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (error: unknown) => error,
  );
}

describe('explainGitHubError', () => {
  it('names the setting when Actions may not open pull requests', async () => {
    gh.forbidActionsPullRequests();
    try {
      const error = await errorOf(octokit.rest.pulls.create({ owner, repo, title: 'T', head: 'main', base: 'main' }));
      const explained = explainGitHubError(error);
      expect(explained.kind).toBe('pull-requests-disabled');
      expect(explained.message).toContain('Allow GitHub Actions to create and approve pull requests');
    } finally {
      gh.forbidActionsPullRequests(false);
    }
  });

  it('names the workflow permission a refused write needed', async () => {
    const issue = gh.addIssue({ title: 'perms', login: 'mona' }).number;
    gh.denyPermission('issues');
    gh.denyPermission('contents');
    gh.denyPermission('pull-requests');
    try {
      const comment = explainGitHubError(
        await errorOf(octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: 'x' })),
      );
      expect(comment.kind).toBe('missing-permission');
      expect(comment.message).toContain('`issues: write`');
      expect(comment.message).toContain(`POST /repos/${owner}/${repo}/issues/${issue}/comments`);
      const ref = explainGitHubError(
        await errorOf(octokit.rest.git.createRef({ owner, repo, ref: 'refs/plangate/locks/1', sha: origin.mainSha })),
      );
      expect(ref).toMatchObject({ kind: 'missing-permission' });
      expect(ref.message).toContain('`contents: write`');
      const pull = explainGitHubError(
        await errorOf(octokit.rest.pulls.update({ owner, repo, pull_number: 1, title: 'x' })),
      );
      expect(pull.message).toContain('`pull-requests: write`');
    } finally {
      gh.grantPermission('issues');
      gh.grantPermission('contents');
      gh.grantPermission('pull-requests');
    }
    gh.failNext('GET', /\/actions\/runs\/\d+$/, 403, 1, {
      body: { message: 'Resource not accessible by integration' },
    });
    const runs = explainGitHubError(await errorOf(octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: 5 })));
    expect(runs.message).toContain('`actions: read`');
  });

  it('calls a secondary rate limit that outlasted the retries rate-limited', async () => {
    const before = gh.requests.length;
    gh.failNext('GET', /^\/repos\/[^/]+\/[^/]+$/, 403, 3, secondaryRateLimit(0));
    const error = await errorOf(octokit.rest.repos.get({ owner, repo }));
    // The throttling plugin recognised it and retried twice before giving up.
    expect(gh.requests.slice(before).map((r) => r.status)).toEqual([403, 403, 403]);
    expect(explainGitHubError(error).kind).toBe('rate-limited');
  });

  it('calls a 429 that outlasted the retries rate-limited', async () => {
    gh.failNext('GET', /^\/repos\/[^/]+\/[^/]+$/, 429, 4, { body: { message: 'Too Many Requests' } });
    const explained = explainGitHubError(await errorOf(octokit.rest.repos.get({ owner, repo })));
    expect(explained.kind).toBe('rate-limited');
    expect(explained.message).toContain(`GET /repos/${owner}/${repo}`);
  });

  it('tells not-found from anything else', async () => {
    const missing = explainGitHubError(await errorOf(octokit.rest.issues.get({ owner, repo, issue_number: 9999 })));
    expect(missing.kind).toBe('not-found');
    expect(missing.message).toContain(`GET /repos/${owner}/${repo}/issues/9999`);
    const invalid = explainGitHubError(
      await errorOf(octokit.rest.git.createRef({ owner, repo, ref: 'refs/x/y', sha: 'f'.repeat(40) })),
    );
    expect(invalid.kind).toBe('other');
    expect(invalid.message).toContain('GitHub answered 422');
    expect(invalid.message).toContain('Object does not exist');
    expect(explainGitHubError(new Error('socket hang up'))).toEqual({ kind: 'other', message: 'socket hang up' });

    const impatient = createGitHubClient(token, gh.url, { timeoutMs: 20, waitUnitMs: 1, pace: false });
    gh.failAfter('GET', /\/issues\/1$/, 'hang', 4);
    const timedOut = explainGitHubError(await errorOf(impatient.rest.issues.get({ owner, repo, issue_number: 1 })));
    expect(timedOut.kind).toBe('other');
    expect(timedOut.message).toMatch(
      new RegExp(
        `^No answer from GitHub for GET /repos/${owner}/${repo}/issues/1: GitHub did not answer GET .* within 20 ms$`,
      ),
    );
    expect(explainGitHubError('a string')).toEqual({ kind: 'other', message: 'a string' });
  });
});

describe('statusOf and outcomeUnknown', () => {
  it('reads the status through a cause chain and treats 5xx and non-HTTP failures as unknown outcomes', async () => {
    const notFound = await errorOf(octokit.rest.issues.get({ owner, repo, issue_number: 9998 }));
    expect(statusOf(notFound)).toBe(404);
    expect(statusOf(new Error('wrapped', { cause: notFound }))).toBe(404);
    expect(outcomeUnknown(notFound)).toBe(false);
    expect(outcomeUnknown(Object.assign(new Error('Bad Gateway'), { status: 502 }))).toBe(true);
    expect(outcomeUnknown(new TypeError('fetch failed'))).toBe(true);
    expect(statusOf('nothing')).toBeUndefined();
  });
});

describe('checkStored', () => {
  it('passes equal bodies and CRLF for LF, and says where a changed body differs', () => {
    expect(() => checkStored('comment', 'a\nb', 'a\r\nb')).not.toThrow();
    expect(() => checkStored('comment', 'abc', 'abd')).toThrow(ReadBackMismatchError);
    expect(() => checkStored('comment', 'abc', 'abd')).toThrow(
      /sent 3 characters, stored 3, first difference at character 2/,
    );
    expect(() => checkStored('comment', 'abc', null)).toThrow(/stored 0/);
  });
});

describe('fetchWithTimeout', () => {
  const never: Fetch = (_input, init) =>
    new Promise((_resolve, reject) =>
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)),
    );

  it('fails a request that outlives the deadline with an error naming it', async () => {
    const error = await errorOf(
      fetchWithTimeout(never, 5)('https://api.github.invalid/repos/o/r', { method: 'PATCH' }),
    );
    expect(error).toBeInstanceOf(GitHubTimeoutError);
    expect((error as Error).message).toBe(
      'GitHub did not answer PATCH https://api.github.invalid/repos/o/r within 5 ms',
    );
  });

  it("leaves a caller's own abort as it is", async () => {
    const controller = new AbortController();
    const pending = errorOf(
      fetchWithTimeout(never, 60_000)('https://api.github.invalid/', { signal: controller.signal }),
    );
    controller.abort(new Error('caller gave up'));
    const error = await pending;
    expect(error).not.toBeInstanceOf(GitHubTimeoutError);
    expect((error as Error).message).toBe('caller gave up');
  });
});

describe('honourZeroRetryAfter', () => {
  it('makes retry-after: 0 a tiny positive wait and leaves other answers untouched', async () => {
    const answer =
      (headers: Record<string, string>): Fetch =>
      () =>
        Promise.resolve(new Response('{"message":"x"}', { status: 403, headers }));
    const zero = await honourZeroRetryAfter(answer({ 'retry-after': '0', 'x-github-request-id': 'A' }))('https://x/');
    expect(zero.headers.get('retry-after')).toBe('0.001');
    expect(Number(zero.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(zero.headers.get('x-github-request-id')).toBe('A');
    expect(zero.status).toBe(403);
    expect(await zero.json()).toEqual({ message: 'x' });
    const seven = await honourZeroRetryAfter(answer({ 'retry-after': '7' }))('https://x/');
    expect(seven.headers.get('retry-after')).toBe('7');
  });
});
