import { stageChecked, type KeptOutChange } from './change-gate.js';
import type { ApprovedScope } from '../scope/approved-scope.js';
import { GitError, type Git } from './git.js';

/**
 * The work branch's life: fetch the base, branch from the exact commit the plan was made on, commit
 * each cycle, push with a lease so a push never overwrites commits plangate did not make.
 */

/** Fetches a branch from origin and returns the commit it points at. */
export async function fetchBranch(git: Git, ref: string): Promise<string> {
  await git(['fetch', '--no-tags', '--quiet', 'origin', `+refs/heads/${ref}:refs/remotes/origin/${ref}`]);
  return git(['rev-parse', `refs/remotes/origin/${ref}^{commit}`]);
}

/** Puts the workspace at a commit without a branch, for reading only (the planner). */
export async function checkoutCommit(git: Git, sha: string): Promise<void> {
  await git(['checkout', '--quiet', '--detach', sha]);
}

/** Creates (or resets) the local work branch at a commit and checks it out. */
export async function startBranch(git: Git, branch: string, sha: string): Promise<void> {
  await git(['checkout', '--quiet', '-B', branch, sha]);
}

/**
 * Commits the workspace's changes through the commit gate (see change-gate.ts): what no one may
 * commit (protected paths, `.git` in any spelling, nested repositories) is kept out whoever wrote
 * it. Returns the new commit, or undefined when nothing was left to commit, and what was kept out.
 */
export async function commitAll(
  git: Git,
  message: string,
  author: { name: string; email: string },
  protectedPaths: readonly string[],
  scope?: Pick<ApprovedScope, 'paths'>,
): Promise<{ sha: string | undefined; keptOut: KeptOutChange[] }> {
  const keptOut = await stageChecked(git, protectedPaths, scope);
  if (!(await hasStagedChanges(git))) return { sha: undefined, keptOut };
  await git([
    '-c',
    `user.name=${author.name}`,
    '-c',
    `user.email=${author.email}`,
    'commit',
    '--quiet',
    '--no-verify',
    // The check above decided there is something to commit; git's own check would skip a
    // submodule update when the configuration ignores submodules.
    '--allow-empty',
    '-m',
    message,
  ]);
  return { sha: await git(['rev-parse', 'HEAD']), keptOut };
}

/** Whether the index differs from HEAD (or holds anything, before the first commit), submodule entries included. */
async function hasStagedChanges(git: Git): Promise<boolean> {
  try {
    await git(['diff', '--cached', '--quiet', '--ignore-submodules=none']);
    return false;
  } catch (error) {
    if (error instanceof GitError && error.exitCode === 1) return true;
    throw error;
  }
}

/**
 * Pushes HEAD to the branch on origin only if the remote branch still is where plangate left it
 * (`expected`; undefined: the branch must not exist yet).
 */
export async function pushWithLease(git: Git, branch: string, expected: string | undefined): Promise<void> {
  await git([
    'push',
    '--quiet',
    `--force-with-lease=refs/heads/${branch}:${expected ?? ''}`,
    'origin',
    `HEAD:refs/heads/${branch}`,
  ]);
}

export async function headCommit(git: Git): Promise<string> {
  return git(['rev-parse', 'HEAD']);
}
