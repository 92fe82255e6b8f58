import { z } from 'zod';
import type { GitHubClient } from './client.js';
import { explainGitHubError, statusOf } from './errors.js';
import type { RepoRef } from './thread.js';

/**
 * The execution lock: at most one run executes a plan per issue at a time. Two `/approve` comments
 * a second apart start two workflow runs that both find the plan approvable; without the lock both
 * would push to the same branch and open the same pull request.
 *
 * The lock is the ref `refs/plangate/locks/<issue>` in the repository itself, because creating a ref
 * is GitHub's one atomic create-if-absent (a second create answers 422), and a fast-forward-only
 * update is its one compare-and-swap. The ref points at a lock commit whose message names the
 * holder run ("plangate lock: run <id> <url>"), so anyone who finds the lock taken can ask the
 * Actions API whether that run is still going, and take over a lock a crashed or killed run left.
 * The commit reuses the base commit's tree: a commit needs a tree that exists, and that one does.
 */

export interface LockHolder {
  runId: string;
  runUrl: string;
  /**
   * The holder run's status as GitHub reported it (`queued`, `in_progress`, `waiting`, ...), or
   * `unknown` when it could not be read: then the lock is left alone, since taking it from a live
   * run is worse than refusing.
   */
  status: string;
  /** Why the status is unknown, naming what to fix (usually the workflow's `actions: read`). */
  problem?: string;
}

export interface ExecutionLock {
  issue: number;
  /** The full ref name, `refs/plangate/locks/<issue>`. */
  ref: string;
  /** The lock commit the ref points at while we hold it; release only deletes the ref if it still does. */
  sha: string;
  runId: string;
  /** Set when the lock was taken over from a finished (or unknown) run that had not released it. */
  tookOverFrom?: { runId: string; runUrl: string };
}

export type LockAttempt = { acquired: true; lock: ExecutionLock } | { acquired: false; holder: LockHolder };

export interface LockRequest {
  octokit: GitHubClient;
  repoRef: RepoRef;
  issue: number;
  /** GITHUB_RUN_ID of this run; a re-run attempt keeps it, and so keeps the lock. */
  runId: string;
  /** This run's page, named in the lock so a refused run can link to the holder. */
  runUrl: string;
  /** The commit execution starts from; its tree becomes the lock commit's tree. */
  baseSha: string;
}

const lockRequestShape = z.object({
  issue: z.number().int().positive(),
  runId: z.string().regex(/^\d+$/, 'a GitHub Actions run id (GITHUB_RUN_ID) is required to take the execution lock'),
  runUrl: z.string(),
  baseSha: z.string().regex(/^[0-9a-f]{40}$/i, 'the base commit must be a full sha'),
});

/** Enough rounds for create, a lost race and a takeover; more means something is fighting us. */
const MAX_ROUNDS = 6;

const LOCK_MESSAGE = /^plangate lock: run (\d+)(?: (\S+))?/;

export function lockRefName(issue: number): string {
  return `refs/plangate/locks/${issue}`;
}

/** The lock commit's message; the only place the holder is recorded. */
export function lockMessage(runId: string, runUrl: string): string {
  return `plangate lock: run ${runId} ${runUrl}`.trimEnd();
}

/** The run a lock commit names, or undefined for a commit that is no plangate lock. */
export function parseLockMessage(message: string): { runId: string; runUrl: string } | undefined {
  const match = LOCK_MESSAGE.exec(message);
  if (!match?.[1]) return undefined;
  return { runId: match[1], runUrl: match[2] ?? '' };
}

/** GitHub's 422 for a ref that exists (create) or moved on (non-fast-forward update, deleted ref). */
function isUnprocessable(error: unknown): boolean {
  return statusOf(error) === 422;
}

/**
 * Takes the execution lock for an issue, or names the run that holds it.
 *
 * 1. Create the ref at a fresh lock commit: 201 means nobody held it, and we do now.
 * 2. On 422 the ref exists; read the commit it points at and the run its message names.
 *    - Our own run id (a re-run attempt of this run): the lock is already ours.
 *    - A run GitHub reports as not completed: refused, with that run as holder.
 *    - A completed run, a run GitHub no longer knows (404), or a commit that names no run: the
 *      lock is stale. Take it over with a fast-forward update to a new lock commit whose parent is
 *      the stale one; if another run took it first, the update is no fast-forward (422) and the
 *      next round reports that run as holder.
 * 3. If the ref vanished in between (released), start again from 1.
 */
export async function acquireLock(request: LockRequest): Promise<LockAttempt> {
  const { issue, runId, runUrl, baseSha } = lockRequestShape.parse(request);
  const { octokit, repoRef } = request;
  const { owner, repo } = repoRef;
  const ref = lockRefName(issue);
  const apiRef = ref.slice('refs/'.length);

  const { data: base } = await octokit.rest.git.getCommit({ owner, repo, commit_sha: baseSha });
  const newLockCommit = async (parents: string[]) => {
    const { data } = await octokit.rest.git.createCommit({ owner, repo, message: lockMessage(runId, runUrl), tree: base.tree.sha, parents });
    return data.sha;
  };
  const ours = (sha: string, tookOverFrom?: { runId: string; runUrl: string }): LockAttempt => ({
    acquired: true,
    lock: { issue, ref, sha, runId, ...(tookOverFrom ? { tookOverFrom } : {}) },
  });

  // One parentless lock commit serves every create attempt; takeovers need one with a parent.
  let fresh: string | undefined;
  let step: 'create' | 'inspect' = 'create';
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (step === 'create') {
      fresh ??= await newLockCommit([]);
      try {
        await octokit.rest.git.createRef({ owner, repo, ref, sha: fresh });
        return ours(fresh);
      } catch (error) {
        if (!isUnprocessable(error)) throw error;
        step = 'inspect';
        continue;
      }
    }

    const current = await readRef(octokit, repoRef, apiRef);
    if (current === undefined) {
      step = 'create';
      continue;
    }
    const named = await readHolder(octokit, repoRef, current);
    if (named?.runId === runId) return ours(current);
    if (named) {
      const status = await runStatus(octokit, repoRef, named.runId);
      if (status.live) return { acquired: false, holder: { ...named, status: status.status, ...(status.problem ? { problem: status.problem } : {}) } };
    }
    const successor = await newLockCommit([current]);
    try {
      // Not forced: only a fast-forward from the stale commit we read succeeds, so of two runs taking over, one wins.
      await octokit.rest.git.updateRef({ owner, repo, ref: apiRef, sha: successor, force: false });
      return ours(successor, named);
    } catch (error) {
      // Someone moved or deleted the ref since we read it: look again.
      if (!isUnprocessable(error)) throw error;
    }
  }
  throw new Error(`could not settle the execution lock ${ref} in ${MAX_ROUNDS} rounds; another process keeps changing it`);
}

async function readRef(octokit: GitHubClient, { owner, repo }: RepoRef, apiRef: string): Promise<string | undefined> {
  try {
    const { data } = await octokit.rest.git.getRef({ owner, repo, ref: apiRef });
    return data.object.sha;
  } catch (error) {
    if (statusOf(error) === 404) return undefined;
    throw error;
  }
}

async function readHolder(octokit: GitHubClient, { owner, repo }: RepoRef, sha: string): Promise<{ runId: string; runUrl: string } | undefined> {
  const { data } = await octokit.rest.git.getCommit({ owner, repo, commit_sha: sha });
  return parseLockMessage(data.message);
}

/** Whether the holder run may still be going; anything but a clear "finished" or "gone" counts as live. */
async function runStatus(
  octokit: GitHubClient,
  { owner, repo }: RepoRef,
  runId: string,
): Promise<{ live: boolean; status: string; problem?: string }> {
  try {
    const { data } = await octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: Number(runId) });
    const status = data.status ?? 'unknown';
    return { live: status !== 'completed', status };
  } catch (error) {
    if (statusOf(error) === 404) return { live: false, status: 'not found' };
    return { live: true, status: 'unknown', problem: explainGitHubError(error).message };
  }
}

/**
 * Releases the lock by deleting the ref, but only while it still points at our lock commit: a run
 * that outlived a takeover must not remove its successor's lock. GitHub has no conditional delete,
 * so there is a window between the read and the delete; nobody takes over a lock whose run is
 * still in progress, which is what we are while releasing. Answers whether the ref was deleted.
 */
export async function releaseLock(input: { octokit: GitHubClient; repoRef: RepoRef; lock: ExecutionLock }): Promise<boolean> {
  const { octokit, repoRef, lock } = input;
  const apiRef = lock.ref.slice('refs/'.length);
  const current = await readRef(octokit, repoRef, apiRef);
  if (current !== lock.sha) return false;
  try {
    await octokit.rest.git.deleteRef({ owner: repoRef.owner, repo: repoRef.repo, ref: apiRef });
    return true;
  } catch (error) {
    // Already gone: released by a retry of this very request, which is what we wanted.
    if (isUnprocessable(error)) return false;
    throw error;
  }
}
