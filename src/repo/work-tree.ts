import { execFile, execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createGit, GitError, type Git, type GitOptions } from './git.js';
import { errorMessage } from '../text/error-message.js';
import { tempFolderPrefix } from './temp-folders.js';
import { defaultPrograms, type Programs } from './programs.js';

/**
 * The work tree plangate's agents work in: a copy of the checkout in a folder of its own, with the
 * host's git (git dir and index) kept apart from it.
 *
 * Why a copy: the executor's commands run as another account (sandbox/sandbox.ts), which must be
 * able to reach and write the files, while the folders above the runner's workspace are often
 * closed to other accounts, and opening them would expose whatever else they hold (the runner's
 * command files, credentials). The copy lives in a folder of the system's temp dir closed to every
 * other account: the sandbox lets its own account through (by its group) once it is prepared, so
 * another job's commands on the same machine, under an account of their own, cannot read it.
 *
 * Why the git dir apart: git runs what its configuration says (hooks, fsmonitor, filters). The host
 * names its git dir (the checkout's own `.git`, which the sandbox account cannot write) and a
 * private index outright, so nothing a command writes into the work tree, a `.git` of its own
 * included, ever reaches the host's git.
 */
export interface WorkTree {
  /** The folder the agents and their commands work in. */
  readonly path: string;
  /** The private folder holding {@link path} and the host's index; only the action may enter it until the sandbox opens it to its account. */
  readonly enclosure: string;
  /** The host's git on this work tree: branch, commit, push, fetch. */
  readonly git: Git;
  /** The same repository for the agents' read tools (untrimmed output, time limit, no locks). */
  readonly reader: Git;
  /** Removes the copy. Never throws. */
  close(): Promise<void>;
  /**
   * Removes the copy at once, blocking: for a step being stopped, where nothing of the run may
   * commit a half-removed tree between the removal and the exit. Never throws.
   */
  discard(): void;
  /**
   * A second work tree for one plan step that runs beside others: a copy of this one (untracked
   * files such as installed dependencies too) in a folder of the same enclosure, closed to every
   * account (0700) until the sandbox lends it, with an index of its own describing HEAD. Made
   * afresh when `name` was used before.
   */
  fork(name: string): Promise<ForkedTree>;
}

/** A plan step's own work tree beside the main one (see WorkTree.fork). */
export interface ForkedTree {
  readonly path: string;
  /** The host's git on this tree: its own index, the repository's git dir (and HEAD). */
  readonly git: Git;
  /** The same for the read tools. */
  readonly reader: Git;
  /** Removes the copy and its index. Never throws. */
  close(): Promise<void>;
}

export interface WorkTreeOptions extends Pick<
  GitOptions,
  'auth' | 'env' | 'exec' | 'programs' | 'mayPush' | 'beforePush'
> {
  /** Where the copy is made. Default: the system's temp dir. */
  tmpDir?: string;
  /** The read tools' time limit per git call. */
  readTimeoutMs?: number;
}

/**
 * Copies the checkout at `workspace` (everything but `.git`: untracked files such as installed
 * dependencies too) into a fresh folder and returns git bound to it. Throws when `workspace` is no
 * git checkout, in words that say what to fix.
 */
export async function openWorkTree(workspace: string, options: WorkTreeOptions = {}): Promise<WorkTree> {
  const programs = options.programs ?? defaultPrograms();
  const inWorkspace = createGit(workspace, { ...options, programs });
  let gitDir: string;
  try {
    gitDir = await inWorkspace(['rev-parse', '--absolute-git-dir']);
  } catch (error) {
    throw new Error(
      `The workspace ${workspace} is not a git checkout (${errorMessage(error)}). Check out the repository with actions/checkout before plangate runs.`,
      { cause: error },
    );
  }
  // Named with this action's pid, so that a later run can tell a killed job's copy (sandbox/account/account-leftovers.ts).
  const root = await mkdtemp(path.join(options.tmpDir ?? os.tmpdir(), tempFolderPrefix('work')));
  try {
    // Closed to others (mkdtemp's 0700, made sure of): the sandbox opens it to its account alone.
    await chmod(root, 0o700);
    const tree = path.join(root, 'work');
    const host = path.join(root, 'host');
    await mkdir(tree, { mode: 0o755 });
    await mkdir(host, { mode: 0o700 });
    await copyCheckout(programs, workspace, tree, gitDir);
    const repository = { gitDir, workTree: tree, indexFile: path.join(host, 'index') };
    const git = createGit(tree, { ...options, programs, repository });
    // The index describes HEAD; the copied files' own changes, if any, show as changes against it.
    await git(['read-tree', 'HEAD']);
    await git(['update-index', '-q', '--refresh']).catch((error: unknown) => {
      // Exit 1 only says that some files differ from HEAD.
      if (!(error instanceof GitError && error.exitCode === 1)) throw error;
    });
    const reader = createGit(tree, {
      ...options,
      programs,
      repository,
      reader: { timeoutMs: options.readTimeoutMs ?? 120_000 },
    });
    const fork = async (name: string): Promise<ForkedTree> => {
      if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`Not a work tree name: ${name}`);
      const folder = path.join(root, name);
      const indexFile = path.join(host, `index-${name}`);
      await removeTree(programs, folder);
      await rm(indexFile, { force: true });
      await mkdir(folder, { mode: 0o700 });
      // Closed to every account while the action holds it; the sandbox's loan opens it to its own.
      await chmod(folder, 0o700);
      await copyCheckout(programs, tree, folder, gitDir);
      const own = { gitDir, workTree: folder, indexFile };
      const forkGit = createGit(folder, { ...options, programs, repository: own });
      await forkGit(['read-tree', 'HEAD']);
      await forkGit(['update-index', '-q', '--refresh']).catch((error: unknown) => {
        if (!(error instanceof GitError && error.exitCode === 1)) throw error;
      });
      return {
        path: folder,
        git: forkGit,
        reader: createGit(folder, {
          ...options,
          programs,
          repository: own,
          reader: { timeoutMs: options.readTimeoutMs ?? 120_000 },
        }),
        close: async () => {
          await removeTree(programs, folder);
          await rm(indexFile, { force: true }).catch(() => undefined);
        },
      };
    };
    return {
      path: tree,
      enclosure: root,
      git,
      reader,
      close: () => removeTree(programs, root),
      discard: () => removeTreeNow(programs, root),
      fork,
    };
  } catch (error) {
    await removeTree(programs, root);
    throw error;
  }
}

/**
 * Removes the copy with rm(1), as `cp -a` made it: fs.rm walks a tree in JavaScript, one lstat and
 * unlink promise per entry, which on a 50,000-file checkout doubled the action's peak memory and
 * took most of a second of its CPU. fs.rm stays the fallback should rm fail. Never throws.
 */
async function removeTree(programs: Programs, root: string): Promise<void> {
  const removed = await new Promise<boolean>((resolve) => {
    try {
      execFile(programs.find('rm'), ['-rf', '--', root], { env: { PATH: programs.path } }, (error) => resolve(!error));
    } catch {
      resolve(false);
    }
  });
  if (!removed) await rm(root, { recursive: true, force: true }).catch(() => undefined);
}

/** {@link removeTree}, blocking. */
function removeTreeNow(programs: Programs, root: string): void {
  try {
    execFileSync(programs.find('rm'), ['-rf', '--', root], { stdio: 'ignore', env: { PATH: programs.path } });
  } catch {
    try {
      rmSync(root, { recursive: true, force: true });
    } catch {
      // Left in the temp dir; the runner's cleanup or the next boot takes it.
    }
  }
}

/** `cp -a` of every top-level entry but the git dir: modes, links and times kept, owned by the action. */
async function copyCheckout(programs: Programs, workspace: string, tree: string, gitDir: string): Promise<void> {
  const entries = (await readdir(workspace)).filter(
    (entry) => entry !== '.git' && path.join(workspace, entry) !== gitDir,
  );
  if (entries.length === 0) return;
  await new Promise<void>((resolve, reject) => {
    // --no-preserve=ownership: the copy belongs to the action whoever owned the checkout's files.
    execFile(
      programs.find('cp'),
      ['-a', '--no-preserve=ownership', '-t', tree, '--', ...entries],
      { cwd: workspace, env: { PATH: programs.path }, maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (error)
          reject(new Error(`Cannot copy the checkout into plangate's work tree: ${stderr.trim() || error.message}`));
        else resolve();
      },
    );
  });
}
