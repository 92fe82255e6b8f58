import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient, type GitHubClient } from '../../src/github/client.js';
import { acquireLock, lockMessage, parseLockMessage, releaseLock, type ExecutionLock, type LockAttempt } from '../../src/github/lock.js';
import { startGitHubEmulator, type GitHubEmulator } from '../fakes/github-emulator.js';
import { createOrigin, type Origin } from './github-origin-fixture.js';

// The execution lock against the emulator's git data and Actions APIs over a real bare repository.
// Every test locks its own issue number, so they do not see each other's locks.

const owner = 'octo';
const repo = 'sample';
const token = 'ghs_lockTestToken0123456789';
const repoRef = { owner, repo };

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

const runUrl = (runId: string) => `${gh.serverUrl}/${owner}/${repo}/actions/runs/${runId}`;

/** Starts run `runId` in the emulator and tries to take the lock of `issue` for it. */
function acquire(issue: number, runId: string): Promise<LockAttempt> {
  return acquireLock({ octokit, repoRef, issue, runId, runUrl: runUrl(runId), baseSha: origin.mainSha });
}

function startRun(runId: string): void {
  gh.setRun(runId, 'in_progress');
}

function held(attempt: LockAttempt): ExecutionLock {
  if (!attempt.acquired) throw new Error(`expected the lock, but run ${attempt.holder.runId} holds it`);
  return attempt.lock;
}

const lockRef = (issue: number) => `refs/plangate/locks/${issue}`;

describe('the lock message', () => {
  it('names the run and its page, and reads back', () => {
    expect(lockMessage('12', 'https://github.example/o/r/actions/runs/12')).toBe('plangate lock: run 12 https://github.example/o/r/actions/runs/12');
    expect(parseLockMessage(lockMessage('12', 'https://x/12'))).toEqual({ runId: '12', runUrl: 'https://x/12' });
    expect(parseLockMessage(lockMessage('12', ''))).toEqual({ runId: '12', runUrl: '' });
    expect(parseLockMessage('Merge branch main')).toBeUndefined();
  });
});

describe('acquireLock', () => {
  it('creates the lock ref at a commit that names the run, on the base commit\'s tree', async () => {
    startRun('101');
    const lock = held(await acquire(1, '101'));
    expect(lock).toEqual({ issue: 1, ref: lockRef(1), sha: origin.refSha(lockRef(1)), runId: '101' });
    expect(origin.git('log', '-1', '--format=%B', lock.sha)).toBe(`plangate lock: run 101 ${runUrl('101')}`);
    expect(origin.git('rev-parse', `${lock.sha}^{tree}`)).toBe(origin.git('rev-parse', `${origin.mainSha}^{tree}`));
    expect(origin.git('rev-list', '--count', lock.sha)).toBe('1');
  });

  it('refuses a second run while the holder is in progress or queued, naming the holder', async () => {
    startRun('201');
    const first = held(await acquire(2, '201'));
    startRun('202');
    expect(await acquire(2, '202')).toEqual({ acquired: false, holder: { runId: '201', runUrl: runUrl('201'), status: 'in_progress' } });
    gh.setRun('201', 'queued');
    expect(await acquire(2, '202')).toMatchObject({ acquired: false, holder: { runId: '201', status: 'queued' } });
    expect(origin.refSha(lockRef(2))).toBe(first.sha);
  });

  it('counts the lock as ours for a re-run attempt of the same run', async () => {
    startRun('301');
    const first = held(await acquire(3, '301'));
    const again = held(await acquire(3, '301'));
    expect(again.sha).toBe(first.sha);
    expect(again.tookOverFrom).toBeUndefined();
  });

  it('takes the lock over by fast-forward once the holder has completed', async () => {
    startRun('401');
    const stale = held(await acquire(4, '401'));
    gh.setRun('401', 'completed', 'failure');
    startRun('402');
    const lock = held(await acquire(4, '402'));
    expect(lock.tookOverFrom).toEqual({ runId: '401', runUrl: runUrl('401') });
    expect(origin.refSha(lockRef(4))).toBe(lock.sha);
    expect(origin.git('rev-parse', `${lock.sha}^`)).toBe(stale.sha);
    expect(origin.git('log', '-1', '--format=%B', lock.sha)).toContain('run 402 ');
    const patch = gh.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/git/refs/plangate%2Flocks%2F4'));
    expect(patch.map((r) => [r.status, r.body])).toEqual([[200, { sha: lock.sha, force: false }]]);
  });

  it('takes over from a run GitHub no longer knows and from a commit that names no run', async () => {
    startRun('501');
    held(await acquire(5, '501'));
    gh.setRun('501', 'completed');
    // Run 9999 was never registered: GitHub answers 404 for it.
    const unknownRun = held(await acquire(5, '9999'));
    expect(unknownRun.tookOverFrom?.runId).toBe('501');
    gh.setRun('9999', 'completed');

    const { data: foreign } = await octokit.rest.git.createCommit({
      owner,
      repo,
      message: 'not a lock',
      tree: origin.git('rev-parse', `${origin.mainSha}^{tree}`),
      parents: [unknownRun.sha],
    });
    origin.git('update-ref', lockRef(5), foreign.sha);
    startRun('502');
    const lock = held(await acquire(5, '502'));
    expect(lock.tookOverFrom).toBeUndefined();
    expect(origin.git('rev-parse', `${lock.sha}^`)).toBe(foreign.sha);
  });

  it('fails closed when the holder\'s run cannot be read, saying which permission is missing', async () => {
    startRun('601');
    const first = held(await acquire(6, '601'));
    gh.failNext('GET', /\/actions\/runs\/601$/, 403, 1, { body: { message: 'Resource not accessible by integration' } });
    startRun('602');
    const attempt = await acquire(6, '602');
    expect(attempt).toMatchObject({ acquired: false, holder: { runId: '601', status: 'unknown' } });
    expect(attempt.acquired ? '' : attempt.holder.problem).toContain('actions: read');
    expect(origin.refSha(lockRef(6))).toBe(first.sha);
  });

  it('lets exactly one of two simultaneous runs take a free lock; the other names the winner', async () => {
    startRun('701');
    startRun('702');
    const attempts = await Promise.all([acquire(7, '701'), acquire(7, '702')]);
    const winners = attempts.filter((a) => a.acquired);
    const losers = attempts.flatMap((a) => (a.acquired ? [] : [a.holder]));
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    const winner = held(winners[0] as LockAttempt);
    expect(losers[0]).toEqual({ runId: winner.runId, runUrl: runUrl(winner.runId), status: 'in_progress' });
    expect(origin.refSha(lockRef(7))).toBe(winner.sha);
  });

  it('lets exactly one of two simultaneous takeovers of a stale lock win', async () => {
    startRun('801');
    const stale = held(await acquire(8, '801'));
    gh.setRun('801', 'completed');
    startRun('802');
    startRun('803');
    const attempts = await Promise.all([acquire(8, '802'), acquire(8, '803')]);
    const winners = attempts.flatMap((a) => (a.acquired ? [a.lock] : []));
    expect(winners).toHaveLength(1);
    const winner = winners[0] as ExecutionLock;
    expect(winner.tookOverFrom?.runId).toBe('801');
    expect(origin.git('rev-parse', `${winner.sha}^`)).toBe(stale.sha);
    const loser = attempts.find((a) => !a.acquired);
    expect(loser).toEqual({ acquired: false, holder: { runId: winner.runId, runUrl: runUrl(winner.runId), status: 'in_progress' } });
    expect(origin.refSha(lockRef(8))).toBe(winner.sha);
  });

  it('keeps the lock it created when the answer to the create was lost', async () => {
    startRun('901');
    gh.failAfter('POST', /\/git\/refs$/, 502);
    const lock = held(await acquire(9, '901'));
    expect(origin.refSha(lockRef(9))).toBe(lock.sha);
    // The plugin resent the create, GitHub said it exists, and the holder turned out to be us.
    const creates = gh.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/git/refs') && (r.body as { ref?: string }).ref === lockRef(9));
    expect(creates.map((r) => r.status)).toEqual([502, 422]);
  });

  it('needs a run id and a full base sha', async () => {
    await expect(acquireLock({ octokit, repoRef, issue: 10, runId: '', runUrl: '', baseSha: origin.mainSha })).rejects.toThrow(/GITHUB_RUN_ID/);
    await expect(acquireLock({ octokit, repoRef, issue: 10, runId: '1', runUrl: '', baseSha: 'main' })).rejects.toThrow(/full sha/);
    expect(origin.refSha(lockRef(10))).toBeUndefined();
  });
});

describe('releaseLock', () => {
  it('deletes the ref while it points at our lock commit, and only then', async () => {
    startRun('1101');
    const lock = held(await acquire(11, '1101'));
    expect(await releaseLock({ octokit, repoRef, lock })).toBe(true);
    expect(origin.refSha(lockRef(11))).toBeUndefined();
    expect(await releaseLock({ octokit, repoRef, lock })).toBe(false);

    // Free again: the next run creates it afresh.
    startRun('1102');
    const next = held(await acquire(11, '1102'));
    expect(next.tookOverFrom).toBeUndefined();
  });

  it('leaves a successor\'s lock alone after a takeover', async () => {
    startRun('1201');
    const old = held(await acquire(12, '1201'));
    gh.setRun('1201', 'completed');
    startRun('1202');
    const successor = held(await acquire(12, '1202'));
    expect(await releaseLock({ octokit, repoRef, lock: old })).toBe(false);
    expect(origin.refSha(lockRef(12))).toBe(successor.sha);
    expect(await releaseLock({ octokit, repoRef, lock: successor })).toBe(true);
  });
});
