import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GITHUB_EMULATOR_SERVER_URL, startGitHubEmulator, type GitHubEmulator } from '../fakes/github-emulator.js';
import { createGitHubResponseCheck } from '../fakes/github-openapi-check.js';
import { issueCommentPayload, schedulePayload, workflowDispatchPayload } from '../fakes/payloads.js';
import { runGit } from './github-origin-fixture.js';

const owner = 'octo';
const repo = 'sample';
const token = 'ghs_unitTestToken0123456789';
const check = createGitHubResponseCheck();

let dir = '';
let origin = '';
let seed = '';
let gh: GitHubEmulator;
let octokit: Octokit;

const git = (cwd: string, ...args: string[]): string => runGit(cwd, args);

function commit(file: string, content: string, message: string): void {
  writeFileSync(path.join(seed, file), content);
  git(seed, 'add', file);
  git(seed, 'commit', '--quiet', '-m', message);
}

function sha(branch: string): string {
  return git(origin, 'rev-parse', `refs/heads/${branch}`);
}

/** The status, body and headers of a request Octokit rejected; fails the test if it succeeded. */
async function rejection(
  request: Promise<unknown>,
): Promise<{ status: number; data: Record<string, unknown>; headers: Record<string, unknown> }> {
  try {
    await request;
  } catch (error) {
    const failure = error as { status?: number; response?: { data?: unknown; headers?: Record<string, unknown> } };
    return {
      status: failure.status ?? -1,
      data: (failure.response?.data ?? {}) as Record<string, unknown>,
      headers: failure.response?.headers ?? {},
    };
  }
  throw new Error('expected the request to be refused');
}

/** A request Octokit's types would not let us send: a malformed or incomplete body. */
async function raw(
  method: string,
  route: string,
  body?: string,
): Promise<{ status: number; data: Record<string, unknown> }> {
  const res = await fetch(`${gh.url}/repos/${owner}/${repo}${route}`, {
    method,
    headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, data: (await res.json()) as Record<string, unknown> };
}

/** Octokit logs every failed request; these tests fail requests on purpose. */
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function expectShape(method: string, route: string, status: number, body: unknown): void {
  expect(check.problems(method, route, status, body)).toEqual([]);
}

/** A fresh issue's number, for tests that must not see each other's threads. */
function newIssue(title: string, login = 'mona'): number {
  return gh.addIssue({ title, login }).number;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'plangate-emulator-'));
  origin = path.join(dir, 'origin.git');
  seed = path.join(dir, 'seed');
  git(dir, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  git(dir, 'init', '--quiet', '--initial-branch=main', seed);
  commit('README.md', '# sample\n', 'first');
  git(seed, 'branch', 'stale');
  commit('README.md', '# sample\n\nSecond line.\n', 'second');
  git(seed, 'branch', 'same');
  git(seed, 'checkout', '--quiet', '-b', 'feature');
  commit('feature.txt', 'one\ntwo\nthree\n', 'feature');
  git(seed, 'checkout', '--quiet', '-b', 'feature2', 'main');
  commit('other.txt', 'other\n', 'other');
  git(seed, 'push', '--quiet', origin, 'main', 'stale', 'same', 'feature', 'feature2');

  gh = await startGitHubEmulator({ owner, repo, token, originPath: origin });
  octokit = new Octokit({ auth: token, baseUrl: gh.url, log: quiet });
});

afterAll(async () => {
  await gh?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the OpenAPI shape check itself', () => {
  it('rejects bodies GitHub would never send, so passing it means something', () => {
    const route = '/repos/{owner}/{repo}/issues/comments/{comment_id}';
    expect(check.problems('GET', route, 200, { id: 1 })).not.toEqual([]);
    const issueNumber = newIssue('shape');
    const comment = gh.addComment(issueNumber, { login: 'mona', body: 'hi' });
    expect(check.problems('GET', route, 200, comment)).toEqual([]);
    expect(check.problems('GET', route, 200, { ...comment, created_at: 'yesterday' })).not.toEqual([]);
    // OpenAPI 3.0 `nullable` is honoured: null where allowed, not where it is not.
    const issue = gh.issue(issueNumber);
    expect(check.problems('GET', '/repos/{owner}/{repo}/issues/{issue_number}', 200, issue)).toEqual([]);
    expect(
      check.problems('GET', '/repos/{owner}/{repo}/issues/{issue_number}', 200, { ...issue, number: null }),
    ).not.toEqual([]);
    expect(() => check.problems('GET', '/repos/{owner}/{repo}', 418, {})).toThrow(/documents no 418/);
  });
});

describe('authentication and routing', () => {
  it('accepts the token as `token` and as `Bearer`', async () => {
    const res = await fetch(`${gh.url}/repos/${owner}/${repo}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const legacy = await fetch(`${gh.url}/repos/${owner}/${repo}`, { headers: { authorization: `token ${token}` } });
    expect(legacy.status).toBe(200);
  });

  it('answers a missing or wrong token with 401 Bad credentials', async () => {
    for (const auth of [undefined, 'token nope', `Basic ${token}`]) {
      const client = new Octokit({
        baseUrl: gh.url,
        log: quiet,
        ...(auth ? { request: { headers: { authorization: auth } } } : {}),
      });
      const { status, data } = await rejection(client.rest.repos.get({ owner, repo }));
      expect(status).toBe(401);
      expect(data.message).toBe('Bad credentials');
      expect(typeof data.documentation_url).toBe('string');
      expectShape('GET', '/repos/{owner}/{repo}', 401, data);
    }
  });

  it('answers unknown routes and other repositories with 404 Not Found', async () => {
    const unknown = await rejection(octokit.request('GET /repos/{owner}/{repo}/branches', { owner, repo }));
    expect(unknown.status).toBe(404);
    expect(unknown.data.message).toBe('Not Found');
    expectShape('GET', '/repos/{owner}/{repo}', 404, unknown.data);
    const elsewhere = await rejection(octokit.rest.repos.get({ owner, repo: 'other' }));
    expect(elsewhere.status).toBe(404);
    const malformed = await raw('POST', '/issues', '{nope');
    expect(malformed).toEqual({ status: 400, data: expect.objectContaining({ message: 'Problems parsing JSON' }) });
  });
});

describe('repository', () => {
  it('describes the repository as GitHub does', async () => {
    const { status, data } = await octokit.rest.repos.get({ owner, repo });
    expect(status).toBe(200);
    expectShape('GET', '/repos/{owner}/{repo}', 200, data);
    expect(data.full_name).toBe(`${owner}/${repo}`);
    expect(data.default_branch).toBe('main');
    expect(data.private).toBe(false);
    expect(data.html_url).toBe(`${GITHUB_EMULATOR_SERVER_URL}/${owner}/${repo}`);
    expect(data.url).toBe(`${gh.url}/repos/${owner}/${repo}`);
  });
});

describe('collaborator permission', () => {
  const route = '/repos/{owner}/{repo}/collaborators/{username}/permission';

  it('maps roles to the legacy permission the way GitHub does', async () => {
    const expected = {
      admin: 'admin',
      maintain: 'write',
      write: 'write',
      triage: 'read',
      read: 'read',
      none: 'none',
    } as const;
    for (const [role, permission] of Object.entries(expected)) {
      const login = `user-${role}`;
      gh.setPermission(login, role as keyof typeof expected);
      const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: login });
      expectShape('GET', route, 200, data);
      expect(data.permission).toBe(permission);
      expect(data.role_name).toBe(role);
      expect(data.user?.login).toBe(login);
    }
  });

  it('gives the owner admin and anyone else read on a public repository', async () => {
    const own = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: owner });
    expect(own.data.permission).toBe('admin');
    const stranger = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: 'stranger' });
    expect([stranger.data.permission, stranger.data.role_name]).toEqual(['read', 'read']);
  });

  it('answers 404 for a login with no grant on a private repository', async () => {
    const secret = await startGitHubEmulator({ owner, repo, token, private: true });
    try {
      const client = new Octokit({ auth: token, baseUrl: secret.url, log: quiet });
      const { status, data } = await rejection(
        client.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: 'stranger' }),
      );
      expect(status).toBe(404);
      expectShape('GET', route, 404, data);
      secret.setPermission('mona', 'write');
      const mona = await client.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: 'mona' });
      expect(mona.data.permission).toBe('write');
      expect((await client.rest.repos.get({ owner, repo })).data.private).toBe(true);
    } finally {
      await secret.close();
    }
  });
});

describe('issues', () => {
  it('gets an issue set up by the test, shaped like GitHub', async () => {
    const created = gh.addIssue({ title: 'Set up', body: 'Body', login: 'mona', labels: ['bug'] });
    const { data } = await octokit.rest.issues.get({ owner, repo, issue_number: created.number });
    expectShape('GET', '/repos/{owner}/{repo}/issues/{issue_number}', 200, data);
    expect(data).toEqual(created);
    expect(data.user?.login).toBe('mona');
    expect(data.labels.map((l) => (typeof l === 'string' ? l : l.name))).toEqual(['bug']);
    expect(data.pull_request).toBeUndefined();
    expect(data.html_url).toBe(`${GITHUB_EMULATOR_SERVER_URL}/${owner}/${repo}/issues/${created.number}`);
    const missing = await rejection(octokit.rest.issues.get({ owner, repo, issue_number: 9999 }));
    expect(missing.status).toBe(404);
  });

  it('creates, updates and labels issues as the token user', async () => {
    const made = await octokit.rest.issues.create({
      owner,
      repo,
      title: 'Weekly chores',
      body: 'Do them',
      labels: ['maintenance'],
    });
    expect(made.status).toBe(201);
    expectShape('POST', '/repos/{owner}/{repo}/issues', 201, made.data);
    expect(made.data.user?.login).toBe('github-actions[bot]');
    expect(made.data.user?.type).toBe('Bot');
    expect(made.headers.location).toBe(made.data.url);

    const closed = await octokit.rest.issues.update({
      owner,
      repo,
      issue_number: made.data.number,
      state: 'closed',
      state_reason: 'not_planned',
    });
    expectShape('PATCH', '/repos/{owner}/{repo}/issues/{issue_number}', 200, closed.data);
    expect(closed.data.state).toBe('closed');
    expect(closed.data.state_reason).toBe('not_planned');
    expect(closed.data.closed_at).not.toBeNull();
    expect(closed.data.closed_by?.login).toBe('github-actions[bot]');

    const labels = await octokit.rest.issues.addLabels({
      owner,
      repo,
      issue_number: made.data.number,
      labels: ['later'],
    });
    expectShape('POST', '/repos/{owner}/{repo}/issues/{issue_number}/labels', 200, labels.data);
    expect(labels.data.map((l) => l.name)).toEqual(['maintenance', 'later']);

    const untitled = await raw('POST', '/issues', JSON.stringify({ body: 'no title' }));
    expect(untitled.status).toBe(422);
    expect(untitled.data.message).toBe('Invalid request.\n\n"title" wasn\'t supplied.');
    expectShape('POST', '/repos/{owner}/{repo}/issues', 422, untitled.data);
    const badState = await raw('PATCH', `/issues/${made.data.number}`, JSON.stringify({ state: 'gone' }));
    expect(badState.status).toBe(422);
    expectShape('PATCH', '/repos/{owner}/{repo}/issues/{issue_number}', 422, badState.data);
  });

  it('lists issues filtered by state, labels and creator', async () => {
    const chore = gh.addIssue({ title: 'Chore', login: 'hubot', labels: ['chore', 'weekly'] }).number;
    const other = gh.addIssue({ title: 'Other chore', login: 'mona', labels: ['chore'] }).number;
    await octokit.rest.issues.update({ owner, repo, issue_number: other, state: 'closed' });

    const open = await octokit.rest.issues.listForRepo({ owner, repo, labels: 'chore', per_page: 100 });
    for (const item of open.data) expectShape('GET', '/repos/{owner}/{repo}/issues', 200, [item]);
    expect(open.data.map((i) => i.number)).toEqual([chore]);
    const all = await octokit.rest.issues.listForRepo({ owner, repo, labels: 'chore', state: 'all' });
    expect(all.data.map((i) => i.number)).toEqual([other, chore]);
    const both = await octokit.rest.issues.listForRepo({ owner, repo, labels: 'chore,weekly', state: 'all' });
    expect(both.data.map((i) => i.number)).toEqual([chore]);
    const byHubot = await octokit.rest.issues.listForRepo({ owner, repo, creator: 'hubot', state: 'all' });
    expect(byHubot.data.map((i) => i.number)).toEqual([chore]);
  });
});

describe('comments', () => {
  it('creates, reads and edits a comment as the token user', async () => {
    const issueNumber = newIssue('Comments');
    const made = await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body: 'Plan' });
    expect(made.status).toBe(201);
    expectShape('POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 201, made.data);
    expect(made.data.user?.login).toBe('github-actions[bot]');
    expect(made.data.html_url).toBe(
      `${GITHUB_EMULATOR_SERVER_URL}/${owner}/${repo}/issues/${issueNumber}#issuecomment-${made.data.id}`,
    );

    const read = await octokit.rest.issues.getComment({ owner, repo, comment_id: made.data.id });
    expectShape('GET', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 200, read.data);
    expect(read.data).toEqual(made.data);

    const edited = await octokit.rest.issues.updateComment({ owner, repo, comment_id: made.data.id, body: 'Plan v2' });
    expectShape('PATCH', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 200, edited.data);
    expect(edited.data.body).toBe('Plan v2');
    expect(edited.data.updated_at > edited.data.created_at).toBe(true);
    expect(gh.comments(issueNumber).map((c) => c.body)).toEqual(['Plan v2']);
    expect((await octokit.rest.issues.get({ owner, repo, issue_number: issueNumber })).data.comments).toBe(1);
  });

  it('refuses a missing body, an unknown thread and an unknown comment', async () => {
    const issueNumber = newIssue('Refusals');
    const noBody = await raw('POST', `/issues/${issueNumber}/comments`, JSON.stringify({ text: 'x' }));
    expect(noBody.status).toBe(422);
    expect(noBody.data.message).toBe('Invalid request.\n\n"body" wasn\'t supplied.');
    const notText = await raw('POST', `/issues/${issueNumber}/comments`, JSON.stringify({ body: 5 }));
    expect(notText.data.message).toBe("Invalid request.\n\nFor 'properties/body', 5 is not a string.");
    const empty = await raw('POST', `/issues/${issueNumber}/comments`);
    expect(empty.status).toBe(422);
    expect(gh.comments(issueNumber)).toEqual([]);
    expect(
      (await rejection(octokit.rest.issues.createComment({ owner, repo, issue_number: 9999, body: 'x' }))).status,
    ).toBe(404);
    expect((await rejection(octokit.rest.issues.getComment({ owner, repo, comment_id: 1 }))).status).toBe(404);
  });

  it('enforces the 65,536-character body limit on create and edit, counting characters', async () => {
    const issueNumber = newIssue('Limits');
    const route = '/repos/{owner}/{repo}/issues/{issue_number}/comments';
    const atLimit = await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: issueNumber,
      body: 'x'.repeat(65_536),
    });
    expect(atLimit.status).toBe(201);
    // Astral characters are two UTF-16 units each but one character to GitHub.
    const emoji = await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: issueNumber,
      body: '😀'.repeat(65_536),
    });
    expect(emoji.status).toBe(201);

    const over = await rejection(
      octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body: 'x'.repeat(65_537) }),
    );
    expect(over.status).toBe(422);
    expectShape('POST', route, 422, over.data);
    expect(over.data.message).toBe('Validation Failed');
    expect(over.data.errors).toEqual([
      {
        resource: 'IssueComment',
        code: 'custom',
        field: 'body',
        message: 'body is too long (maximum is 65536 characters)',
      },
    ]);
    const overEdit = await rejection(
      octokit.rest.issues.updateComment({ owner, repo, comment_id: atLimit.data.id, body: 'y'.repeat(65_537) }),
    );
    expect(overEdit.status).toBe(422);
    expectShape('PATCH', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 422, overEdit.data);
    expect(gh.comments(issueNumber)).toHaveLength(2);
    expect(gh.comments(issueNumber)[0]?.body).toBe('x'.repeat(65_536));
    expect(() => gh.addComment(issueNumber, { login: 'mona', body: 'z'.repeat(65_537) })).toThrow(/65536/);
  });

  it('pages comments oldest first with a Link header', async () => {
    const issueNumber = newIssue('Paging');
    for (let i = 1; i <= 5; i++) gh.addComment(issueNumber, { login: 'mona', body: `c${i}` });
    const route = '/repos/{owner}/{repo}/issues/{issue_number}/comments';

    const first = await octokit.rest.issues.listComments({ owner, repo, issue_number: issueNumber, per_page: 2 });
    expectShape('GET', route, 200, first.data);
    expect(first.data.map((c) => c.body)).toEqual(['c1', 'c2']);
    const base = `${gh.url}/repos/${owner}/${repo}/issues/${issueNumber}/comments`;
    expect(first.headers.link).toBe(`<${base}?per_page=2&page=2>; rel="next", <${base}?per_page=2&page=3>; rel="last"`);

    const last = await octokit.rest.issues.listComments({
      owner,
      repo,
      issue_number: issueNumber,
      per_page: 2,
      page: 3,
    });
    expect(last.data.map((c) => c.body)).toEqual(['c5']);
    expect(last.headers.link).toContain('rel="prev"');
    expect(last.headers.link).toContain('rel="first"');
    expect(last.headers.link).not.toContain('rel="next"');

    const everything = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: issueNumber,
      per_page: 2,
    });
    expect(everything.map((c) => c.body)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    const single = await octokit.rest.issues.listComments({ owner, repo, issue_number: issueNumber });
    expect(single.data).toHaveLength(5);
    expect(single.headers.link).toBeUndefined();
  });

  it('keeps the comment type a test gives and marks bots by login', () => {
    const issueNumber = newIssue('Bots');
    expect(gh.addComment(issueNumber, { login: 'renovate', body: 'x', type: 'Bot' }).user?.type).toBe('Bot');
    expect(gh.addComment(issueNumber, { login: 'github-actions[bot]', body: 'x' }).user?.type).toBe('Bot');
    expect(gh.addComment(issueNumber, { login: 'mona', body: 'x' }).user?.type).toBe('User');
  });
});

describe('reactions', () => {
  it('answers 201 for a new reaction and 200 when the same user repeats it', async () => {
    const issueNumber = newIssue('Reactions');
    const comment = gh.addComment(issueNumber, { login: 'mona', body: '/plan do it' });
    const route = '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions';

    const react = (content: 'eyes' | 'heart') =>
      octokit.rest.reactions.createForIssueComment({ owner, repo, comment_id: comment.id, content });
    const first = await react('eyes');
    expect(first.status).toBe(201);
    expectShape('POST', route, 201, first.data);
    expect(first.data.user?.login).toBe('github-actions[bot]');
    const again = await react('eyes');
    expect(again.status).toBe(200);
    expectShape('POST', route, 200, again.data);
    expect(again.data.id).toBe(first.data.id);
    const heart = await react('heart');
    expect(heart.status).toBe(201);
    expect(heart.data.id).not.toBe(first.data.id);

    const bad = await raw('POST', `/issues/comments/${comment.id}/reactions`, JSON.stringify({ content: 'smile' }));
    expect(bad.status).toBe(422);
    expectShape('POST', route, 422, bad.data);

    expect(gh.reactions(comment.id).map((r) => r.content)).toEqual(['eyes', 'heart']);
    const rollup = (await octokit.rest.issues.getComment({ owner, repo, comment_id: comment.id })).data.reactions;
    expect([rollup?.total_count, rollup?.eyes, rollup?.heart]).toEqual([2, 1, 1]);
  });
});

describe('pull requests', () => {
  const create = '/repos/{owner}/{repo}/pulls';

  it('opens a pull request with head and base shas read from origin', async () => {
    const made = await octokit.rest.pulls.create({
      owner,
      repo,
      title: 'Feature',
      head: 'feature',
      base: 'main',
      body: 'History',
    });
    expect(made.status).toBe(201);
    expectShape('POST', create, 201, made.data);
    expect(made.data.head.sha).toBe(sha('feature'));
    expect(made.data.base.sha).toBe(sha('main'));
    expect(made.data.head.label).toBe(`${owner}:feature`);
    expect([made.data.commits, made.data.additions, made.data.deletions, made.data.changed_files]).toEqual([
      1, 3, 0, 1,
    ]);
    expect(made.data.user.login).toBe('github-actions[bot]');
    expect(made.data.html_url).toBe(`${GITHUB_EMULATOR_SERVER_URL}/${owner}/${repo}/pull/${made.data.number}`);

    // A pull request is an issue too, in the same number sequence.
    const asIssue = await octokit.rest.issues.get({ owner, repo, issue_number: made.data.number });
    expect(asIssue.data.pull_request?.url).toBe(made.data.url);
    const got = await octokit.rest.pulls.get({ owner, repo, pull_number: made.data.number });
    expectShape('GET', '/repos/{owner}/{repo}/pulls/{pull_number}', 200, got.data);
    expect(got.data.merged).toBe(false);
    expect(gh.pulls().map((p) => p.number)).toContain(made.data.number);

    // Pushes to the head branch show up, as they do on GitHub.
    git(seed, 'checkout', '--quiet', 'feature');
    commit('feature.txt', 'one\ntwo\nthree\nfour\n', 'more');
    git(seed, 'push', '--quiet', origin, 'feature');
    const pushed = await octokit.rest.pulls.get({ owner, repo, pull_number: made.data.number });
    expect(pushed.data.head.sha).toBe(sha('feature'));
    expect(pushed.data.commits).toBe(2);
  });

  it("refuses the pull requests GitHub refuses, with GitHub's 422 errors", async () => {
    const refusal = async (params: { head: string; base: string; body?: string }) => {
      const result = await rejection(octokit.rest.pulls.create({ owner, repo, title: 'x', ...params }));
      expect(result.status).toBe(422);
      expectShape('POST', create, 422, result.data);
      return result.data.errors;
    };
    // 'feature' already has an open pull request into main from the previous test.
    expect(await refusal({ head: `${owner}:feature`, base: 'main' })).toEqual([
      { resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${owner}:feature.` },
    ]);
    expect(await refusal({ head: 'missing', base: 'main' })).toEqual([
      { resource: 'PullRequest', code: 'invalid', field: 'head' },
    ]);
    expect(await refusal({ head: 'feature2', base: 'missing' })).toEqual([
      { resource: 'PullRequest', code: 'invalid', field: 'base' },
    ]);
    expect(await refusal({ head: 'same', base: 'main' })).toEqual([
      { resource: 'PullRequest', code: 'custom', message: 'No commits between main and same' },
    ]);
    expect(await refusal({ head: 'stale', base: 'main' })).toEqual([
      { resource: 'PullRequest', code: 'custom', message: 'No commits between main and stale' },
    ]);
    expect(await refusal({ head: 'feature2', base: 'main', body: 'b'.repeat(65_537) })).toEqual([
      {
        resource: 'PullRequest',
        code: 'custom',
        field: 'body',
        message: 'body is too long (maximum is 65536 characters)',
      },
    ]);
    const untitled = await raw('POST', '/pulls', JSON.stringify({ head: 'feature2', base: 'main' }));
    expect(untitled.data.errors).toEqual([{ resource: 'PullRequest', code: 'missing_field', field: 'title' }]);
    expect(gh.pulls().filter((p) => p.head.ref !== 'feature')).toEqual([]);
  });

  it('lists, filters and updates pull requests; closing frees the head for a new one', async () => {
    const made = await octokit.rest.pulls.create({
      owner,
      repo,
      title: 'Second',
      head: 'feature2',
      base: 'main',
      body: 'b'.repeat(65_536),
    });
    const listed = await octokit.rest.pulls.list({ owner, repo, head: `${owner}:feature2` });
    expectShape('GET', create, 200, listed.data);
    expect(listed.data.map((p) => p.number)).toEqual([made.data.number]);
    expect((await octokit.rest.pulls.list({ owner, repo, head: 'someone:feature2' })).data).toEqual([]);
    expect((await octokit.rest.pulls.list({ owner, repo, base: 'main' })).data.length).toBeGreaterThanOrEqual(2);

    const updated = await octokit.rest.pulls.update({
      owner,
      repo,
      pull_number: made.data.number,
      title: 'Renamed',
      body: 'Short',
      state: 'closed',
    });
    expectShape('PATCH', '/repos/{owner}/{repo}/pulls/{pull_number}', 200, updated.data);
    expect([updated.data.title, updated.data.body, updated.data.state]).toEqual(['Renamed', 'Short', 'closed']);
    expect((await octokit.rest.pulls.list({ owner, repo, head: `${owner}:feature2` })).data).toEqual([]);
    expect(
      (await octokit.rest.pulls.list({ owner, repo, head: `${owner}:feature2`, state: 'closed' })).data,
    ).toHaveLength(1);
    const tooLong = await rejection(
      octokit.rest.pulls.update({ owner, repo, pull_number: made.data.number, body: 'b'.repeat(65_537) }),
    );
    expect(tooLong.status).toBe(422);

    const reopened = await octokit.rest.pulls.create({ owner, repo, title: 'Again', head: 'feature2', base: 'main' });
    expect(reopened.status).toBe(201);
  });

  it('answers 404 for a pull request number that is a plain issue', async () => {
    const issueNumber = newIssue('Not a pull');
    expect((await rejection(octokit.rest.pulls.get({ owner, repo, pull_number: issueNumber }))).status).toBe(404);
  });

  it('sets up pull requests for tests from origin branches, refusing unknown ones', () => {
    const pull = gh.addPullRequest({ title: 'Set up', login: 'mona', head: 'feature', base: 'stale' });
    expect(pull.head.sha).toBe(sha('feature'));
    expect(pull.base.sha).toBe(sha('stale'));
    expect(gh.issue(pull.number)?.pull_request).toBeDefined();
    expect(() => gh.addPullRequest({ title: 'x', login: 'mona', head: 'nope' })).toThrow(/nope/);
  });

  it('sets up a pull request from a fork, whose head names the fork', async () => {
    const pull = gh.addPullRequest({ title: 'Fork', login: 'outsider', head: 'patch-1', forkOwner: 'outsider' });
    const got = (await octokit.rest.pulls.get({ owner, repo, pull_number: pull.number })).data;
    expect(got.head.repo?.full_name).toBe(`outsider/${repo}`);
    expect(got.head.repo?.fork).toBe(true);
    expect(got.head.label).toBe('outsider:patch-1');
    expect(got.base.repo.full_name).toBe(`${owner}/${repo}`);
    expect(got.head.sha).toBe(got.base.sha);
  });
});

describe('GraphQL', () => {
  const editorQuery = `query lastEdit($id: ID!) {
    node(id: $id) { ... on IssueComment { author { __typename login } editor { __typename login } lastEditedAt } }
  }`;

  /** A GraphQL request sent by hand, for answers Octokit turns into exceptions. */
  async function graphql(
    body: unknown,
    auth: string | null = `bearer ${token}`,
  ): Promise<{ status: number; data: Record<string, unknown>; headers: Headers }> {
    const res = await fetch(`${gh.url}/graphql`, {
      method: 'POST',
      headers: { ...(auth === null ? {} : { authorization: auth }), 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, data: (await res.json()) as Record<string, unknown>, headers: res.headers };
  }

  /** The messages of a GraphQL error answer, which GitHub sends with status 200 and no data. */
  async function errorsOf(body: unknown): Promise<string[]> {
    const { status, data } = await graphql(body);
    expect(status).toBe(200);
    expect(data).not.toHaveProperty('data');
    const errors = data.errors as Array<{ message: string }>;
    expect(errors.length).toBeGreaterThan(0);
    return errors.map((e) => e.message);
  }

  it('names nobody, the token account after a PATCH, then whoever edited in the UI', async () => {
    const issueNumber = newIssue('Editors');
    const plan = gh.addComment(issueNumber, { login: 'github-actions[bot]', body: 'Plan' });
    const ask = () => octokit.graphql<{ node: unknown }>(editorQuery, { id: plan.node_id });

    const bot = { __typename: 'Bot', login: 'github-actions' };
    expect(await ask()).toEqual({ node: { author: bot, editor: null, lastEditedAt: null } });

    const patched = await octokit.rest.issues.updateComment({ owner, repo, comment_id: plan.id, body: 'Plan, done' });
    expect(await ask()).toEqual({ node: { author: bot, editor: bot, lastEditedAt: patched.data.updated_at } });

    const human = gh.editComment(plan.id, { login: 'mona', body: 'Plan, tampered' });
    expectShape('GET', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 200, human);
    expect(human.body).toBe('Plan, tampered');
    expect(human.updated_at > patched.data.updated_at).toBe(true);
    expect(await ask()).toEqual({
      node: { author: bot, editor: { __typename: 'User', login: 'mona' }, lastEditedAt: human.updated_at },
    });
    // REST never shows the editor; the body and updated_at are all it tells.
    expect((await octokit.rest.issues.getComment({ owner, repo, comment_id: plan.id })).data).toEqual(human);

    gh.editComment(plan.id, { login: 'renovate[bot]', body: 'Plan, by an app' });
    expect(((await ask()) as { node: { editor: unknown } }).node.editor).toEqual({
      __typename: 'Bot',
      login: 'renovate',
    });

    expect(() => gh.editComment(1, { login: 'mona', body: 'x' })).toThrow(/no comment 1/);
    expect(() => gh.editComment(plan.id, { login: 'mona', body: 'z'.repeat(65_537) })).toThrow(/65536/);
  });

  it('makes the token login the editor of a PATCH, whatever that login is', async () => {
    const personal = await startGitHubEmulator({ owner, repo, token, tokenLogin: 'octo-maintainer' });
    try {
      const client = new Octokit({ auth: token, baseUrl: personal.url, log: quiet });
      const issue = personal.addIssue({ title: 'PAT', login: 'mona' });
      const comment = personal.addComment(issue.number, { login: 'mona', body: 'hi' });
      await client.rest.issues.updateComment({ owner, repo, comment_id: comment.id, body: 'hi!' });
      const answer = await client.graphql<{ node: unknown }>(editorQuery, { id: comment.node_id });
      expect(answer.node).toMatchObject({
        author: { __typename: 'User', login: 'mona' },
        editor: { __typename: 'User', login: 'octo-maintainer' },
      });
    } finally {
      await personal.close();
    }
  });

  it('reads the query as GraphQL: aliases, named fragments, literals, comments, __typename', async () => {
    const issueNumber = newIssue('Query forms');
    const comment = gh.addComment(issueNumber, { login: 'mona', body: 'Body text' });
    const query = `
      # a comment, and commas, which GraphQL ignores
      query {
        first: node(id: "${comment.node_id}") { __typename, id, ...Facts }
        again: node(id: "${comment.node_id}") { ... on Comment { who: author { login } } ... on Bot { login } }
      }
      fragment Facts on IssueComment { databaseId url body includesCreatedEdit authorAssociation editor { login } }`;
    expect(await octokit.graphql(query)).toEqual({
      first: {
        __typename: 'IssueComment',
        id: comment.node_id,
        databaseId: comment.id,
        url: comment.html_url,
        body: 'Body text',
        includesCreatedEdit: false,
        authorAssociation: comment.author_association,
        editor: null,
      },
      again: { who: { login: 'mona' } },
    });
    const log = gh.requests.at(-1);
    expect([log?.api, log?.method, log?.path, log?.status, log?.route]).toEqual([
      'graphql',
      'POST',
      '/graphql',
      200,
      null,
    ]);
    expect(log?.body).toEqual({ query });
  });

  it("answers an unknown id with a null node and GitHub's NOT_FOUND error", async () => {
    const issueNumber = newIssue('Not a comment');
    const issueNodeId = gh.issue(issueNumber)?.node_id ?? '';
    for (const id of ['nope', issueNodeId, Buffer.from('012:IssueComment1').toString('base64')]) {
      const { status, data, headers } = await graphql({ query: editorQuery, variables: { id } });
      expect(status).toBe(200);
      expect(headers.get('x-ratelimit-resource')).toBe('graphql');
      expect(data).toEqual({
        data: { node: null },
        errors: [
          {
            type: 'NOT_FOUND',
            path: ['node'],
            locations: [{ line: 2, column: 5 }],
            message: `Could not resolve to a node with the global id of '${id}'.`,
          },
        ],
      });
    }
    const refused = await octokit.graphql(editorQuery, { id: 'nope' }).then(
      () => undefined,
      (error: unknown) => error as { name?: string; data?: unknown },
    );
    expect(refused?.name).toBe('GraphqlResponseError');
    expect(refused?.data).toEqual({ node: null });
  });

  it('answers queries it does not understand with GraphQL errors and status 200, as GitHub does', async () => {
    const id = gh.addComment(newIssue('Bad queries'), { login: 'mona', body: 'x' }).node_id;
    expect(await errorsOf({ variables: { id } })).toEqual([
      'A query attribute must be specified and must be a string.',
    ]);
    expect(await errorsOf({ query: '{ node(id: "x") {' })).toEqual(['Unexpected end of document']);
    expect(await errorsOf({ query: '{ node(id: "x") { } }' })).toEqual(['Parse error on "}" (RCURLY) at [1, 19]']);
    expect(await errorsOf({ query: `{ node(id: "${id}") { ... on IssueComment { nope } } }` })).toEqual([
      "Field 'nope' doesn't exist on type 'IssueComment'",
    ]);
    expect(await errorsOf({ query: '{ viewer { login } }' })).toEqual(["Field 'viewer' doesn't exist on type 'Query'"]);
    expect(await errorsOf({ query: '{ constructor { toString } }' })).toEqual([
      "Field 'constructor' doesn't exist on type 'Query'",
    ]);
    expect(await errorsOf({ query: `{ node(id: "${id}") { ... on IssueComment { editor } } }` })).toEqual([
      "Field 'editor' returns Actor but has no selections. Did you mean 'editor { ... }'?",
    ]);
    expect(await errorsOf({ query: `{ node(id: "${id}") { ... on Tree { oid } } }` })).toEqual([
      "No such type Tree, so it can't be a fragment condition",
    ]);
    expect(await errorsOf({ query: '{ node { id } }' })).toEqual(["Field 'node' is missing required arguments: id"]);
    expect(await errorsOf({ query: 'query($id: String!) { node(id: $id) { id } }', variables: { id } })).toEqual([
      'Type mismatch on variable $id and argument id (String! / ID!)',
    ]);
    expect(await errorsOf({ query: editorQuery, variables: {} })).toEqual([
      'Variable $id of type ID! was provided invalid value',
    ]);
    expect(await errorsOf({ query: editorQuery, variables: { id: { not: 'an id' } } })).toEqual([
      'Variable $id of type ID! was provided invalid value',
    ]);
    expect(
      await errorsOf({ query: 'query($id: ID!, $extra: Int) { node(id: $id) { id } }', variables: { id } }),
    ).toEqual(['Variable $extra is declared by anonymous query but not used']);
    expect(await errorsOf({ query: `mutation { addComment(input: {}) { clientMutationId } }` })).toEqual([
      "Field 'addComment' doesn't exist on type 'Mutation'",
    ]);
    expect(await errorsOf({ query: 'subscription { node(id: "x") { id } }' })).toEqual([
      'The plangate GitHub emulator serves queries and mutations only, not subscriptions',
    ]);
    const located = (await graphql({ query: `{\n  node(id: "${id}") {\n    ... on IssueComment { nope }\n  }\n}` }))
      .data;
    expect(located.errors).toEqual([
      {
        path: ['query', 'node', '... on IssueComment', 'nope'],
        extensions: { code: 'undefinedField', typeName: 'IssueComment', fieldName: 'nope' },
        locations: [{ line: 3, column: 27 }],
        message: "Field 'nope' doesn't exist on type 'IssueComment'",
      },
    ]);
    // Only POST reaches GraphQL; malformed JSON is refused before it, as on REST.
    const get = await fetch(`${gh.url}/graphql`, { headers: { authorization: `token ${token}` } });
    expect(get.status).toBe(404);
    const malformed = await graphql('{nope');
    expect([malformed.status, malformed.data.message]).toEqual([400, 'Problems parsing JSON']);
  });

  it('marks a draft pull request ready, refusing it without `pull-requests: write` as GitHub does', async () => {
    const pull = gh.addPullRequest({ title: 'Draft', login: 'mona', head: 'feature', draft: true });
    const mutation = `mutation MarkReady($input: MarkPullRequestReadyForReviewInput!) {
  markPullRequestReadyForReview(input: $input) { clientMutationId pullRequest { number isDraft } }
}`;
    const input = { pullRequestId: pull.node_id, clientMutationId: 'c1' };

    gh.denyPermission('pull-requests');
    const refused = await graphql({ query: mutation, variables: { input } });
    expect(refused.status).toBe(200);
    expect(refused.data).toEqual({
      data: { markPullRequestReadyForReview: null },
      errors: [
        {
          type: 'FORBIDDEN',
          path: ['markPullRequestReadyForReview'],
          extensions: { saml_failure: false },
          locations: [{ line: 2, column: 3 }],
          message: 'Resource not accessible by integration',
        },
      ],
    });
    expect(gh.pulls().find((p) => p.number === pull.number)?.draft).toBe(true);

    gh.grantPermission('pull-requests');
    const marked = await octokit.graphql<{ markPullRequestReadyForReview: unknown }>(mutation, { input });
    expect(marked.markPullRequestReadyForReview).toEqual({
      clientMutationId: 'c1',
      pullRequest: { number: pull.number, isDraft: false },
    });
    expect(gh.pulls().find((p) => p.number === pull.number)?.draft).toBe(false);

    // The input written out in the document works the same; a missing or unknown field is GitHub's error.
    const literal = `mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { clientMutationId } }`;
    expect((await graphql({ query: literal, variables: { id: pull.node_id } })).data).toEqual({
      data: { markPullRequestReadyForReview: { clientMutationId: null } },
    });
    expect(
      await errorsOf({ query: 'mutation { markPullRequestReadyForReview(input: {}) { clientMutationId } }' }),
    ).toEqual([
      "Argument 'pullRequestId' on InputObject 'MarkPullRequestReadyForReviewInput' is required. Expected type ID!",
    ]);
    expect(
      await errorsOf({
        query: 'mutation { markPullRequestReadyForReview(input: {pullRequestId: "x", nope: 1}) { clientMutationId } }',
      }),
    ).toEqual(["InputObject 'MarkPullRequestReadyForReviewInput' doesn't accept argument 'nope'"]);
    expect(await errorsOf({ query: mutation, variables: { input: { clientMutationId: 'c2' } } })).toEqual([
      'Variable $input of type MarkPullRequestReadyForReviewInput! was provided invalid value',
    ]);
    const unknown = await graphql({ query: mutation, variables: { input: { pullRequestId: 'nope' } } });
    expect(unknown.data.data).toEqual({ markPullRequestReadyForReview: null });
    expect((unknown.data.errors as Array<{ message: string }>).map((e) => e.message)).toEqual([
      "Could not resolve to a node with the global id of 'nope'.",
    ]);
  });

  it('authenticates like REST: 401 without a token or with a wrong one', async () => {
    const query = { query: '{ node(id: "x") { id } }' };
    const missing = await graphql(query, null);
    expect(missing.status).toBe(401);
    expect(missing.data.message).toBe('This endpoint requires you to be authenticated.');
    const wrong = await graphql(query, 'bearer nope');
    expect(wrong.status).toBe(401);
    expect(wrong.data.message).toBe('Bad credentials');
    expect((await graphql(query, `token ${token}`)).status).toBe(200);
    const logged = gh.requests.slice(-3).map((r) => [r.api, r.status]);
    expect(logged).toEqual([
      ['graphql', 401],
      ['graphql', 401],
      ['graphql', 200],
    ]);
  });

  it('fails POST /graphql on demand, then answers normally', async () => {
    const comment = gh.addComment(newIssue('Flaky GraphQL'), { login: 'mona', body: 'x' });
    gh.failNext('POST', /^\/graphql$/, 502);
    const failed = await rejection(octokit.graphql(editorQuery, { id: comment.node_id }));
    expect(failed.status).toBe(502);
    expect(failed.data.message).toBe('Bad Gateway');
    expect(await octokit.graphql(editorQuery, { id: comment.node_id })).toMatchObject({ node: { editor: null } });

    // A 200 with a body of the test's choosing stands in for any answer GitHub might give.
    gh.failNext('POST', '/graphql', 200, 1, {
      body: { data: { node: { editor: null, lastEditedAt: '2020-01-01T00:00:00Z' } } },
    });
    expect(await octokit.graphql(editorQuery, { id: comment.node_id })).toEqual({
      node: { editor: null, lastEditedAt: '2020-01-01T00:00:00Z' },
    });
    expect(gh.requests.slice(-3).map((r) => [r.api, r.status, r.route])).toEqual([
      ['graphql', 502, null],
      ['graphql', 200, null],
      ['graphql', 200, null],
    ]);
  });
});

describe('failure injection', () => {
  it('fails the next matching requests, then serves normally, without side effects', async () => {
    const issueNumber = newIssue('Flaky');
    const before = gh.requests.length;
    gh.failNext('GET', /\/issues\/\d+\/comments$/, 502, 2);
    for (let i = 0; i < 2; i++) {
      const { status, data } = await rejection(
        octokit.rest.issues.listComments({ owner, repo, issue_number: issueNumber }),
      );
      expect(status).toBe(502);
      expect(data.message).toBe('Bad Gateway');
    }
    expect((await octokit.rest.issues.listComments({ owner, repo, issue_number: issueNumber })).status).toBe(200);
    expect(gh.requests.slice(before).map((r) => r.status)).toEqual([502, 502, 200]);

    gh.failNext('post', '/comments$', 500);
    expect(
      (await rejection(octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body: 'lost' })))
        .status,
    ).toBe(500);
    expect(gh.comments(issueNumber)).toEqual([]);
    await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body: 'kept' });
    expect(gh.comments(issueNumber).map((c) => c.body)).toEqual(['kept']);
    expect(gh.requests.at(-1)?.body).toEqual({ body: 'kept' });
  });

  it('sends a custom body and headers, e.g. a secondary rate limit', async () => {
    gh.failNext('GET', /^\/repos\/[^/]+\/[^/]+$/, 403, 1, {
      body: { message: 'You have exceeded a secondary rate limit.', documentation_url: 'https://docs.github.com/rest' },
      headers: { 'retry-after': '7' },
    });
    const { status, data, headers } = await rejection(octokit.rest.repos.get({ owner, repo }));
    expect(status).toBe(403);
    expect(data.message).toMatch(/secondary rate limit/);
    expect(headers['retry-after']).toBe('7');
  });
});

describe('determinism', () => {
  it('gives the same ids and timestamps for the same calls, whatever the wall clock', async () => {
    const bodies: string[] = [];
    for (let run = 0; run < 2; run++) {
      const fresh = await startGitHubEmulator({ owner, repo, token });
      try {
        const client = new Octokit({ auth: token, baseUrl: fresh.url, log: quiet });
        const issue = fresh.addIssue({ title: 'Same', login: 'mona' });
        const comment = await client.rest.issues.createComment({
          owner,
          repo,
          issue_number: issue.number,
          body: 'same',
        });
        await client.rest.reactions.createForIssueComment({
          owner,
          repo,
          comment_id: comment.data.id,
          content: 'eyes',
        });
        const pull = await client.rest.pulls.create({ owner, repo, title: 'Same', head: 'topic', base: 'main' });
        bodies.push(
          JSON.stringify([issue, comment.data, fresh.reactions(comment.data.id), pull.data]).replaceAll(
            fresh.url,
            'API',
          ),
        );
        expect(issue.created_at).toBe('2024-01-01T00:00:01Z');
      } finally {
        await fresh.close();
      }
    }
    expect(bodies[0]).toBe(bodies[1]);
  });
});

describe('every response the emulator sent in this file', () => {
  it("matches GitHub's OpenAPI description for its operation and status", () => {
    const served = gh.requests.filter((r) => r.route !== null);
    expect(served.length).toBeGreaterThan(50);
    // GraphQL answers are logged too, but GitHub's OpenAPI description has nothing to say about them.
    expect(gh.requests.some((r) => r.api === 'graphql' && r.status === 200)).toBe(true);
    expect(served.every((r) => r.api === 'rest')).toBe(true);
    const problems = served.flatMap((r) => check.problems(r.method, r.route ?? '', r.status, r.response));
    expect(problems).toEqual([]);
  });
});

describe('webhook payloads', () => {
  const load = createRequire(import.meta.url);
  const examples = load('@octokit/webhooks-examples') as Array<{
    name: string;
    examples: Array<Record<string, Record<string, unknown>>>;
  }>;
  const realIssueComment = examples
    .find((d) => d.name === 'issue_comment')
    ?.examples.find((e) => e.action === ('created' as unknown));

  it("builds issue_comment created from GitHub's example, naming the emulator's thread and comment", () => {
    const issue = gh.addIssue({ title: 'Payload', body: 'Issue body', login: 'mona' });
    const comment = gh.addComment(issue.number, { login: 'hubot', body: '/plan go' });
    const payload = issueCommentPayload({ owner, repo, apiUrl: gh.url, serverUrl: gh.serverUrl, issue, comment });

    expect(payload.action).toBe('created');
    expect(payload.repository.full_name).toBe(`${owner}/${repo}`);
    expect(payload.repository.owner.login).toBe(owner);
    expect(payload.repository.url).toBe(`${gh.url}/repos/${owner}/${repo}`);
    expect(payload.issue.number).toBe(issue.number);
    expect(payload.issue.title).toBe('Payload');
    expect(payload.issue.user.login).toBe('mona');
    expect('pull_request' in payload.issue).toBe(false);
    expect([payload.comment.id, payload.comment.body, payload.comment.user.login]).toEqual([
      comment.id,
      '/plan go',
      'hubot',
    ]);
    expect(payload.comment.html_url).toBe(comment.html_url);
    expect(payload.comment.user.id).toBe(comment.user?.id);
    expect(payload.sender.login).toBe('hubot');
    // Every field of GitHub's example is still there.
    for (const part of ['issue', 'comment', 'repository', 'sender'] as const) {
      expect(Object.keys(payload[part])).toEqual(
        expect.arrayContaining(Object.keys(realIssueComment?.[part] ?? { missing: 1 })),
      );
    }
    expect(JSON.stringify(payload)).not.toMatch(/Codertocat|Hello-World/);
  });

  it('marks a pull request thread and takes flat fields, bots and a separate sender', () => {
    const payload = issueCommentPayload({
      owner,
      repo,
      issue: { number: 7, title: 'A pull', isPullRequest: true },
      comment: { id: 42, body: '/approve', login: 'renovate[bot]' },
      sender: 'mona',
    });
    expect(payload.issue.pull_request).toEqual({
      url: `https://api.github.com/repos/${owner}/${repo}/pulls/7`,
      html_url: `https://github.com/${owner}/${repo}/pull/7`,
      diff_url: `https://github.com/${owner}/${repo}/pull/7.diff`,
      patch_url: `https://github.com/${owner}/${repo}/pull/7.patch`,
      merged_at: null,
    });
    expect(payload.comment.user.type).toBe('Bot');
    expect(payload.sender.login).toBe('mona');
    const pull = gh.addPullRequest({ title: 'From emulator', login: 'mona', head: 'feature2' });
    const fromEmulator = issueCommentPayload({
      owner,
      repo,
      issue: gh.issue(pull.number) ?? { number: 0, title: '' },
      comment: { id: 1, login: 'mona' },
    });
    expect(fromEmulator.issue.pull_request).toBeDefined();
  });

  it('builds workflow_dispatch and schedule events', () => {
    const dispatch = workflowDispatchPayload({ owner, repo, sender: 'mona', inputs: { task: 'deps' } });
    expect([dispatch.ref, dispatch.sender.login, dispatch.repository.full_name]).toEqual([
      'refs/heads/main',
      'mona',
      `${owner}/${repo}`,
    ]);
    expect(dispatch.inputs).toEqual({ task: 'deps' });
    expect('organization' in dispatch).toBe(false);
    expect(dispatch.workflow).toBe('.github/workflows/plangate.yml');

    const scheduled = schedulePayload({ owner, repo, cron: '17 3 * * 1', defaultBranch: 'trunk' });
    expect(scheduled.schedule).toBe('17 3 * * 1');
    expect(scheduled.repository.default_branch).toBe('trunk');
    expect(scheduled.repository.full_name).toBe(`${owner}/${repo}`);
    expect('sender' in scheduled).toBe(false);
  });
});
