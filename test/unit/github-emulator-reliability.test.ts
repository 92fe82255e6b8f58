import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitHubEmulator, type GitHubEmulator } from '../fakes/github-emulator.js';
import { createGitHubResponseCheck } from '../fakes/github-openapi-check.js';
import { createOrigin, type Origin } from './github-origin-fixture.js';

// The emulator's git data API, workflow runs, late faults and repository settings, against a real
// bare repository. A plain Octokit without retry or throttling, so every request is seen as sent.

const owner = 'octo';
const repo = 'sample';
const token = 'ghs_emulatorReliability0123456789';
const check = createGitHubResponseCheck();
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

let origin: Origin;
let gh: GitHubEmulator;
let octokit: Octokit;

beforeAll(async () => {
  origin = createOrigin();
  gh = await startGitHubEmulator({ owner, repo, token, originPath: origin.path });
  octokit = new Octokit({ auth: token, baseUrl: gh.url, log: quiet });
});

afterAll(async () => {
  await gh?.close();
  origin?.remove();
});

/** The status and GitHub message of a request Octokit rejected; fails the test if it succeeded. */
async function refused(request: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await request;
  } catch (error) {
    const failure = error as { status?: number; response?: { data?: { message?: string } } };
    return { status: failure.status ?? -1, message: failure.response?.data?.message ?? '' };
  }
  throw new Error('expected the request to be refused');
}

/** A request with the raw path, as a client that does not encode slashes in a ref sends it. */
async function raw(
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; data: Record<string, unknown> }> {
  const res = await fetch(`${gh.url}/repos/${owner}/${repo}${route}`, {
    method,
    headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, data: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

function treeOf(sha: string): string {
  return origin.git('rev-parse', `${sha}^{tree}`);
}

async function lockCommit(message: string, parents: string[] = []): Promise<string> {
  const { data } = await octokit.rest.git.createCommit({ owner, repo, message, tree: treeOf(origin.mainSha), parents });
  return data.sha;
}

describe('git commits', () => {
  it("creates a real commit object with the exact message, the token user as author and GitHub's shape", async () => {
    const message = 'plangate lock: run 7 https://github.example/octo/sample/actions/runs/7';
    const created = await octokit.rest.git.createCommit({
      owner,
      repo,
      message,
      tree: treeOf(origin.mainSha),
      parents: [origin.mainSha],
    });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(created.data.url);
    expect(created.data.message).toBe(message);
    expect(created.data.tree.sha).toBe(treeOf(origin.mainSha));
    expect(created.data.parents.map((p) => p.sha)).toEqual([origin.mainSha]);
    expect(created.data.author).toMatchObject({
      name: 'github-actions[bot]',
      email: '41898282+github-actions[bot]@users.noreply.github.com',
    });
    expect(created.data.author.date).toMatch(/^2024-01-01T00:00:\d\dZ$/);

    // git itself holds it, message byte for byte (no trailing newline added).
    expect(origin.git('cat-file', '-t', created.data.sha)).toBe('commit');
    expect(origin.git('log', '-1', '--format=%B', created.data.sha)).toBe(message);
    expect(origin.git('rev-parse', `${created.data.sha}^`)).toBe(origin.mainSha);

    const read = await octokit.rest.git.getCommit({ owner, repo, commit_sha: created.data.sha });
    expect(read.data).toEqual(created.data);
  });

  it('takes an explicit author and no parents', async () => {
    const author = { name: 'Mona', email: 'mona@example.com', date: '2024-05-06T07:08:09Z' };
    const { data } = await octokit.rest.git.createCommit({
      owner,
      repo,
      message: 'root\n',
      tree: treeOf(origin.mainSha),
      author,
    });
    expect(data.parents).toEqual([]);
    expect(data.author).toEqual(author);
    expect(data.committer).toEqual(author);
    expect(data.message).toBe('root\n');
  });

  it('refuses a missing tree or parent, and answers 404 for an unknown commit', async () => {
    const missing = 'f'.repeat(40);
    expect(await refused(octokit.rest.git.createCommit({ owner, repo, message: 'x', tree: missing }))).toEqual({
      status: 422,
      message: 'Tree SHA does not exist',
    });
    expect(
      await refused(
        octokit.rest.git.createCommit({ owner, repo, message: 'x', tree: treeOf(origin.mainSha), parents: [missing] }),
      ),
    ).toEqual({
      status: 422,
      message: 'Parent SHA does not exist or is not a commit object',
    });
    // A tree is no commit: a parent must be one.
    const treeAsParent = octokit.rest.git.createCommit({
      owner,
      repo,
      message: 'x',
      tree: treeOf(origin.mainSha),
      parents: [treeOf(origin.mainSha)],
    });
    expect((await refused(treeAsParent)).status).toBe(422);
    expect((await refused(octokit.rest.git.getCommit({ owner, repo, commit_sha: missing }))).status).toBe(404);
    expect(
      (await refused(octokit.rest.git.getCommit({ owner, repo, commit_sha: treeOf(origin.mainSha) }))).status,
    ).toBe(404);
  });

  it('answers 409 "Git Repository is empty." without an origin', async () => {
    const bare = await startGitHubEmulator({ owner, repo, token });
    try {
      const client = new Octokit({ auth: token, baseUrl: bare.url, log: quiet });
      expect(await refused(client.rest.git.getRef({ owner, repo, ref: 'heads/main' }))).toEqual({
        status: 409,
        message: 'Git Repository is empty.',
      });
    } finally {
      await bare.close();
    }
  });
});

describe('git refs', () => {
  it('creates a ref once: a second create is 422 "Reference already exists" and leaves it alone', async () => {
    const first = await lockCommit('first holder');
    const second = await lockCommit('second holder');
    const created = await octokit.rest.git.createRef({ owner, repo, ref: 'refs/plangate/locks/1', sha: first });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ ref: 'refs/plangate/locks/1', object: { type: 'commit', sha: first } });
    expect(created.data.url).toBe(`${gh.url}/repos/${owner}/${repo}/git/refs/plangate/locks/1`);
    expect(origin.refSha('refs/plangate/locks/1')).toBe(first);

    expect(
      await refused(octokit.rest.git.createRef({ owner, repo, ref: 'refs/plangate/locks/1', sha: second })),
    ).toEqual({
      status: 422,
      message: 'Reference already exists',
    });
    expect(origin.refSha('refs/plangate/locks/1')).toBe(first);
  });

  it('reads a ref by its name without refs/, slashes encoded or not; 404 when absent', async () => {
    const sha = await lockCommit('read me');
    await octokit.rest.git.createRef({ owner, repo, ref: 'refs/plangate/locks/2', sha });
    const viaOctokit = await octokit.rest.git.getRef({ owner, repo, ref: 'plangate/locks/2' });
    expect(viaOctokit.data.object.sha).toBe(sha);
    const plain = await raw('GET', '/git/ref/plangate/locks/2');
    expect(plain.status).toBe(200);
    expect(plain.data).toEqual(viaOctokit.data);
    expect((await octokit.rest.git.getRef({ owner, repo, ref: 'heads/main' })).data.object.sha).toBe(origin.mainSha);
    expect((await refused(octokit.rest.git.getRef({ owner, repo, ref: 'plangate/locks/404' }))).status).toBe(404);
  });

  it('refuses malformed names and missing objects', async () => {
    const sha = await lockCommit('names');
    expect((await refused(octokit.rest.git.createRef({ owner, repo, ref: 'plangate/locks/3', sha }))).status).toBe(422);
    expect((await refused(octokit.rest.git.createRef({ owner, repo, ref: 'refs/heads', sha }))).status).toBe(422);
    expect(
      (await refused(octokit.rest.git.createRef({ owner, repo, ref: 'refs/plangate/bad..name', sha }))).status,
    ).toBe(422);
    expect(
      await refused(octokit.rest.git.createRef({ owner, repo, ref: 'refs/plangate/locks/3', sha: 'e'.repeat(40) })),
    ).toEqual({
      status: 422,
      message: 'Object does not exist',
    });
    expect(origin.refSha('refs/plangate/locks/3')).toBeUndefined();
  });

  it('moves a ref only by fast-forward unless forced', async () => {
    const base = await lockCommit('base');
    const child = await lockCommit('child', [base]);
    const sibling = await lockCommit('sibling', [base]);
    await octokit.rest.git.createRef({ owner, repo, ref: 'refs/plangate/locks/4', sha: base });

    const forward = await octokit.rest.git.updateRef({
      owner,
      repo,
      ref: 'plangate/locks/4',
      sha: child,
      force: false,
    });
    expect(forward.data.object.sha).toBe(child);
    expect(origin.refSha('refs/plangate/locks/4')).toBe(child);

    expect(await refused(octokit.rest.git.updateRef({ owner, repo, ref: 'plangate/locks/4', sha: sibling }))).toEqual({
      status: 422,
      message: 'Update is not a fast forward',
    });
    expect(origin.refSha('refs/plangate/locks/4')).toBe(child);

    const forced = await raw('PATCH', '/git/refs/plangate/locks/4', { sha: sibling, force: true });
    expect(forced.status).toBe(200);
    expect(origin.refSha('refs/plangate/locks/4')).toBe(sibling);

    expect(await refused(octokit.rest.git.updateRef({ owner, repo, ref: 'plangate/locks/none', sha: child }))).toEqual({
      status: 422,
      message: 'Reference does not exist',
    });
  });

  it('deletes a ref with 204, then answers 422 "Reference does not exist"', async () => {
    const sha = await lockCommit('delete me');
    await octokit.rest.git.createRef({ owner, repo, ref: 'refs/plangate/locks/5', sha });
    expect((await octokit.rest.git.deleteRef({ owner, repo, ref: 'plangate/locks/5' })).status).toBe(204);
    expect(origin.refSha('refs/plangate/locks/5')).toBeUndefined();
    expect(await refused(octokit.rest.git.deleteRef({ owner, repo, ref: 'plangate/locks/5' }))).toEqual({
      status: 422,
      message: 'Reference does not exist',
    });
  });

  it('lets exactly one of many simultaneous creates of one ref win', async () => {
    const shas = await Promise.all(Array.from({ length: 8 }, (_, i) => lockCommit(`racer ${i}`)));
    const outcomes = await Promise.all(
      shas.map((sha) =>
        raw('POST', '/git/refs', { ref: 'refs/plangate/locks/6', sha }).then((r) => ({ sha, status: r.status })),
      ),
    );
    const winners = outcomes.filter((o) => o.status === 201);
    expect(winners).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 422)).toHaveLength(7);
    expect(origin.refSha('refs/plangate/locks/6')).toBe(winners[0]?.sha);
  });

  it('lets exactly one of two fast-forwards from the same commit win', async () => {
    const base = await lockCommit('stale');
    await octokit.rest.git.createRef({ owner, repo, ref: 'refs/plangate/locks/7', sha: base });
    const [a, b] = await Promise.all([lockCommit('taker a', [base]), lockCommit('taker b', [base])]);
    const statuses = await Promise.all(
      [a, b].map((sha) => raw('PATCH', '/git/refs/plangate/locks/7', { sha }).then((r) => r.status)),
    );
    expect([...statuses].sort()).toEqual([200, 422]);
    expect(origin.refSha('refs/plangate/locks/7')).toBe(statuses[0] === 200 ? a : b);
  });
});

describe('workflow runs', () => {
  it('reports a registered run as it moves from queued to completed, and 404 for others', async () => {
    expect((await refused(octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: 4242 }))).status).toBe(404);
    gh.setRun(4242, 'queued');
    const queued = await octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: 4242 });
    expect(queued.data).toMatchObject({ id: 4242, status: 'queued', conclusion: null });
    expect(queued.data.html_url).toBe(`${gh.serverUrl}/${owner}/${repo}/actions/runs/4242`);
    expect(queued.data.head_sha).toBe(origin.mainSha);

    gh.setRun('4242', 'in_progress');
    expect((await octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: 4242 })).data.status).toBe('in_progress');
    gh.setRun(4242, 'completed', 'failure');
    expect((await octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: 4242 })).data).toMatchObject({
      status: 'completed',
      conclusion: 'failure',
    });
    gh.setRun(4243, 'completed');
    expect((await octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: 4243 })).data.conclusion).toBe('success');
    expect((await raw('GET', '/actions/runs/not-a-number')).status).toBe(404);
    expect(() => gh.setRun('abc', 'queued')).toThrow(/positive integers/);
  });
});

describe('failAfter', () => {
  const comments = /\/issues\/\d+\/comments$/;

  it('stores the comment, then answers with the status', async () => {
    const issue = gh.addIssue({ title: 'late 502', login: 'mona' }).number;
    gh.failAfter('POST', comments, 502);
    expect(
      (await refused(octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: 'kept' }))).status,
    ).toBe(502);
    expect(gh.comments(issue).map((c) => c.body)).toEqual(['kept']);
    expect(gh.requests.at(-1)).toMatchObject({ method: 'POST', status: 502, fault: 502, route: null });
    // Once only: the next one is answered normally.
    expect((await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: 'second' })).status).toBe(
      201,
    );
  });

  it('stores the comment, then resets the connection', async () => {
    const issue = gh.addIssue({ title: 'late reset', login: 'mona' }).number;
    gh.failAfter('POST', comments, 'reset');
    const error = await fetch(`${gh.url}/repos/${owner}/${repo}/issues/${issue}/comments`, {
      method: 'POST',
      headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'stored before the reset' }),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(gh.comments(issue).map((c) => c.body)).toEqual(['stored before the reset']);
    expect(gh.requests.at(-1)).toMatchObject({ method: 'POST', status: 0, fault: 'reset' });
  });

  it('stores the comment and never answers when told to hang', async () => {
    const issue = gh.addIssue({ title: 'late hang', login: 'mona' }).number;
    gh.failAfter('POST', comments, 'hang');
    const served = gh.served('POST', comments);
    const controller = new AbortController();
    const pending = fetch(`${gh.url}/repos/${owner}/${repo}/issues/${issue}/comments`, {
      method: 'POST',
      headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'stored, never confirmed' }),
      signal: controller.signal,
    }).then(
      () => 'answered',
      () => 'aborted',
    );
    // Served, with no answer sent: waited for by the emulator's cue instead of a clock.
    expect(await served).toMatchObject({ method: 'POST', status: 0, fault: 'hang' });
    expect(gh.comments(issue).map((c) => c.body)).toEqual(['stored, never confirmed']);
    controller.abort();
    expect(await pending).toBe('aborted');
  });

  it('moves a ref, then fails: the side effect of a git write survives the lost answer', async () => {
    const sha = await lockCommit('late ref');
    gh.failAfter('POST', /\/git\/refs$/, 500);
    expect((await refused(octokit.rest.git.createRef({ owner, repo, ref: 'refs/plangate/locks/8', sha }))).status).toBe(
      500,
    );
    expect(origin.refSha('refs/plangate/locks/8')).toBe(sha);
  });
});

describe('served', () => {
  it('settles with the first matching request from then on, once it is served, and with no other', async () => {
    const issue = gh.addIssue({ title: 'cues', login: 'mona' }).number;
    const comments = new RegExp(`/issues/${issue}/comments$`);
    await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: 'before the cue' });
    const posted = gh.served('post', comments);
    const never = gh.served('DELETE', comments);
    await octokit.rest.issues.listComments({ owner, repo, issue_number: issue });
    const pending = Symbol('pending');
    expect(await Promise.race([posted, Promise.resolve(pending)]), 'a GET is no POST').toBe(pending);
    await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: 'the cue' });
    const entry = await posted;
    expect(entry).toMatchObject({ method: 'POST', status: 201, body: { body: 'the cue' } });
    expect(gh.comments(issue).map((c) => c.body)).toEqual(['before the cue', 'the cue']);
    expect(await Promise.race([never, Promise.resolve(pending)])).toBe(pending);
  });
});

describe('repository settings', () => {
  it('refuses pull requests from Actions when the setting is off, as GitHub words it', async () => {
    origin.git('update-ref', 'refs/heads/topic', await lockCommit('topic', [origin.mainSha]));
    gh.forbidActionsPullRequests();
    expect(await refused(octokit.rest.pulls.create({ owner, repo, title: 'T', head: 'topic', base: 'main' }))).toEqual({
      status: 403,
      message: 'GitHub Actions is not permitted to create or approve pull requests.',
    });
    expect(gh.pulls()).toEqual([]);
    gh.forbidActionsPullRequests(false);
    expect((await octokit.rest.pulls.create({ owner, repo, title: 'T', head: 'topic', base: 'main' })).status).toBe(
      201,
    );
  });

  it('answers writes needing a withheld permission with 403 "Resource not accessible by integration"', async () => {
    const issue = gh.addIssue({ title: 'perms', login: 'mona' }).number;
    const pull = gh.pulls().find((p) => p.head.ref === 'topic');
    if (!pull) throw new Error('the pull request from the previous test is missing');
    const denied = { status: 403, message: 'Resource not accessible by integration' };

    gh.denyPermission('issues');
    expect(await refused(octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: 'no' }))).toEqual(
      denied,
    );
    // A pull request's conversation takes pull-requests: write instead.
    expect(
      (await octokit.rest.issues.createComment({ owner, repo, issue_number: pull.number, body: 'yes' })).status,
    ).toBe(201);
    // Reading stays allowed.
    expect((await octokit.rest.issues.listComments({ owner, repo, issue_number: issue })).status).toBe(200);

    gh.denyPermission('pull-requests');
    expect(
      await refused(octokit.rest.issues.createComment({ owner, repo, issue_number: pull.number, body: 'no' })),
    ).toEqual(denied);
    expect(await refused(octokit.rest.pulls.update({ owner, repo, pull_number: pull.number, body: 'no' }))).toEqual(
      denied,
    );

    gh.denyPermission('contents');
    const sha = await refused(
      octokit.rest.git.createCommit({ owner, repo, message: 'no', tree: treeOf(origin.mainSha) }),
    );
    expect(sha).toEqual(denied);
    expect((await octokit.rest.git.getRef({ owner, repo, ref: 'heads/main' })).status).toBe(200);

    for (const area of ['issues', 'pull-requests', 'contents'] as const) gh.grantPermission(area);
    expect(
      (await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: 'granted' })).status,
    ).toBe(201);
    expect(gh.comments(issue).map((c) => c.body)).toEqual(['granted']);
  });
});

describe('every response this file was served', () => {
  it("matches GitHub's OpenAPI description for its operation and status", () => {
    const served = gh.requests.filter((r) => r.route !== null);
    expect(served.some((r) => r.route?.includes('/git/'))).toBe(true);
    expect(served.some((r) => r.route?.includes('/actions/runs/'))).toBe(true);
    // GitHub documents DELETE ref's 422 without a body, yet sends its usual error body; the emulator does too.
    const documented = served.filter((r) => !(r.method === 'DELETE' && r.status === 422));
    expect(documented.length).toBeGreaterThan(30);
    expect(documented.flatMap((r) => check.problems(r.method, r.route ?? '', r.status, r.response))).toEqual([]);
  });
});
