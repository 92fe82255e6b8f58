import * as core from '@actions/core';
import { GitError, type Git } from '../repo/git.js';
import { commitAll, fetchBranch, pushWithLease, startBranch } from '../repo/branch.js';
import type { KeptOutChange } from '../repo/change-gate.js';
import type { ApprovedScope } from '../scope/approved-scope.js';
import { withTrailers } from '../render/commit-trailers.js';
import { maskedText } from '../repo/credential-mask.js';
import { errorMessage } from '../text/error-message.js';

/**
 * The work branch as an execution sees it: started fresh from the plan's base commit or resumed
 * from what an earlier attempt pushed, committed and pushed after every cycle with a lease, and
 * never forced over somebody else's commits.
 */
export interface WorkBranch {
  /** The last commit plangate pushed; undefined while nothing is pushed. */
  readonly pushed: string | undefined;
  /**
   * Commits the workspace through the commit gate and pushes it. Returns whether a new commit went
   * out, and the changes the gate kept out of it (reverted or left uncommitted in the workspace).
   */
  checkpoint(message: string): Promise<{ pushed: boolean; keptOut: KeptOutChange[] }>;
  /**
   * Pushes an empty commit that starts the branch, so its pull request can be opened before any
   * work: GitHub opens none for a head without a commit of its own. Nothing when something is
   * pushed already. The workspace and the index are left as they are.
   */
  start(message: string): Promise<void>;
  /**
   * Deletes the branch from origin, only while it is where plangate left it: for a run that ended
   * with nothing to land. Afterwards nothing is pushed.
   */
  discard(): Promise<void>;
  /**
   * Merges `commit` (a plan step's work, made from an earlier commit of the branch) into the branch
   * and the workspace with a merge commit, without pushing. False when the two change the same
   * lines: then nothing changes, so a merge never leaves conflict markers anywhere.
   */
  merge(commit: string, message: string): Promise<boolean>;
  /** Pushes what was committed and not pushed yet (merges), with the lease. */
  push(): Promise<void>;
}

/** Someone else pushed to the work branch: plangate stops and keeps their commits. */
export class ForeignPushError extends Error {
  override name = 'ForeignPushError';
  constructor(
    readonly branch: string,
    readonly authors: string[],
    /** Where plangate's own unpushed commit went instead, if it had one. */
    readonly rescue?: string,
  ) {
    super(
      `${authors.join(', ') || 'someone else'} pushed to ${branch}; plangate stopped and kept those commits` +
        (rescue ? `. Its own latest work is on ${rescue}.` : '.'),
    );
  }
}

/**
 * The work branch is not where plangate left it (a commit its signed checkpoint names, or the plan's
 * base commit before anything was pushed): someone pushed or made it. Adopting it would land
 * commits nobody approved under the approval, whoever they claim to be by, so the run refuses.
 */
export class UnadoptedBranchError extends Error {
  override name = 'UnadoptedBranchError';
  constructor(
    readonly branch: string,
    readonly tip: string,
    readonly expected: string,
    /** Whether `expected` came from a checkpoint (else it is the plan's base commit). */
    readonly checkpointed: boolean,
  ) {
    super(
      `the work branch \`${branch}\` is at ${tip.slice(0, 7)}, but ${
        checkpointed
          ? `plangate's checkpoint says it left it at ${expected.slice(0, 7)}`
          : `plangate has pushed nothing to it yet (the plan starts from ${expected.slice(0, 7)})`
      }: plangate continues only on a branch it left itself.`,
    );
  }

  /** What a maintainer can do about it. */
  get fix(): string {
    return `Look at \`${this.branch}\` and keep what you need from it, then delete the branch and comment \`/approve\` again; or ask for a new plan with \`/plan\`, which works on a branch of its own.`;
  }
}

/** The token may not push: the workflow lacks `contents: write`. */
export class PushDeniedError extends Error {
  override name = 'PushDeniedError';
}

export interface WorkBranchOptions {
  branch: string;
  baseSha: string;
  /** The bot's commit author, to tell its commits from anyone else's. */
  author: { name: string; email: string };
  /**
   * What the last (signed) checkpoint says plangate pushed; undefined on a fresh start. An existing
   * branch is adopted only at exactly this commit (or, without it, at `baseSha`).
   */
  checkpointed?: string;
  /** Trailer lines added to every commit's message, so none of plangate's commits goes without them. */
  trailers?: readonly string[];
  /** Paths no commit may change, whoever changed them in the workspace (`protected-paths`). */
  protectedPaths: readonly string[];
  /** The approved scope: changes to paths it does not name are held back, not committed. */
  scope?: Pick<ApprovedScope, 'paths'>;
}

export async function openWorkBranch(git: Git, options: WorkBranchOptions): Promise<WorkBranch> {
  const { branch, author } = options;
  const remote = await fetchBranch(git, branch).catch(() => undefined);
  let pushed: string | undefined;
  if (remote) {
    // A branch from an earlier attempt: resumed only where the evidence says plangate left it. A
    // commit's author proves nothing (anyone can write the bot's address into one).
    const expected = options.checkpointed ?? options.baseSha;
    // Before any checkpoint names a push, the branch may hold the start commit alone (an attempt
    // that stopped right after pushing it): it changes nothing, so it is adopted.
    const started = options.checkpointed === undefined && (await isEmptyCommitOn(git, remote, expected));
    if (remote !== expected && !started)
      throw new UnadoptedBranchError(branch, remote, expected, options.checkpointed !== undefined);
    core.info(`Resuming on ${branch} at ${remote.slice(0, 7)}.`);
    await startBranch(git, branch, remote);
    pushed = remote;
  } else {
    await startBranch(git, branch, options.baseSha);
  }
  /** Pushes HEAD (`sha`) over what plangate pushed last, with the lease; a refusal is explained. */
  const pushHead = async (sha: string): Promise<void> => {
    try {
      await pushWithLease(git, branch, pushed);
    } catch (error) {
      throw await explainPushFailure(git, branch, pushed, sha, author.email, error);
    }
    pushed = sha;
  };
  return {
    get pushed() {
      return pushed;
    },
    async checkpoint(message) {
      const { sha, keptOut } = await commitAll(
        git,
        await commitMessage(message, options.trailers ?? []),
        author,
        options.protectedPaths,
        options.scope,
      );
      if (!sha) return { pushed: false, keptOut };
      await pushHead(sha);
      return { pushed: true, keptOut };
    },
    async start(message) {
      if (pushed !== undefined) return;
      const parent = await git(['rev-parse', 'HEAD']);
      const tree = await git(['rev-parse', 'HEAD^{tree}']);
      const sha = await git([
        '-c',
        `user.name=${author.name}`,
        '-c',
        `user.email=${author.email}`,
        'commit-tree',
        tree,
        '-p',
        parent,
        '-m',
        await commitMessage(message, options.trailers ?? []),
      ]);
      await git(['update-ref', `refs/heads/${branch}`, sha, parent]);
      // Nothing is pushed yet (checked above), so the lease expects no branch.
      await pushHead(sha);
    },
    merge: async (commit, message) =>
      mergeCommit(git, commit, await commitMessage(message, options.trailers ?? []), author),
    async push() {
      const head = await git(['rev-parse', 'HEAD']);
      if (head !== pushed) await pushHead(head);
    },
    async discard() {
      if (pushed === undefined) return;
      await git([
        'push',
        '--quiet',
        `--force-with-lease=refs/heads/${branch}:${pushed}`,
        'origin',
        `:refs/heads/${branch}`,
      ]);
      pushed = undefined;
    },
  };
}

/**
 * A commit message as it is pushed: the trailers added, and every credential the scan finds masked
 * (a message carries a directive's words, which a model wrote).
 */
export async function commitMessage(message: string, trailers: readonly string[]): Promise<string> {
  return maskedText(withTrailers(message, trailers));
}

/** Whether `tip` is one commit on `base` that changes nothing: the shape of the start commit. */
async function isEmptyCommitOn(git: Git, tip: string, base: string): Promise<boolean> {
  try {
    const [parents, tipTree, baseTree] = await Promise.all([
      git(['rev-parse', `${tip}^@`]),
      git(['rev-parse', `${tip}^{tree}`]),
      git(['rev-parse', `${base}^{tree}`]),
    ]);
    return parents === base && tipTree === baseTree;
  } catch {
    return false;
  }
}

/** Authors (name <email>) of commits in from..to that are not plangate's. */
async function foreignAuthors(git: Git, from: string, to: string, botEmail: string): Promise<string[]> {
  const log = await git(['log', '--format=%an <%ae>', `${from}..${to}`]);
  const authors = log.split('\n').filter((line) => line && !line.endsWith(`<${botEmail}>`));
  return [...new Set(authors)];
}

async function explainPushFailure(
  git: Git,
  branch: string,
  expected: string | undefined,
  local: string,
  botEmail: string,
  error: unknown,
): Promise<Error> {
  const text = errorMessage(error);
  if (/\b403\b|permission to .* denied|not allowed to push|write access .* not granted/i.test(text)) {
    return new PushDeniedError(
      `plangate could not push ${branch}: the token may not write to this repository. Give the job \`permissions: contents: write\`.`,
    );
  }
  const remote = await fetchBranch(git, branch).catch(() => undefined);
  if (remote && remote !== expected) {
    const authors = await foreignAuthors(git, expected ?? remote, remote, botEmail).catch(() => []);
    // Paid work is never thrown away: the commit that could not go on the branch goes beside it.
    const rescue = `${branch}-rescue-${local.slice(0, 7)}`;
    const saved = await pushWithLease(git, rescue, undefined).then(
      () => rescue,
      () => undefined,
    );
    return new ForeignPushError(branch, authors, saved);
  }
  return error instanceof GitError ? error : new Error(text);
}

/**
 * Merges `commit` into HEAD with a merge commit, the workspace and index following; false (and
 * nothing changed) when the two conflict. The merge is computed apart from any work tree, so a
 * conflict touches neither the index nor a file.
 */
async function mergeCommit(
  git: Git,
  commit: string,
  message: string,
  author: { name: string; email: string },
): Promise<boolean> {
  const ours = await git(['rev-parse', 'HEAD']);
  let tree: string;
  try {
    tree = (await git(['merge-tree', '--write-tree', '--no-messages', ours, commit])).split('\n')[0] ?? '';
  } catch (error) {
    if (error instanceof GitError && error.exitCode === 1) return false;
    throw error;
  }
  const sha = await git([
    '-c',
    `user.name=${author.name}`,
    '-c',
    `user.email=${author.email}`,
    'commit-tree',
    tree,
    '-p',
    ours,
    '-p',
    commit,
    '-m',
    message,
  ]);
  await git(['read-tree', '-m', '-u', ours, sha]);
  await git(['update-ref', 'HEAD', sha, ours]);
  return true;
}
