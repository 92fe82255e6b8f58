import { execFile } from 'node:child_process';

/**
 * Git as the host uses it: the work branch, commits after every cycle, pushes to origin. Runs git
 * without a shell, with the arguments as given, and reports failures with git's own words.
 */
export type Git = (args: string[]) => Promise<string>;

export class GitError extends Error {
  override name = 'GitError';
}

export function createGit(cwd: string): Git {
  return (args) =>
    new Promise((resolve, reject) => {
      execFile(
        'git',
        args,
        { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
        (error, stdout, stderr) => {
          if (error) reject(new GitError(`git ${args[0] ?? ''} failed: ${(stderr || error.message).trim()}`));
          else resolve(stdout.trim());
        },
      );
    });
}

/** The author plangate commits as; GitHub links the Actions bot's commits by this address. */
export function botIdentity(botLogin: string): { name: string; email: string } {
  const email =
    botLogin === 'github-actions[bot]'
      ? '41898282+github-actions[bot]@users.noreply.github.com'
      : `${botLogin}@users.noreply.github.com`;
  return { name: botLogin, email };
}
