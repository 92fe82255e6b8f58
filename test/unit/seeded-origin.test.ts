import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git as harnessGit } from '../e2e/harness.js';
import { seedOrigin, type Git } from '../e2e/seeded-origin.js';
import { RUN_TAG_ENV } from '../helpers/unique-names.js';

/** The e2e worlds' origins: seeded once per set of files in a test run, and each world's copy its own. */

/** The harness's git (its fixed identity, the environment read at each call), counting what it starts. */
function countingGit(): { git: Git; calls: string[][] } {
  const calls: string[][] = [];
  const git: Git = (cwd, ...args) => {
    calls.push(args);
    return harnessGit(cwd, ...args);
  };
  return { git, calls };
}

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'plangate-seeded-origin-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('seedOrigin', () => {
  it('seeds a set of files once per test run and gives each world a copy of its own', () => {
    expect(process.env[RUN_TAG_ENV]).toMatch(/^[a-z0-9]+$/);
    const files = { 'README.md': `# seeded ${process.pid} ${Date.now()}\n`, 'src/a.js': 'export const a = 1;\n' };
    const { git, calls } = countingGit();
    const first = seedOrigin(git, freshDir(), files, false);
    const seeding = calls.length;
    expect(seeding).toBeGreaterThanOrEqual(5);
    const second = seedOrigin(git, freshDir(), files, false);
    expect(calls).toHaveLength(seeding);

    const initial = git(first.origin, 'rev-parse', 'main');
    expect(git(second.origin, 'rev-parse', 'main')).toBe(initial);
    expect(git(second.origin, 'show', 'main:README.md')).toBe(files['README.md'].trim());

    // A push to one world's origin stays in that world.
    git(first.seed, 'commit', '--quiet', '--allow-empty', '-m', 'only in the first world');
    git(first.seed, 'push', '--quiet', first.origin, 'HEAD:refs/heads/main');
    expect(git(first.origin, 'rev-parse', 'main')).not.toBe(initial);
    expect(git(second.origin, 'rev-parse', 'main')).toBe(initial);
    expect(git(second.seed, 'rev-parse', 'HEAD')).toBe(initial);
  });

  it('seeds other files, and a group-shared origin, apart', () => {
    const files = { 'README.md': `# other ${process.pid} ${Date.now()}\n` };
    const { git } = countingGit();
    const plain = seedOrigin(git, freshDir(), files, false);
    const shared = seedOrigin(git, freshDir(), files, true);
    const changed = seedOrigin(git, freshDir(), { ...files, 'b.txt': 'b\n' }, false);
    const config = (origin: string) => {
      try {
        return git(origin, 'config', 'core.sharedRepository');
      } catch {
        return '';
      }
    };
    expect(config(plain.origin)).toBe('');
    expect(config(shared.origin)).toBe('group');
    expect(git(changed.origin, 'show', 'main:b.txt')).toBe('b');
    expect(() => git(plain.origin, 'show', 'main:b.txt')).toThrow();
  });

  it('seeds the same files committed at fixed dates apart, with those dates', () => {
    const files = { 'README.md': `# dated ${process.pid} ${Date.now()}\n` };
    const { git } = countingGit();
    const now = seedOrigin(git, freshDir(), files, false);
    process.env.GIT_AUTHOR_DATE = '2026-01-02T03:04:05Z';
    process.env.GIT_COMMITTER_DATE = '2026-01-02T03:04:05Z';
    try {
      const dated = seedOrigin(git, freshDir(), files, false);
      expect(git(dated.origin, 'log', '-1', '--format=%aI %cI', 'main')).toBe(
        '2026-01-02T03:04:05+00:00 2026-01-02T03:04:05+00:00',
      );
      expect(git(dated.origin, 'rev-parse', 'main')).not.toBe(git(now.origin, 'rev-parse', 'main'));
    } finally {
      delete process.env.GIT_AUTHOR_DATE;
      delete process.env.GIT_COMMITTER_DATE;
    }
  });
});
