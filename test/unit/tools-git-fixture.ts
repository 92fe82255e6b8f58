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

/** A fresh repository with `files` committed on `main`. */
export function makeRepo(files: Record<string, string | Buffer>): string {
  const dir = makeTempDir();
  git(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'fixture');
  return dir;
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}
