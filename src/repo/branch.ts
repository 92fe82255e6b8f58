import type { Git } from './git.js';

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

/** Commits everything in the workspace; returns the new commit, or undefined when nothing changed. */
export async function commitAll(
  git: Git,
  message: string,
  author: { name: string; email: string },
): Promise<string | undefined> {
  await git(['add', '--all']);
  const changed = await git(['status', '--porcelain', '--untracked-files=no']);
  if (changed === '') return undefined;
  await git([
    '-c',
    `user.name=${author.name}`,
    '-c',
    `user.email=${author.email}`,
    'commit',
    '--quiet',
    '--no-verify',
    '-m',
    message,
  ]);
  return git(['rev-parse', 'HEAD']);
}

/**
 * Pushes HEAD to the branch on origin only if the remote branch still is where plangate left it
 * (`expected`; undefined: the branch must not exist yet).
 */
export async function pushWithLease(git: Git, branch: string, expected: string | undefined): Promise<void> {
  await git(['push', '--quiet', `--force-with-lease=refs/heads/${branch}:${expected ?? ''}`, 'origin', `HEAD:refs/heads/${branch}`]);
}

export async function headCommit(git: Git): Promise<string> {
  return git(['rev-parse', 'HEAD']);
}
