import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A bare repository playing `origin` for the GitHub emulator's git data API and the lock tests:
 * commits and refs are real git objects, so a fake would check nothing.
 */
export interface Origin {
  /** The bare repository, for `originPath`. */
  path: string;
  /** The tip of `main`. */
  mainSha: string;
  /** Runs git against the bare repository. */
  git(...args: string[]): string;
  /** The full sha a ref points at, or undefined when it does not exist. */
  refSha(ref: string): string | undefined;
  remove(): void;
}

/** Runs git in `cwd` as Mona, without signing: the commits these fixtures make. */
export function runGit(cwd: string, args: string[]): string {
  return execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Mona',
      GIT_AUTHOR_EMAIL: 'mona@example.com',
      GIT_COMMITTER_NAME: 'Mona',
      GIT_COMMITTER_EMAIL: 'mona@example.com',
    },
  }).trim();
}

/** A bare origin with two commits on `main`. */
export function createOrigin(): Origin {
  const dir = mkdtempSync(path.join(tmpdir(), 'plangate-origin-'));
  const bare = path.join(dir, 'origin.git');
  const seed = path.join(dir, 'seed');
  runGit(dir, ['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  runGit(dir, ['init', '--quiet', '--initial-branch=main', seed]);
  writeFileSync(path.join(seed, 'README.md'), '# sample\n');
  runGit(seed, ['add', 'README.md']);
  runGit(seed, ['commit', '--quiet', '-m', 'first']);
  writeFileSync(path.join(seed, 'README.md'), '# sample\n\nSecond line.\n');
  runGit(seed, ['commit', '--quiet', '-am', 'second']);
  runGit(seed, ['push', '--quiet', bare, 'main']);
  const git = (...args: string[]) => runGit(bare, args);
  return {
    path: bare,
    mainSha: git('rev-parse', 'refs/heads/main'),
    git,
    refSha(ref) {
      try {
        return git('rev-parse', '--verify', '--quiet', ref);
      } catch {
        return undefined;
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
