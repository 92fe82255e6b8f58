import { execFile } from 'node:child_process';

/**
 * The read tools ask git which files belong to the repository, so ignored build output and
 * dependencies never flood a model's context. Runs git directly (no shell) in the workspace.
 */

/** git exited non-zero or could not start; search needs the exit code to tell "no match" apart. */
export class GitCommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'GitCommandError';
  }
}

export interface RunGitOptions {
  /** Kill git after this long; a huge repository should not stall an agent turn forever. */
  timeoutMs?: number;
  /** Largest stdout accepted; git's listings of big repositories exceed Node's 1 MiB default. */
  maxBuffer?: number;
}

const DEFAULT_MAX_BUFFER = 256 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 120_000;

/** Runs `git <args>` in `workspace` and returns its stdout; throws GitCommandError on failure. */
export function runGit(workspace: string, args: readonly string[], opts: RunGitOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      {
        cwd: workspace,
        encoding: 'utf8',
        maxBuffer: opts.maxBuffer ?? DEFAULT_MAX_BUFFER,
        timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        // Read-only queries must not take index.lock from under a concurrent commit.
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
      },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve(stdout);
          return;
        }
        const exitCode = typeof error.code === 'number' ? error.code : null;
        const detail = stderr.trim() || error.message;
        reject(new GitCommandError(`git ${args[0] ?? ''} failed: ${detail}`, exitCode, stderr));
      },
    );
  });
}
