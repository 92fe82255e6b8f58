import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/github/client.js';
import { createThread, type Thread } from '../../src/github/thread.js';
import { startGitHubEmulator, type GitHubEmulator } from '../fakes/github-emulator.js';
import { createOrigin, type Origin } from './github-origin-fixture.js';

// The thread reads that go through GraphQL (the listing with editors, the approval's re-check) and
// the ref the cancel signal is made of, against the emulator. Pacing is off: only the calls matter.

const owner = 'octo';
const repo = 'sample';
const token = 'ghs_threadGraphqlToken0123456789';
const bot = 'github-actions[bot]';

let origin: Origin;
let gh: GitHubEmulator;
let thread: Thread;

beforeAll(async () => {
  origin = createOrigin();
  gh = await startGitHubEmulator({ owner, repo, token, originPath: origin.path });
  thread = createThread(createGitHubClient(token, gh.url, { waitUnitMs: 1, pace: false }), { owner, repo });
});

afterAll(async () => {
  await gh?.close();
  origin?.remove();
});

/** The calls made since `from`, as `graphql <operation>` or `METHOD path`. */
function calls(from: number): string[] {
  return gh.requests.slice(from).map((r) => {
    if (r.api !== 'graphql') return `${r.method} ${r.path}`;
    const query = String((r.body as { query?: unknown }).query ?? '');
    return `graphql ${/query (\w+)/.exec(query)?.[1] ?? '?'}`;
  });
}

describe('listComments', () => {
  it('reads each comment with its REST id, node id, author and last editor, in one call', async () => {
    const issue = gh.addIssue({ title: 'Listing', login: 'mona' }).number;
    const command = gh.addComment(issue, { login: 'mona', body: '/plan go' });
    const plan = gh.addComment(issue, { login: bot, body: 'Plan' });
    const edited = gh.addComment(issue, { login: bot, body: 'Progress' });
    const human = gh.editComment(edited.id, { login: 'mona', body: 'Progress, edited' });
    const app = gh.addComment(issue, { login: 'renovate[bot]', body: 'An app' });

    const from = gh.requests.length;
    const listed = await thread.listComments(issue);
    expect(calls(from)).toEqual(['graphql plangateThread']);
    expect(listed).toEqual([
      {
        id: command.id,
        nodeId: command.node_id,
        body: '/plan go',
        author: 'mona',
        url: command.html_url,
        createdAt: command.created_at,
        updatedAt: command.updated_at,
        editor: null,
      },
      expect.objectContaining({ id: plan.id, nodeId: plan.node_id, author: bot, editor: null }),
      expect.objectContaining({
        id: edited.id,
        body: 'Progress, edited',
        author: bot,
        editor: 'mona',
        updatedAt: human.updated_at,
      }),
      expect.objectContaining({ id: app.id, author: 'renovate[bot]', editor: null }),
    ]);
  });

  it('names the bot as the editor of its own edit, as REST spells it', async () => {
    const issue = gh.addIssue({ title: 'Own edit', login: 'mona' }).number;
    const posted = await thread.postComment(issue, 'v1 <!-- own -->', { dedupe: '<!-- own -->' });
    await thread.updateComment(posted.id, 'v2 <!-- own -->');
    expect((await thread.listComments(issue)).map((c) => [c.author, c.editor])).toEqual([[bot, bot]]);
  });

  it('pages through a long thread by cursor, a hundred at a time, oldest first', async () => {
    const issue = gh.addIssue({ title: 'Long thread', login: 'mona' }).number;
    const ids = Array.from({ length: 205 }, (_, i) => gh.addComment(issue, { login: 'mona', body: `comment ${i}` }).id);
    const from = gh.requests.length;
    const listed = await thread.listComments(issue);
    expect(listed.map((c) => c.id)).toEqual(ids);
    expect(calls(from)).toEqual(['graphql plangateThread', 'graphql plangateThread', 'graphql plangateThread']);
  });

  it("lists a pull request's conversation the same way", async () => {
    origin.git('branch', 'feature', 'refs/heads/main~1');
    const pull = gh.addPullRequest({ title: 'A pull request', login: 'mona', head: 'feature' });
    gh.addComment(pull.number, { login: 'mona', body: '/plan on the PR' });
    expect((await thread.listComments(pull.number)).map((c) => c.body)).toEqual(['/plan on the PR']);
  });

  it('fails, rather than answering an empty thread, for an issue GitHub does not know', async () => {
    await expect(thread.listComments(99_999)).rejects.toThrow(/Could not resolve to an issue or pull request/);
  });

  it('fails, rather than answering a cut thread, when a page says there is more but gives no cursor', async () => {
    const node = {
      id: 'IC_1',
      fullDatabaseId: '1',
      url: 'https://github.com/octo/sample/issues/1#issuecomment-1',
      body: 'old plan',
      createdAt: '2024-01-01T00:00:00Z',
      updatedAt: '2024-01-01T00:00:00Z',
      lastEditedAt: null,
      author: { __typename: 'Bot', login: 'github-actions' },
      editor: null,
    };
    const comments = { pageInfo: { hasNextPage: true, endCursor: null }, nodes: [node] };
    gh.failNext('POST', '/graphql', 200, 1, { body: { data: { repository: { issueOrPullRequest: { comments } } } } });
    await expect(thread.listComments(1)).rejects.toThrow(/more comments/);
  });

  it('refuses an answer of the wrong shape at the boundary', async () => {
    gh.failNext('POST', '/graphql', 200, 1, {
      body: { data: { repository: { issueOrPullRequest: { comments: { nodes: [{ id: 'x' }] } } } } },
    });
    await expect(thread.listComments(1)).rejects.toThrow();
  });
});

describe('approvalState', () => {
  it("reads the comment and the thread's text in one call", async () => {
    const issue = gh.addIssue({ title: 'Approve me', body: 'The text.', login: 'mona' }).number;
    const plan = gh.addComment(issue, { login: bot, body: 'Plan' });
    const from = gh.requests.length;
    expect(await thread.approvalState(issue, plan.node_id)).toEqual({
      commentBody: 'Plan',
      commentEditor: null,
      title: 'Approve me',
      body: 'The text.',
    });
    expect(calls(from)).toEqual(['graphql plangateApproval']);

    gh.editComment(plan.id, { login: 'mona', body: 'Plan, changed' });
    gh.updateIssue(issue, { title: 'Approve me now' });
    expect(await thread.approvalState(issue, plan.node_id)).toEqual({
      commentBody: 'Plan, changed',
      commentEditor: 'mona',
      title: 'Approve me now',
      body: 'The text.',
    });
  });

  it('says a deleted comment is gone instead of failing', async () => {
    const issue = gh.addIssue({ title: 'Gone', login: 'mona' }).number;
    const plan = gh.addComment(issue, { login: bot, body: 'Plan' });
    gh.deleteComment(plan.id);
    expect(await thread.approvalState(issue, plan.node_id)).toEqual({
      commentBody: null,
      commentEditor: null,
      title: 'Gone',
      body: '',
    });
  });

  it('reads only the thread when no comment is asked about', async () => {
    const issue = gh.addIssue({ title: 'No plan comment', body: 'Maintenance.', login: 'mona' }).number;
    expect(await thread.approvalState(issue)).toEqual({ title: 'No plan comment', body: 'Maintenance.' });
  });

  it('fails for anything but a missing comment, so a re-check never passes by default', async () => {
    const issue = gh.addIssue({ title: 'Failing', login: 'mona' }).number;
    const plan = gh.addComment(issue, { login: bot, body: 'Plan' });
    await expect(thread.approvalState(99_999, plan.node_id)).rejects.toThrow(/Could not resolve/);
    gh.failNext('POST', '/graphql', 502, 4);
    await expect(thread.approvalState(issue, plan.node_id)).rejects.toThrow();
  });
});

describe('createRef', () => {
  it('creates a ref once; a second create answers false and moves nothing', async () => {
    const ref = 'refs/plangate/cancel/7/abcdef12';
    expect(await thread.createRef(ref, origin.mainSha)).toBe(true);
    expect(origin.refSha(ref)).toBe(origin.mainSha);
    const first = origin.git('rev-parse', 'refs/heads/main~1');
    expect(await thread.createRef(ref, first)).toBe(false);
    expect(origin.refSha(ref)).toBe(origin.mainSha);
  });

  it('fails on anything else, such as a commit origin does not have', async () => {
    await expect(thread.createRef('refs/plangate/cancel/8/abcdef12', '0'.repeat(40))).rejects.toThrow(
      /Object does not exist/,
    );
  });
});

describe('reviewThreadStates', () => {
  it('tells which review threads are resolved and by whom, each named by its first comment, in one call', async () => {
    origin.git('branch', '-f', 'review-states', 'refs/heads/main~1');
    const pull = gh.addPullRequest({ title: 'Reviewed', login: 'mona', head: 'review-states' }).number;
    const open = gh.addReviewComment(pull, { login: 'rev', body: 'Fix', path: 'a.js', line: 1 }) as { id: number };
    const done = gh.addReviewComment(pull, { login: 'rev', body: 'Done?', path: 'b.js', line: 2, resolved: true }) as {
      id: number;
    };
    gh.addReviewComment(pull, { login: 'mona', body: 'Yes', path: 'b.js', line: 2, inReplyTo: done.id });
    const hidden = gh.addReviewComment(pull, {
      login: 'rev',
      body: 'Check c',
      path: 'c.js',
      line: 3,
      resolvedBy: 'drive-by',
    }) as { id: number };
    // GitHub's resolvedBy is a User: a thread an app resolved names nobody.
    const byApp = gh.addReviewComment(pull, {
      login: 'rev',
      body: 'Check d',
      path: 'd.js',
      line: 4,
      resolvedBy: 'cleanup-app[bot]',
    }) as { id: number };
    const from = gh.requests.length;
    expect(await thread.reviewThreadStates(pull)).toEqual([
      { firstCommentId: open.id, resolved: false, resolvedBy: null },
      { firstCommentId: done.id, resolved: true, resolvedBy: 'rev' },
      { firstCommentId: hidden.id, resolved: true, resolvedBy: 'drive-by' },
      { firstCommentId: byApp.id, resolved: true, resolvedBy: null },
    ]);
    expect(calls(from)).toEqual(['graphql plangateReviewThreads']);
  });

  it('fails for a number that is not a pull request', async () => {
    const issue = gh.addIssue({ title: 'Plain', login: 'mona' }).number;
    await expect(thread.reviewThreadStates(issue)).rejects.toThrow(/Could not resolve to a PullRequest/);
  });
});
