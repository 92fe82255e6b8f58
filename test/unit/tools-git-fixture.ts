import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Real git repositories in temp directories for the tool tests: the read tools ask git which files
 * exist, so a fake would test nothing.
 */

/** Runs git in `dir` with a fixed identity, so no global configuration is needed. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=plangate-test', '-c', 'user.email=test@plangate.invalid', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
}

/** Writes files (creating directories) relative to `dir`. */
export function writeFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

/** A temp directory; the caller removes it with `removeDir`. */
export function makeTempDir(prefix = 'plangate-tools-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** Makes `dir` a repository with `files` committed on `main` as `message`. */
export function initRepo(dir: string, files: Record<string, string | Buffer>, message = 'fixture'): void {
  git(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}

/** A fresh repository with `files` committed on `main`. */
export function makeRepo(files: Record<string, string | Buffer>): string {
  const dir = makeTempDir();
  initRepo(dir, files);
  return dir;
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * A bare `origin`, a maintainer's repository with `files` pushed to its `main` (standing in for
 * everyone else), and the runner's clone of it that plangate works in.
 */
export interface OriginAndClone {
  origin: string;
  maintainer: string;
  workspace: string;
  /** Removes all three. */
  remove(): void;
}

export function makeOriginAndClone(files: Record<string, string | Buffer>): OriginAndClone {
  const origin = makeTempDir('plangate-origin-');
  git(origin, 'init', '-q', '--bare', '-b', 'main');
  const maintainer = makeRepo(files);
  git(maintainer, 'remote', 'add', 'origin', origin);
  git(maintainer, 'push', '-q', 'origin', 'main');
  const parent = makeTempDir('plangate-runner-');
  const workspace = path.join(parent, 'work');
  git(parent, 'clone', '-q', origin, workspace);
  return { origin, maintainer, workspace, remove: () => [origin, maintainer, parent].forEach(removeDir) };
}
