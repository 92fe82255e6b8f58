import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/github/client.js';
import { ReadBackMismatchError } from '../../src/github/read-back.js';
import { createThread, type Thread } from '../../src/github/thread.js';
import { startGitHubEmulator, type GitHubEmulator } from '../fakes/github-emulator.js';

// Creating writes that must happen once however GitHub's answer is lost, and read-back of what
// GitHub stored. The emulator runs without origin: every branch exists, which is all pull requests need here.

const owner = 'octo';
const repo = 'sample';
const token = 'ghs_threadWritesToken0123456789';
const bot = 'github-actions[bot]';
const commentsPath = /\/issues\/\d+\/comments$/;
const pullsPath = /\/pulls$/;

let gh: GitHubEmulator;
let thread: Thread;

beforeAll(async () => {
  gh = await startGitHubEmulator({ owner, repo, token });
  thread = createThread(createGitHubClient(token, gh.url, { waitUnitMs: 1, pace: false }), { owner, repo }, [], {
    retryDelayMs: 1,
  });
});

afterAll(async () => {
  await gh?.close();
});

function newIssue(title: string): number {
  return gh.addIssue({ title, login: 'mona' }).number;
}

/** Requests of one method to one thread's comments made since `from`. */
function posts(issue: number, from: number): number[] {
  return gh.requests
    .slice(from)
    .filter((r) => r.method === 'POST' && r.path === `/repos/${owner}/${repo}/issues/${issue}/comments`)
    .map((r) => r.status);
}

async function rejection(promise: Promise<unknown>): Promise<Error & { status?: number }> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a rejection with an Error');
  return outcome;
}

/** The statuses GitHub answered the POSTs made since request `from` with. */
const postStatusesSince = (from: number) =>
  gh.requests
    .slice(from)
    .filter((r) => r.method === 'POST')
    .map((r) => r.status);

describe('postComment with a dedupe marker', () => {
  const body = (marker: string) => `## Plan\n\n1. Do it\n\n<!-- plangate:marker ${marker} -->\n`;

  it('finds the comment GitHub stored before answering 502, and posts no second one', async () => {
    const issue = newIssue('502 after storing');
    const from = gh.requests.length;
    gh.failAfter('POST', commentsPath, 502);
    const comment = await thread.postComment(issue, body('a1'), { dedupe: 'plangate:marker a1' });
    const stored = gh.comments(issue);
    expect(stored).toHaveLength(1);
    expect(comment.id).toBe(stored[0]?.id);
    expect(comment.body).toBe(body('a1'));
    // One POST (no blind retry by the plugin), then a look at the thread (a GraphQL read).
    expect(posts(issue, from)).toEqual([502]);
    expect(gh.requests.slice(from).map((r) => `${r.api} ${r.method}`)).toEqual(['rest POST', 'graphql POST']);
  });

  it('finds the comment GitHub stored before the connection was reset', async () => {
    const issue = newIssue('reset after storing');
    const from = gh.requests.length;
    gh.failAfter('POST', commentsPath, 'reset');
    const comment = await thread.postComment(issue, body('b2'), { dedupe: 'plangate:marker b2' });
    expect(gh.comments(issue).map((c) => c.id)).toEqual([comment.id]);
    expect(posts(issue, from)).toEqual([0]);
  });

  it('sends again when the failed attempt stored nothing, and still ends with one comment', async () => {
    const issue = newIssue('502 before storing');
    // A look-alike by someone else does not count as ours.
    gh.addComment(issue, { login: 'mona', body: 'quoting plangate:marker c3' });
    const from = gh.requests.length;
    gh.failNext('POST', commentsPath, 502);
    const comment = await thread.postComment(issue, body('c3'), { dedupe: 'plangate:marker c3' });
    expect(posts(issue, from)).toEqual([502, 201]);
    expect(
      gh
        .comments(issue)
        .filter((c) => c.user?.login === bot)
        .map((c) => c.id),
    ).toEqual([comment.id]);
  });

  it('gives up after three lost attempts that stored nothing', async () => {
    const issue = newIssue('always 503');
    const from = gh.requests.length;
    gh.failNext('POST', commentsPath, 503, 3);
    const error = await rejection(thread.postComment(issue, body('d4'), { dedupe: 'plangate:marker d4' }));
    expect(error.status).toBe(503);
    expect(posts(issue, from)).toEqual([503, 503, 503]);
    expect(gh.comments(issue)).toEqual([]);
  });

  it('does not resend when it cannot look for the lost attempt', async () => {
    const issue = newIssue('lost and blind');
    const from = gh.requests.length;
    gh.failAfter('POST', commentsPath, 502);
    // The look at the thread is a GraphQL read; GitHub refuses it.
    gh.failNext('POST', '/graphql', 403);
    const error = await rejection(thread.postComment(issue, body('e5'), { dedupe: 'plangate:marker e5' }));
    expect(error.message).toMatch(/not sending again/);
    expect(posts(issue, from)).toEqual([502]);
    expect(gh.comments(issue)).toHaveLength(1);
  });

  it('takes a refusal (4xx) as final', async () => {
    const issue = newIssue('refused');
    const from = gh.requests.length;
    gh.denyPermission('issues');
    try {
      const error = await rejection(thread.postComment(issue, body('f6'), { dedupe: 'plangate:marker f6' }));
      expect(error.status).toBe(403);
    } finally {
      gh.grantPermission('issues');
    }
    expect(posts(issue, from)).toEqual([403]);
  });

  it('waits out a secondary rate limit and posts once', async () => {
    const issue = newIssue('secondary');
    const from = gh.requests.length;
    gh.failNext('POST', commentsPath, 403, 1, {
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
      headers: { 'retry-after': '0' },
    });
    const comment = await thread.postComment(issue, body('g7'), { dedupe: 'plangate:marker g7' });
    expect(posts(issue, from)).toEqual([403, 201]);
    expect(gh.comments(issue).map((c) => c.id)).toEqual([comment.id]);
  });

  it('refuses, before sending, a marker the posted body would not contain', async () => {
    const issue = newIssue('bad marker');
    const from = gh.requests.length;
    await expect(thread.postComment(issue, body('h8'), { dedupe: 'not in the body' })).rejects.toThrow(
      /dedupe marker is not in the body/,
    );
    const secret = 'known-secret-value-0123456789abcdef';
    const redacting = createThread(createGitHubClient(token, gh.url, { pace: false }), { owner, repo }, [secret]);
    await expect(redacting.postComment(issue, `key ${secret}`, { dedupe: secret })).rejects.toThrow(/dedupe marker/);
    expect(posts(issue, from)).toEqual([]);
  });
});

describe('postComment without a dedupe marker', () => {
  it('appends a hidden nonce and uses it to find a comment stored before a reset', async () => {
    const issue = newIssue('nonce');
    const from = gh.requests.length;
    gh.failAfter('POST', commentsPath, 'reset');
    const comment = await thread.postComment(issue, 'Progress: step 1 of 2');
    expect(comment.body).toMatch(/^Progress: step 1 of 2\n\n<!-- plangate:post [0-9a-f]{16} -->$/);
    expect(gh.comments(issue).map((c) => c.body)).toEqual([comment.body]);
    expect(posts(issue, from)).toEqual([0]);

    // Two posts of the same text are two comments: the nonce tells them apart.
    const again = await thread.postComment(issue, 'Progress: step 1 of 2');
    expect(again.body).not.toBe(comment.body);
    expect(gh.comments(issue)).toHaveLength(2);
  });

  it("keeps the nonce inside GitHub's size limit", async () => {
    const issue = newIssue('long');
    const comment = await thread.postComment(issue, 'x'.repeat(70_000));
    expect(comment.body.length).toBeLessThanOrEqual(65_536);
    expect(comment.body).toMatch(/characters were cut here[\s\S]*<!-- plangate:post [0-9a-f]{16} -->$/);
  });
});

describe('read-back', () => {
  it('throws when GitHub stored another body than was sent', async () => {
    const issue = newIssue('read-back');
    const other = gh.addComment(newIssue('elsewhere'), { login: bot, body: 'Plan, altered <!-- m1 -->' });
    gh.failNext('POST', commentsPath, 201, 1, { body: other });
    const error = await rejection(thread.postComment(issue, 'Plan <!-- m1 -->', { dedupe: '<!-- m1 -->' }));
    expect(error).toBeInstanceOf(ReadBackMismatchError);
    expect(error.message).toMatch(
      /stored a different comment on #\d+ than plangate sent: sent 16 characters, stored 25, first difference at character 4/,
    );
  });

  it('accepts CRLF line endings for LF', async () => {
    const issue = newIssue('crlf');
    const sent = 'line one\nline two <!-- m2 -->';
    const stored = gh.addComment(newIssue('crlf elsewhere'), { login: bot, body: sent.replaceAll('\n', '\r\n') });
    gh.failNext('POST', commentsPath, 201, 1, { body: stored });
    const comment = await thread.postComment(issue, sent, { dedupe: '<!-- m2 -->' });
    expect(comment.id).toBe(stored.id);
  });

  it('checks edits and pull request bodies too', async () => {
    const issue = newIssue('edit read-back');
    const posted = await thread.postComment(issue, 'v1 <!-- m3 -->', { dedupe: '<!-- m3 -->' });
    gh.failNext('PATCH', /\/issues\/comments\/\d+$/, 200, 1, {
      body: { ...gh.comments(issue)[0], body: 'v2, trimmed' },
    });
    await expect(thread.updateComment(posted.id, 'v2 <!-- m3 -->')).rejects.toThrow(ReadBackMismatchError);
    expect((await thread.updateComment(posted.id, 'v3')).body).toBe('v3');

    const pull = await thread.createPullRequest({
      title: 'Read back',
      head: 'read-back',
      base: 'main',
      body: 'PR body',
      draft: false,
    });
    expect(pull).toMatchObject({ title: 'Read back', body: 'PR body', headRef: 'read-back' });
    const [stored] = gh.pulls().filter((p) => p.number === pull.number);
    gh.failNext('PATCH', /\/pulls\/\d+$/, 200, 1, { body: { ...stored, body: 'PR body (cut by a proxy)' } });
    await expect(thread.updatePullRequest(pull.number, { body: 'PR body, new' })).rejects.toThrow(
      /body of pull request/,
    );
  });
});

describe('createPullRequest', () => {
  /** The numbers of the pull requests GitHub holds for `head`. */
  const pullNumbers = (head: string) =>
    gh
      .pulls()
      .filter((p) => p.head.ref === head)
      .map((p) => p.number);

  const input = (head: string) => ({
    title: `Work on ${head}`,
    head,
    base: 'main',
    body: `Closes nothing; ${head}.`,
    draft: true,
  });

  it('finds the pull request GitHub opened before answering 502, and opens no second one', async () => {
    const from = gh.requests.length;
    gh.failAfter('POST', pullsPath, 502);
    const pull = await thread.createPullRequest(input('lost-502'));
    expect(pullNumbers('lost-502')).toEqual([pull.number]);
    expect(postStatusesSince(from)).toEqual([502]);
  });

  it('finds it after a reset too', async () => {
    gh.failAfter('POST', pullsPath, 'reset');
    const pull = await thread.createPullRequest(input('lost-reset'));
    expect(pullNumbers('lost-reset')).toEqual([pull.number]);
  });

  it('opens it on a second attempt when the first stored nothing', async () => {
    const from = gh.requests.length;
    gh.failNext('POST', pullsPath, 502);
    const pull = await thread.createPullRequest(input('retry'));
    expect(postStatusesSince(from)).toEqual([502, 201]);
    expect(pullNumbers('retry')).toEqual([pull.number]);
  });

  it('opens a pull request with one call when none is open for the head', async () => {
    const from = gh.requests.length;
    const pull = await thread.createPullRequest(input('one-call'));
    expect(gh.requests.slice(from).map((r) => [r.method, r.status])).toEqual([['POST', 201]]);
    expect(pullNumbers('one-call')).toEqual([pull.number]);
  });

  it('adopts the open pull request from the same head, brought up to date, when GitHub says it exists', async () => {
    const existing = gh.addPullRequest({ title: 'Old title', body: 'old body', login: bot, head: 'existing' });
    const from = gh.requests.length;
    const pull = await thread.createPullRequest(input('existing'));
    expect(pull).toMatchObject({
      number: existing.number,
      title: 'Work on existing',
      body: 'Closes nothing; existing.',
    });
    expect(gh.requests.slice(from).map((r) => [r.method, r.status])).toEqual([
      ['POST', 422],
      ['GET', 200],
      ['PATCH', 200],
    ]);
    expect(gh.pulls().filter((p) => p.head.ref === 'existing')).toHaveLength(1);
  });

  it('adopts an identical open pull request without writing to it', async () => {
    gh.addPullRequest({ title: 'Work on same', body: 'Closes nothing; same.', login: bot, head: 'same' });
    const from = gh.requests.length;
    const pull = await thread.createPullRequest(input('same'));
    expect(pull.title).toBe('Work on same');
    expect(gh.requests.slice(from).map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it("fails with GitHub's 422 when the pull request it says exists cannot be found", async () => {
    gh.addPullRequest({ title: 'Hidden', body: 'x', login: bot, head: 'hidden' });
    gh.failNext('GET', pullsPath, 200, 1, { body: [] });
    const error = await rejection(thread.createPullRequest(input('hidden')));
    expect(error.status).toBe(422);
  });

  it("fails with GitHub's refusal when Actions may not open pull requests", async () => {
    gh.forbidActionsPullRequests();
    try {
      const error = await rejection(thread.createPullRequest(input('forbidden')));
      expect(error.status).toBe(403);
      expect(error.message).toMatch(/not permitted to create or approve pull requests/);
    } finally {
      gh.forbidActionsPullRequests(false);
    }
    expect(gh.pulls().filter((p) => p.head.ref === 'forbidden')).toEqual([]);
  });
});

describe('request timeout', () => {
  it('turns a request GitHub never answers into an error', async () => {
    const hung = createThread(createGitHubClient(token, gh.url, { timeoutMs: 50, waitUnitMs: 1, pace: false }), {
      owner,
      repo,
    });
    // Every attempt hangs, the plugin's retries included.
    gh.failAfter('GET', /^\/repos\/[^/]+\/[^/]+$/, 'hang', 10);
    try {
      const error = await rejection(hung.defaultBranch());
      expect(error.message).toMatch(/GitHub did not answer GET .*\/repos\/octo\/sample within 50 ms/);
      expect(error.status).toBe(500);
    } finally {
      // Use up the rest so later requests are served.
      while (gh.requests.filter((r) => r.fault === 'hang' && r.method === 'GET').length < 10) {
        await hung.defaultBranch().catch(() => undefined);
      }
    }
  });

  it('finds a comment stored by a POST that never answered', async () => {
    const issue = newIssue('hung post');
    const patient = createThread(
      createGitHubClient(token, gh.url, { timeoutMs: 2_000, waitUnitMs: 1, pace: false }),
      { owner, repo },
      [],
      {
        retryDelayMs: 1,
      },
    );
    gh.failAfter('POST', commentsPath, 'hang');
    const comment = await patient.postComment(issue, 'Stored <!-- m4 -->', { dedupe: '<!-- m4 -->' });
    expect(gh.comments(issue).map((c) => c.id)).toEqual([comment.id]);
  });
});

describe('createIssue', () => {
  /** Every issue the emulator holds with this title (numbers are dense, shared with pull requests). */
  const issuesTitled = (title: string) => {
    const found: number[] = [];
    for (let n = 1; n <= 500; n++) if (gh.issue(n)?.title === title) found.push(n);
    return found;
  };
  const input = (title: string) => ({ title, body: `Tracking ${title}.`, labels: ['plangate-task'], assignees: [] });

  it('finds the issue GitHub opened before answering 502, and opens no second one', async () => {
    const from = gh.requests.length;
    gh.failAfter('POST', /\/issues$/, 502);
    const issue = await thread.createIssue(input('lost issue'));
    expect(issuesTitled('lost issue')).toEqual([issue.number]);
    expect(postStatusesSince(from)).toEqual([502]);
  });

  it('opens it on a second attempt when the first stored nothing', async () => {
    const from = gh.requests.length;
    gh.failNext('POST', /\/issues$/, 502);
    const issue = await thread.createIssue(input('retried issue'));
    expect(issuesTitled('retried issue')).toEqual([issue.number]);
    expect(postStatusesSince(from)).toEqual([502, 201]);
  });
});
