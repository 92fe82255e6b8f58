import { z } from 'zod';
import type { Git } from '../repo/git.js';
import type { GitHubClient } from './client.js';
import { explainGitHubError, statusOf } from './errors.js';
import type { RepoRef } from './thread-api.js';
import { errorMessage } from '../text/error-message.js';

/**
 * The execution lock: at most one run executes a plan per issue at a time. Two `/approve` comments
 * a second apart start two workflow runs that both find the plan approvable; without the lock both
 * would push to the same branch and open the same pull request.
 *
 * The lock is the ref `refs/plangate/locks/<issue>` on origin, written over git rather than the REST
 * API: a push with a lease is git's compare-and-swap, checked by the server under its ref lock. An
 * empty lease creates the ref only if it is absent; a sha lease moves or deletes it only while it
 * still points there. The ref points at a lock commit, made locally on git's empty tree, whose
 * message names the holder run ("plangate lock: run <id> <url>"), so the holder is bound to the lock
 * in the same atomic step and anyone who finds the lock taken can ask the Actions API whether that
 * run is still going, and take over a lock a crashed or killed run left. An uncontended lock costs
 * no REST call at all: the run talks git to origin anyway, and git traffic is not REST traffic.
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
  /** Git in the run's workspace, whose `origin` is the repository; it pushes and reads the lock ref. */
  git: Git;
  /** Only for the Actions API, asked about a holder when the lock is taken. */
  octokit: GitHubClient;
  repoRef: RepoRef;
  issue: number;
  /** GITHUB_RUN_ID of this run; a re-run attempt keeps it, and so keeps the lock. */
  runId: string;
  /** This run's page, named in the lock so a refused run can link to the holder. */
  runUrl: string;
}

const lockRequestShape = z.object({
  issue: z.number().int().positive(),
  runId: z.string().regex(/^\d+$/, 'a GitHub Actions run id (GITHUB_RUN_ID) is required to take the execution lock'),
  runUrl: z.string(),
});

/** Enough rounds for create, a lost race and a takeover; more means something is fighting us. */
const MAX_ROUNDS = 6;

const LOCK_MESSAGE = /^plangate lock: run (\d+)(?: (\S+))?/;

/** Git's empty tree: every git knows it without storing it, so a lock commit needs nothing from the checkout. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Who lock commits are made by; they carry no work, so no person's name belongs on them. */
const LOCK_AUTHOR = ['-c', 'user.name=plangate', '-c', 'user.email=plangate@users.noreply.github.com'];

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

/**
 * Takes the execution lock for an issue, or names the run that holds it.
 *
 * 1. Push a fresh lock commit to the ref with an empty lease: accepted means nobody held it, and we do now.
 * 2. Rejected: the ref exists; read the commit it points at and the run its message names.
 *    - Our own run id (a re-run attempt of this run): the lock is already ours.
 *    - A run GitHub reports as not completed: refused, with that run as holder.
 *    - A completed run, a run GitHub no longer knows (404), or a commit that names no run: the
 *      lock is stale. Take it over with a push leased on the stale commit, of a new lock commit
 *      whose parent is the stale one; if another run took it first, the lease fails and the next
 *      round reports that run as holder.
 * 3. If the ref vanished in between (released), start again from 1.
 */
export async function acquireLock(request: LockRequest): Promise<LockAttempt> {
  const { issue, runId, runUrl } = lockRequestShape.parse(request);
  const { git, octokit, repoRef } = request;
  const ref = lockRefName(issue);
  const ours = (sha: string, tookOverFrom?: { runId: string; runUrl: string }): LockAttempt => ({
    acquired: true,
    lock: { issue, ref, sha, runId, ...(tookOverFrom ? { tookOverFrom } : {}) },
  });
  /** A push whose answer was lost may still have landed: the ref then points at what we sent. */
  const settle = async (sha: string, expected: string): Promise<boolean> => {
    const outcome = await pushWithLease(git, ref, sha, expected);
    if (outcome === 'accepted') return true;
    if (outcome === 'rejected') return false;
    // If origin cannot even be read, the push's own failure is the one to report.
    if ((await remoteRef(git, ref).catch(() => 'unknown')) === sha) return true;
    throw outcome;
  };

  // One parentless lock commit serves every create attempt; takeovers need one with a parent.
  let fresh: string | undefined;
  let step: 'create' | 'inspect' = 'create';
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (step === 'create') {
      fresh ??= await lockCommit(git, runId, runUrl, []);
      if (await settle(fresh, '')) return ours(fresh);
      step = 'inspect';
      continue;
    }

    const current = await remoteRef(git, ref);
    if (current === undefined) {
      step = 'create';
      continue;
    }
    const named = await readHolder(git, ref, current);
    // The ref moved between reading it and fetching it: look again.
    if (named === 'moved') continue;
    if (named?.runId === runId) return ours(current);
    if (named) {
      const status = await runStatus(octokit, repoRef, named.runId);
      if (status.live)
        return {
          acquired: false,
          holder: { ...named, status: status.status, ...(status.problem ? { problem: status.problem } : {}) },
        };
    }
    const successor = await lockCommit(git, runId, runUrl, [current]);
    // Leased on the stale commit we read, so of two runs taking over, one wins.
    if (await settle(successor, current)) return ours(successor, named);
  }
  throw new Error(
    `could not settle the execution lock ${ref} in ${MAX_ROUNDS} rounds; another process keeps changing it`,
  );
}

/**
 * Releases the lock by deleting the ref, leased on our lock commit: a run that outlived a takeover
 * cannot remove its successor's lock, and the check and the delete are one step on the server.
 * Answers whether the ref was deleted.
 */
export async function releaseLock(input: { git: Git; lock: ExecutionLock }): Promise<boolean> {
  const { git, lock } = input;
  const outcome = await pushWithLease(git, lock.ref, '', lock.sha);
  if (outcome === 'accepted') return true;
  if (outcome === 'rejected') return false;
  // A lost answer after the server deleted it is still a release.
  if ((await remoteRef(git, lock.ref).catch(() => 'unknown')) === undefined) return true;
  throw outcome;
}

async function lockCommit(git: Git, runId: string, runUrl: string, parents: string[]): Promise<string> {
  return git([
    ...LOCK_AUTHOR,
    'commit-tree',
    '--no-gpg-sign',
    EMPTY_TREE,
    ...parents.flatMap((p) => ['-p', p]),
    '-m',
    lockMessage(runId, runUrl),
  ]);
}

/**
 * Pushes `sha` to `ref` (an empty `sha` deletes it) only if origin's ref is `expected` (empty:
 * absent). `rejected` is the lease failing, i.e. someone else's write; any other failure is returned
 * for the caller to judge, since its push may have landed before the answer was lost.
 */
async function pushWithLease(
  git: Git,
  ref: string,
  sha: string,
  expected: string,
): Promise<'accepted' | 'rejected' | Error> {
  try {
    await git(['push', '--quiet', `--force-with-lease=${ref}:${expected}`, 'origin', `${sha}:${ref}`]);
    return 'accepted';
  } catch (error) {
    const text = errorMessage(error);
    // Client side "[rejected] (stale info)"; server side "[remote rejected]" when the ref changed
    // after the advertisement. Any other remote refusal (a hook, a ruleset) is no lost race: it
    // would refuse every round, so it goes back as the error it is, in git's own words.
    if (/\[rejected\]/.test(text)) return 'rejected';
    if (/\[remote rejected\].*\((?:stale info|failed to update ref|cannot lock ref|incorrect old value)/.test(text))
      return 'rejected';
    return error instanceof Error ? error : new Error(text);
  }
}

/** The sha origin's ref points at, or undefined when it does not exist. */
async function remoteRef(git: Git, ref: string): Promise<string | undefined> {
  const out = await git(['ls-remote', 'origin', ref]);
  // ls-remote matches patterns by their tail; only the exact name counts.
  for (const line of out.split('\n')) {
    const [sha, name] = line.split('\t');
    if (name === ref && sha) return sha;
  }
  return undefined;
}

/** The run the lock commit at `sha` names; `moved` when the ref no longer leads to that commit. */
async function readHolder(
  git: Git,
  ref: string,
  sha: string,
): Promise<{ runId: string; runUrl: string } | undefined | 'moved'> {
  // No FETCH_HEAD: another run in the same checkout may be fetching too.
  await git(['fetch', '--no-tags', '--quiet', '--no-write-fetch-head', 'origin', ref]);
  const present = await git(['cat-file', '-e', `${sha}^{commit}`]).then(
    () => true,
    () => false,
  );
  if (!present) return 'moved';
  return parseLockMessage(await git(['log', '-1', '--format=%B', sha]));
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
