import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient, type GitHubClient } from '../../src/github/client.js';
import {
  acquireLock,
  lockMessage,
  parseLockMessage,
  releaseLock,
  type ExecutionLock,
  type LockAttempt,
} from '../../src/github/lock.js';
import { createGit, type Git } from '../../src/repo/git.js';
import { executionLocks } from '../../src/entry/execution-locks.js';
import { startGitHubEmulator, type GitHubEmulator } from '../fakes/github-emulator.js';
import { createOrigin, type Origin } from './github-origin-fixture.js';

// The execution lock over git against a real bare repository as origin, each run in a checkout of
// its own as on a runner, and the emulator's Actions API for the holder's status. Every test locks
// its own issue number, so they do not see each other's locks.

const owner = 'octo';
const repo = 'sample';
const token = 'ghs_lockTestToken0123456789';
const repoRef = { owner, repo };

let origin: Origin;
let gh: GitHubEmulator;
let octokit: GitHubClient;
let dir: string;
let checkouts = 0;

beforeAll(async () => {
  origin = createOrigin();
  gh = await startGitHubEmulator({ owner, repo, token, originPath: origin.path });
  octokit = createGitHubClient(token, gh.url, { waitUnitMs: 1, pace: false });
  dir = mkdtempSync(path.join(tmpdir(), 'plangate-lock-'));
});

afterAll(async () => {
  await gh?.close();
  origin?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A shallow clone of origin, as actions/checkout makes one for every job. */
function checkout(): Git {
  const workspace = path.join(dir, `checkout-${++checkouts}`);
  execFileSync('git', ['clone', '--quiet', '--depth=1', `file://${origin.path}`, workspace], { stdio: 'ignore' });
  return createGit(workspace);
}

const runUrl = (runId: string) => `${gh.serverUrl}/${owner}/${repo}/actions/runs/${runId}`;

/** Tries to take the lock of `issue` for run `runId`, from a checkout of its own unless one is given. */
function acquire(issue: number, runId: string, git: Git = checkout()): Promise<LockAttempt> {
  return acquireLock({ git, octokit, repoRef, issue, runId, runUrl: runUrl(runId) });
}

function startRun(runId: string): void {
  gh.setRun(runId, 'in_progress');
}

function held(attempt: LockAttempt): ExecutionLock {
  if (!attempt.acquired) throw new Error(`expected the lock, but run ${attempt.holder.runId} holds it`);
  return attempt.lock;
}

const lockRef = (issue: number) => `refs/plangate/locks/${issue}`;

/** The REST calls made since `from`: the lock may only ask the Actions API, and only when contended. */
const restCalls = (from: number) => gh.requests.slice(from).map((r) => `${r.method} ${r.route ?? r.path}`);

describe('the lock message', () => {
  it('names the run and its page, and reads back', () => {
    expect(lockMessage('12', 'https://github.example/o/r/actions/runs/12')).toBe(
      'plangate lock: run 12 https://github.example/o/r/actions/runs/12',
    );
    expect(parseLockMessage(lockMessage('12', 'https://x/12'))).toEqual({ runId: '12', runUrl: 'https://x/12' });
    expect(parseLockMessage(lockMessage('12', ''))).toEqual({ runId: '12', runUrl: '' });
    expect(parseLockMessage('Merge branch main')).toBeUndefined();
  });
});

describe('acquireLock', () => {
  it('pushes the lock ref at a parentless commit that names the run, without a single REST call', async () => {
    startRun('101');
    const from = gh.requests.length;
    const lock = held(await acquire(1, '101'));
    expect(lock).toEqual({ issue: 1, ref: lockRef(1), sha: origin.refSha(lockRef(1)), runId: '101' });
    expect(origin.git('log', '-1', '--format=%B', lock.sha)).toBe(`plangate lock: run 101 ${runUrl('101')}`);
    expect(origin.git('rev-list', '--count', lock.sha)).toBe('1');
    // Git's empty tree: the lock carries no files.
    expect(origin.git('rev-parse', `${lock.sha}^{tree}`)).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    expect(restCalls(from)).toEqual([]);
  });

  it('refuses a second run while the holder is in progress or queued, naming the holder', async () => {
    startRun('201');
    const first = held(await acquire(2, '201'));
    startRun('202');
    const from = gh.requests.length;
    expect(await acquire(2, '202')).toEqual({
      acquired: false,
      holder: { runId: '201', runUrl: runUrl('201'), status: 'in_progress' },
    });
    expect(restCalls(from)).toEqual(['GET /repos/{owner}/{repo}/actions/runs/{run_id}']);
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

  it('takes the lock over, leased on the stale commit, once the holder has completed', async () => {
    startRun('401');
    const stale = held(await acquire(4, '401'));
    gh.setRun('401', 'completed', 'failure');
    startRun('402');
    const lock = held(await acquire(4, '402'));
    expect(lock.tookOverFrom).toEqual({ runId: '401', runUrl: runUrl('401') });
    expect(origin.refSha(lockRef(4))).toBe(lock.sha);
    expect(origin.git('rev-parse', `${lock.sha}^`)).toBe(stale.sha);
    expect(origin.git('log', '-1', '--format=%B', lock.sha)).toContain('run 402 ');
  });

  it('takes over from a run GitHub no longer knows and from a commit that names no run', async () => {
    startRun('501');
    held(await acquire(5, '501'));
    gh.setRun('501', 'completed');
    // Run 9999 was never registered: GitHub answers 404 for it.
    const unknownRun = held(await acquire(5, '9999'));
    expect(unknownRun.tookOverFrom?.runId).toBe('501');
    gh.setRun('9999', 'completed');

    origin.git('update-ref', lockRef(5), origin.mainSha);
    startRun('502');
    const lock = held(await acquire(5, '502'));
    expect(lock.tookOverFrom).toBeUndefined();
    expect(origin.git('rev-parse', `${lock.sha}^`)).toBe(origin.mainSha);
  });

  it("fails closed when the holder's run cannot be read, saying which permission is missing", async () => {
    startRun('601');
    const first = held(await acquire(6, '601'));
    gh.failNext('GET', /\/actions\/runs\/601$/, 403, 1, {
      body: { message: 'Resource not accessible by integration' },
    });
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
    expect(loser).toEqual({
      acquired: false,
      holder: { runId: winner.runId, runUrl: runUrl(winner.runId), status: 'in_progress' },
    });
    expect(origin.refSha(lockRef(8))).toBe(winner.sha);
  });

  it('lets two runs sharing one checkout settle it too', async () => {
    startRun('901');
    startRun('902');
    const shared = checkout();
    const attempts = await Promise.all([acquire(9, '901', shared), acquire(9, '902', shared)]);
    expect(attempts.filter((a) => a.acquired)).toHaveLength(1);
    expect(attempts.filter((a) => !a.acquired)).toHaveLength(1);
  });

  it("fails with git's words when origin cannot be reached, and takes nothing", async () => {
    const workspace = path.join(dir, 'no-origin');
    execFileSync('git', ['init', '--quiet', workspace]);
    execFileSync('git', ['-C', workspace, 'remote', 'add', 'origin', path.join(dir, 'missing.git')]);
    await expect(acquire(10, '1001', createGit(workspace))).rejects.toThrow(/git push failed/);
  });

  it('needs a run id', async () => {
    await expect(acquireLock({ git: checkout(), octokit, repoRef, issue: 11, runId: '', runUrl: '' })).rejects.toThrow(
      /GITHUB_RUN_ID/,
    );
    expect(origin.refSha(lockRef(11))).toBeUndefined();
  });
});

describe('releaseLock', () => {
  it('deletes the ref while it points at our lock commit, and only then', async () => {
    startRun('1201');
    const git = checkout();
    const lock = held(await acquire(12, '1201', git));
    const from = gh.requests.length;
    expect(await releaseLock({ git, lock })).toBe(true);
    expect(restCalls(from)).toEqual([]);
    expect(origin.refSha(lockRef(12))).toBeUndefined();
    expect(await releaseLock({ git, lock })).toBe(false);

    // Free again: the next run creates it afresh.
    startRun('1202');
    const next = held(await acquire(12, '1202'));
    expect(next.tookOverFrom).toBeUndefined();
  });

  it("leaves a successor's lock alone after a takeover", async () => {
    startRun('1301');
    const git = checkout();
    const old = held(await acquire(13, '1301', git));
    gh.setRun('1301', 'completed');
    startRun('1302');
    const successor = held(await acquire(13, '1302'));
    expect(await releaseLock({ git, lock: old })).toBe(false);
    expect(origin.refSha(lockRef(13))).toBe(successor.sha);
    expect(await releaseLock({ git, lock: successor })).toBe(true);
  });
});

describe("the run's held locks", () => {
  it('releases what the run still holds when the step is stopped, so the next run takes the lock afresh', async () => {
    startRun('1401');
    const git = checkout();
    const locks = executionLocks({ git, octokit, repoRef, runId: '1401', runUrl: runUrl('1401') });
    const attempt = await locks.acquire(14, origin.mainSha);
    expect(attempt.acquired).toBe(true);
    expect(origin.refSha(lockRef(14))).toBeDefined();

    await locks.releaseHeld();
    expect(origin.refSha(lockRef(14))).toBeUndefined();
    // The run is still going: without the release, the next run would be refused.
    startRun('1402');
    const next = held(await acquire(14, '1402'));
    expect(next.tookOverFrom).toBeUndefined();
  });

  it('releases a lock whose acquisition was under way when the step was stopped, once it lands', async () => {
    startRun('1501');
    const locks = executionLocks({ git: checkout(), octokit, repoRef, runId: '1501', runUrl: runUrl('1501') });
    // The stop signal comes while the lock's push is on its way.
    const attempt = locks.acquire(15, origin.mainSha);
    await locks.releaseHeld();
    expect((await attempt).acquired).toBe(true);
    expect(origin.refSha(lockRef(15)), 'the lock outlived the stopped step').toBeUndefined();
    startRun('1502');
    expect(held(await acquire(15, '1502')).tookOverFrom).toBeUndefined();
  });
});

describe('a remote that refuses lock refs', () => {
  it("reports the refusal in git's words instead of retrying it as a lost race", async () => {
    const hook = path.join(origin.path, 'hooks', 'pre-receive');
    // Declines only this test's lock, as a ruleset or server hook protecting refs/plangate/* would.
    writeFileSync(
      hook,
      '#!/bin/sh\nwhile read old new ref; do [ "$ref" = refs/plangate/locks/9901 ] && { echo "lock refs are protected" >&2; exit 1; }; done\nexit 0\n',
    );
    chmodSync(hook, 0o755);
    try {
      startRun('7901');
      const attempt = acquire(9901, '7901');
      await expect(attempt).rejects.toThrow(/pre-receive hook declined|lock refs are protected/);
      await expect(acquire(9901, '7901')).rejects.not.toThrow(/keeps changing/);
    } finally {
      rmSync(hook, { force: true });
    }
  });
});
