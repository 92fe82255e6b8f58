import { execFile } from 'node:child_process';
import { redact } from '../text/redact.js';
import { authSecrets, gitAuthConfig, type GitAuth } from './git-auth.js';
import { gitEnvironment, HARDENING, type GitConfigEntry } from './git-env.js';
import { defaultPrograms, type Programs } from './programs.js';

/**
 * Git as the host uses it: the work branch, commits after every cycle, pushes to origin. Runs git
 * without a shell, with the arguments as given, and reports failures with git's own words (the
 * token redacted).
 */
export type Git = (args: string[]) => Promise<string>;

export class GitError extends Error {
  override name = 'GitError';

  constructor(
    message: string,
    /** git's exit code; null when git did not start or was killed. */
    readonly exitCode: number | null = null,
    /** What git wrote to stderr (secrets redacted), for callers that tell failures apart by it. */
    readonly stderr = '',
  ) {
    super(message);
  }
}

/** What one git process produced; `error` is set when it failed. */
export interface GitProcessResult {
  error: (Error & { code?: number | string | null }) | null;
  stdout: string;
  stderr: string;
}

/** How one git process is started: where, with what environment, and its limits. */
export interface GitExecOptions {
  /** git's absolute path (programs.ts): never a bare name looked up from the folder git works in. */
  program: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Kill git after this long; undefined: no limit. */
  timeoutMs?: number;
}

/** Starts one git process. The default is {@link execGit}; tests wrap it to watch argv and environment. */
export type GitExec = (args: readonly string[], options: GitExecOptions) => Promise<GitProcessResult>;

/**
 * Which repository git works on, named outright rather than discovered from the folder: a `.git`
 * that a command put (or replaced) in the work tree is then never consulted.
 */
export interface GitRepository {
  gitDir: string;
  workTree: string;
  /** The index; default: the git dir's own. */
  indexFile?: string;
}

export interface GitOptions {
  /** Token for fetch and push. Without it, network commands go out unauthenticated. */
  auth?: GitAuth;
  /** The environment git's allow-list is taken from. Default: this process's. */
  env?: NodeJS.ProcessEnv;
  exec?: GitExec;
  /** Where git is found. Default: this process's PATH's absolute entries. */
  programs?: Programs;
  repository?: GitRepository;
  /**
   * For the agents' read tools: stdout as git wrote it (not trimmed), a time limit, and no optional
   * locks, so a listing never takes index.lock from under a commit.
   */
  reader?: { timeoutMs: number };
  /** Asked before every push to a branch; when it says no (the job is being stopped), nothing is pushed. */
  mayPush?: () => boolean;
  /**
   * Awaited before every `push`, with this git and the command line; a throw stops the push. The
   * push gate (push-gate.ts) sits here, so no way of pushing goes around it.
   */
  beforePush?: (git: Git, args: readonly string[]) => Promise<void>;
}

/** Subcommands that talk to a remote and so get the token; everything else runs without it. */
const NETWORK = new Set(['fetch', 'push', 'pull', 'ls-remote', 'clone', 'remote', 'submodule']);

/**
 * Options given before the subcommand that take a separate value (`git -c k=v commit`). Only these
 * are skipped when looking for the subcommand; an unknown one ends the search, so the token is
 * withheld rather than guessed.
 */
const VALUED = new Set(['-c', '-C', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

/** Runs git without a shell; failures are returned, not thrown, so createGit words them (redacted). */
export function execGit(args: readonly string[], options: GitExecOptions): Promise<GitProcessResult> {
  return new Promise((resolve) => {
    const limits = {
      maxBuffer: 256 * 1024 * 1024,
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    };
    execFile(options.program, [...args], { cwd: options.cwd, env: options.env, ...limits }, (error, stdout, stderr) => {
      resolve({ error, stdout, stderr });
    });
  });
}

/**
 * Git in `cwd` (or on `options.repository`). With `auth`, network commands authenticate through
 * their environment (see git-auth.ts); local ones never see the token. Every command runs with an
 * allow-listed environment and with what a repository could make git run switched off (see
 * git-env.ts).
 */
export function createGit(cwd: string, options: GitOptions = {}): Git {
  const exec = options.exec ?? execGit;
  // Found now, once: a missing git fails where the run is set up, naming the PATH searched.
  const programs = options.programs ?? defaultPrograms();
  const program = programs.find('git');
  const secrets = options.auth ? authSecrets(options.auth.token) : [];
  const auth: GitConfigEntry[] = options.auth
    ? [
        // Helpers from local config are not needed with the header, and one a command wrote would
        // run with the token in its environment.
        { key: 'credential.helper', value: '' },
        ...gitAuthConfig(options.auth),
      ]
    : [];
  const repository: NodeJS.ProcessEnv = options.repository
    ? {
        GIT_DIR: options.repository.gitDir,
        GIT_WORK_TREE: options.repository.workTree,
        ...(options.repository.indexFile ? { GIT_INDEX_FILE: options.repository.indexFile } : {}),
      }
    : {};
  const reading: NodeJS.ProcessEnv = options.reader ? { GIT_OPTIONAL_LOCKS: '0' } : {};
  const git: Git = async (args) => {
    if (options.mayPush && !options.mayPush() && pushesBranch(args))
      throw new GitError('git push refused: the job is being stopped, and plangate pushes nothing more.');
    if (options.beforePush && subcommand(args) === 'push') await options.beforePush(git, args);
    const config = auth.length > 0 && NETWORK.has(subcommand(args) ?? '') ? [...HARDENING, ...auth] : HARDENING;
    const env = { ...gitEnvironment(options.env ?? process.env, config), ...repository, ...reading };
    const { error, stdout, stderr } = await exec(args, {
      program,
      cwd,
      env,
      ...(options.reader ? { timeoutMs: options.reader.timeoutMs } : {}),
    });
    if (error) {
      const exitCode = typeof error.code === 'number' ? error.code : null;
      const said = redact(stderr, secrets);
      throw new GitError(
        redact(`git ${subcommand(args) ?? args[0] ?? ''} failed: ${(stderr || error.message).trim()}`, secrets),
        exitCode,
        said,
      );
    }
    return options.reader ? stdout : stdout.trim();
  };
  return git;
}

/**
 * Whether `args` push to a branch: work that lands. The execution lock's refs (`refs/plangate/...`)
 * are bookkeeping, which a stopped job must still be able to release.
 */
function pushesBranch(args: readonly string[]): boolean {
  return subcommand(args) === 'push' && args.some((a) => !a.startsWith('-') && /(?:^|:)refs\/heads\//.test(a));
}

/** The git subcommand in argv, skipping global options before it. */
export function subcommand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (VALUED.has(arg)) {
      i += 1;
      continue;
    }
    if (arg.startsWith('-')) {
      if (arg.startsWith('--') && arg.includes('=')) continue;
      if (
        ['--bare', '--no-pager', '--literal-pathspecs', '--no-replace-objects', '--no-optional-locks', '-P'].includes(
          arg,
        )
      )
        continue;
      return undefined;
    }
    return arg;
  }
  return undefined;
}

/** The author plangate commits as; GitHub links the Actions bot's commits by this address. */
export function botIdentity(botLogin: string): { name: string; email: string } {
  const email =
    botLogin === 'github-actions[bot]'
      ? '41898282+github-actions[bot]@users.noreply.github.com'
      : `${botLogin}@users.noreply.github.com`;
  return { name: botLogin, email };
}
