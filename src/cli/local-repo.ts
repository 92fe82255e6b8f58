import { userInfo } from 'node:os';
import { createGit, type Git } from '../repo/git.js';
import { CliError } from './cli-error.js';

/**
 * The checkout the CLI works in, through the same hardened git runner the action uses (no hooks,
 * no fsmonitor, an allow-listed environment). It never talks to a remote: the CLI has no token and
 * never pushes.
 */
export interface LocalRepo {
  /** The work tree's top level: the agents' workspace. */
  root: string;
  /** This checkout's .git directory, where plans are kept out of the work tree. */
  gitDir: string;
  git: Git;
}

export async function openLocalRepo(cwd: string): Promise<LocalRepo> {
  const here = createGit(cwd);
  let root: string;
  try {
    root = await here(['rev-parse', '--show-toplevel']);
  } catch {
    throw new CliError(`${cwd} is not inside a git work tree: run plangate in a checkout of your repository.`);
  }
  if (root === '')
    throw new CliError(`${cwd} is not inside a git work tree: run plangate in a checkout of your repository.`);
  const git = createGit(root);
  const gitDir = await git(['rev-parse', '--absolute-git-dir']);
  return { root, gitDir, git };
}

/**
 * Refuses a work tree with changes or untracked files: the plan is bound to a commit, and each cycle
 * commits everything in the work tree, which must never sweep up the user's own work.
 */
export async function requireCleanTree(git: Git, doing: string): Promise<void> {
  const status = await git(['status', '--porcelain', '--untracked-files=normal']);
  if (status === '') return;
  const count = status.split('\n').length;
  throw new CliError(
    `the work tree has ${count} uncommitted ${count === 1 ? 'change' : 'changes'}; commit or stash them (git stash --include-untracked) before ${doing}.`,
  );
}

/** Where the checkout stands: its branch (or HEAD when detached) and commit. */
export async function currentHead(git: Git): Promise<{ ref: string; sha: string }> {
  let sha: string;
  try {
    sha = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  } catch {
    throw new CliError('the repository has no commit yet: commit something for the planner to study first.');
  }
  const ref = await git(['symbolic-ref', '--quiet', '--short', 'HEAD']).catch(() => 'HEAD');
  return { ref: ref || 'HEAD', sha };
}

export async function branchExists(git: Git, branch: string): Promise<boolean> {
  return git(['show-ref', '--verify', '--quiet', `refs/heads/${branch}`]).then(
    () => true,
    () => false,
  );
}

/** Uses git's own rules for a branch name, so any prefix git accepts works and no other does. */
export async function checkBranchName(git: Git, branch: string): Promise<void> {
  await git(['check-ref-format', '--branch', branch]).catch(() => {
    throw new CliError(`"${branch}" is not a valid branch name; choose another --branch-prefix.`);
  });
}

export async function hasCommit(git: Git, sha: string): Promise<boolean> {
  return git(['cat-file', '-e', `${sha}^{commit}`]).then(
    () => true,
    () => false,
  );
}

/**
 * Who the user is, as git would commit: user.name and user.email (or git's own guess). The CLI's
 * commits are the user's, on the user's branch; undefined when git does not know.
 */
export async function gitIdentity(git: Git): Promise<{ name: string; email: string } | undefined> {
  const ident = await git(['var', 'GIT_AUTHOR_IDENT']).catch(() => '');
  const match = /^(.*?) <([^>]*)>/.exec(ident);
  if (!match?.[1] || !match[2]) return undefined;
  return { name: match[1], email: match[2] };
}

/** A name for the record when git has none: the plan is still the user's. */
export function localUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'local user';
  }
}
