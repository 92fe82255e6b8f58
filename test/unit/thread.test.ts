import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/github/client.js';
import { createThread, type Thread } from '../../src/github/thread.js';
import { startGitHubEmulator, type GitHubEmulator } from '../fakes/github-emulator.js';

// The client's throttling spaces GraphQL requests a second apart, so this file keeps them few.

const owner = 'octo';
const repo = 'sample';
const token = 'ghs_threadTestToken0123456789';

let gh: GitHubEmulator;
let thread: Thread;

/** The rejection of a promise that must fail; fails the test if it resolves. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error(`expected a rejection with an Error, got ${String(outcome)}`);
  return outcome;
}

beforeAll(async () => {
  gh = await startGitHubEmulator({ owner, repo, token });
  thread = createThread(createGitHubClient(token, gh.url), { owner, repo });
});

afterAll(async () => {
  await gh?.close();
});

describe('comments carry their GraphQL node id', () => {
  it('fills nodeId from REST node_id in getComment, and listComments (GraphQL) agrees on ids and node ids', async () => {
    const issue = gh.addIssue({ title: 'Node ids', login: 'mona' });
    const first = gh.addComment(issue.number, { login: 'mona', body: '/plan go' });
    const second = gh.addComment(issue.number, { login: 'github-actions[bot]', body: 'Plan' });

    const got = await thread.getComment(second.id);
    expect(got).toEqual({
      id: second.id,
      nodeId: second.node_id,
      body: 'Plan',
      author: 'github-actions[bot]',
      url: second.html_url,
      createdAt: second.created_at,
      updatedAt: second.updated_at,
    });
    const listed = await thread.listComments(issue.number);
    expect(listed.map((c) => [c.id, c.nodeId])).toEqual([
      [first.id, first.node_id],
      [second.id, second.node_id],
    ]);
    expect(new Set(listed.map((c) => c.nodeId)).size).toBe(2);
    expect(gh.requests.at(-1)?.api).toBe('graphql');
  });

  it('rejects getComment for a comment that does not exist', async () => {
    const error = await failure(thread.getComment(1));
    expect((error as Error & { status?: number }).status).toBe(404);
  });
});

describe('getIssue', () => {
  it('returns the title, body and author, with an empty body for none', async () => {
    const described = gh.addIssue({ title: 'Add a farewell', body: 'Say goodbye.', login: 'mona' });
    expect(await thread.getIssue(described.number)).toEqual({
      title: 'Add a farewell',
      body: 'Say goodbye.',
      author: 'mona',
    });
    const bare = gh.addIssue({ title: 'No body', login: 'hubot' });
    expect(await thread.getIssue(bare.number)).toEqual({ title: 'No body', body: '', author: 'hubot' });
    gh.updateIssue(bare.number, { body: 'Now with a body' });
    expect((await thread.getIssue(bare.number)).body).toBe('Now with a body');
    expect((await failure(thread.getIssue(9999))) as Error & { status?: number }).toHaveProperty('status', 404);
  });
});

describe('lastEditor', () => {
  it('says null for a comment never edited, and the bot in REST spelling after its own PATCH', async () => {
    const issue = gh.addIssue({ title: 'Edits', login: 'mona' });
    const posted = gh.addComment(issue.number, { login: 'github-actions[bot]', body: 'Plan v1' });
    expect(await thread.lastEditor(posted.node_id)).toEqual({ editor: null, editedAt: null });

    const updated = await thread.updateComment(posted.id, 'Plan v2');
    expect(updated.nodeId).toBe(posted.node_id);
    expect(await thread.lastEditor(posted.node_id)).toEqual({
      editor: 'github-actions[bot]',
      editedAt: updated.updatedAt,
    });
    // GraphQL itself said `github-actions`: the suffix was added from __typename Bot.
    const answer = gh.requests.at(-1);
    expect(answer?.api).toBe('graphql');
    expect(answer?.response).toEqual({
      data: { node: { editor: { __typename: 'Bot', login: 'github-actions' }, lastEditedAt: updated.updatedAt } },
    });
    expect(answer?.body).toMatchObject({ variables: { id: posted.node_id } });
  });

  it('names a person as they are, and another app with its [bot] suffix', async () => {
    const issue = gh.addIssue({ title: 'Other editors', login: 'mona' });
    const plan = gh.addComment(issue.number, { login: 'github-actions[bot]', body: 'Plan' });
    const human = gh.editComment(plan.id, { login: 'mona', body: 'Plan, edited' });
    expect(await thread.lastEditor(plan.node_id)).toEqual({ editor: 'mona', editedAt: human.updated_at });
    const app = gh.editComment(plan.id, { login: 'renovate[bot]', body: 'Plan, edited by an app' });
    expect(await thread.lastEditor(plan.node_id)).toEqual({ editor: 'renovate[bot]', editedAt: app.updated_at });
  });

  it('reports an edit by a deleted account as ghost, never as unedited', async () => {
    gh.failNext('POST', '/graphql', 200, 1, {
      body: { data: { node: { editor: null, lastEditedAt: '2024-01-01T00:00:09Z' } } },
    });
    expect(await thread.lastEditor('any')).toEqual({ editor: 'ghost', editedAt: '2024-01-01T00:00:09Z' });
  });

  it('throws, so the caller fails closed, when GitHub does not answer plainly', async () => {
    const unknown = await failure(thread.lastEditor('MDEyOklzc3VlQ29tbWVudDE='));
    expect(unknown.message).toContain('Could not resolve to a node');

    gh.failNext('POST', '/graphql', 403);
    expect((await failure(thread.lastEditor('any'))) as Error & { status?: number }).toHaveProperty('status', 403);

    gh.failNext('POST', '/graphql', 200, 1, { body: { data: { node: null } } });
    expect((await failure(thread.lastEditor('gone'))).message).toMatch(/no comment with node id gone/);

    // An answer of the wrong shape is refused at the boundary rather than read as "no editor".
    gh.failNext('POST', '/graphql', 200, 1, { body: { data: { node: { editor: { login: 'mona' } } } } });
    expect((await failure(thread.lastEditor('odd'))).message).toMatch(/__typename/);
  });
});
