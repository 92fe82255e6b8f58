import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { git as gitIn } from './tools-git-fixture.js';

/**
 * scripts/release.mjs against a real git repository with a bare origin: a tiny project whose
 * `npm run bundle` writes dist/ the way plangate's does, so the freshness check is the real one.
 */

const script = path.join(fileURLToPath(new URL('../..', import.meta.url)), 'scripts', 'release.mjs');
const slow = { timeout: 60_000 };

let dir = '';
let origin = '';
let work = '';

/** git's output, trimmed. */
const git = (cwd: string, ...args: string[]) => gitIn(cwd, ...args).trim();

/** The project at a version, with the bundle `build.mjs` makes from `source`, committed and pushed. */
function commitVersion(version: string, source: string, { rebuild = true } = {}): string {
  writeFileSync(
    path.join(work, 'package.json'),
    `${JSON.stringify({ name: 'sample-action', version, scripts: { bundle: 'node build.mjs' } }, null, 2)}\n`,
  );
  writeFileSync(path.join(work, 'src.txt'), source);
  writeFileSync(
    path.join(work, 'CHANGELOG.md'),
    `# Changelog\n\n## [${version}]\n\n- ${source}\n\n## [0.1.0]\n\n- First.\n`,
  );
  if (rebuild) execFileSync('npm', ['run', 'bundle', '--silent'], { cwd: work });
  git(work, 'add', '--all');
  git(work, 'commit', '--quiet', '-m', `Release ${version}`);
  git(work, 'push', '--quiet', 'origin', 'HEAD');
  return git(work, 'rev-parse', 'HEAD');
}

function release(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { cwd: work }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** The commit a tag on origin points at, or '' when origin has no such tag. */
const originTag = (name: string) =>
  git(origin, 'tag', '--list', name) === '' ? '' : git(origin, 'rev-parse', `refs/tags/${name}^{commit}`);

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'plangate-release-'));
  origin = path.join(dir, 'origin.git');
  work = path.join(dir, 'work');
  git(dir, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  git(dir, 'init', '--quiet', '--initial-branch=main', work);
  git(work, 'remote', 'add', 'origin', origin);
  // The release script's own git (its annotated tags) takes the identity from the repository.
  git(work, 'config', 'user.name', 'Mona');
  git(work, 'config', 'user.email', 'mona@example.com');
  // The bundle: dist/index.js from src.txt, the way a bundler makes dist/ from src/.
  writeFileSync(
    path.join(work, 'build.mjs'),
    "import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';\n" +
      "mkdirSync('dist', { recursive: true });\n" +
      "writeFileSync('dist/index.js', `export const source = ${JSON.stringify(readFileSync('src.txt', 'utf8'))};\\n`);\n",
  );
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('scripts/release.mjs', () => {
  it('--dry-run checks everything and prints the tag and push commands, changing nothing', slow, async () => {
    commitVersion('0.1.0', 'First.');
    const outcome = await release('0.1.0', '--dry-run');
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain('dist/ is fresh');
    expect(outcome.stdout).toContain("would run: git tag --annotate v0.1.0 --message 'plangate v0.1.0'");
    expect(outcome.stdout).toContain('would run: git push --force origin refs/tags/v0');
    expect(outcome.stdout).toContain('dry run, nothing tagged or pushed');
    expect(git(work, 'tag', '--list')).toBe('');
    expect(git(origin, 'tag', '--list')).toBe('');
    expect(git(work, 'status', '--porcelain')).toBe('');
  });

  it('tags vX.Y.Z and moves vX on origin, and moves only vX on the next release', slow, async () => {
    const first = commitVersion('0.1.0', 'First.');
    const released = await release('v0.1.0');
    expect(released.code, released.stderr).toBe(0);
    expect(originTag('v0.1.0')).toBe(first);
    expect(originTag('v0')).toBe(first);
    expect(git(origin, 'cat-file', '-t', 'refs/tags/v0.1.0')).toBe('tag');

    const second = commitVersion('0.1.1', 'Second.');
    const next = await release('0.1.1');
    expect(next.code, next.stderr).toBe(0);
    expect(originTag('v0.1.1')).toBe(second);
    expect(originTag('v0')).toBe(second);
    expect(originTag('v0.1.0')).toBe(first);
  });

  it('refuses a commit whose dist/ is not what the bundle makes, and leaves dist/ as committed', slow, async () => {
    commitVersion('0.1.0', 'First.');
    commitVersion('0.2.0', 'Changed without rebuilding.', { rebuild: false });
    const outcome = await release('0.2.0', '--dry-run');
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('the committed dist/ differs from a fresh npm run bundle');
    expect(outcome.stderr).toContain('dist/index.js');
    expect(git(work, 'status', '--porcelain')).toBe('');
    expect(git(origin, 'tag', '--list')).toBe('');
  });

  it.each([
    ['a version package.json does not say', ['0.3.0'], 'package.json says version 0.1.0, not 0.3.0'],
    ['a version that is not X.Y.Z', ['1.0'], '1.0 is not a version X.Y.Z'],
  ])('refuses %s', slow, async (_what, args, message) => {
    commitVersion('0.1.0', 'First.');
    const outcome = await release(...args);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(message);
    expect(git(origin, 'tag', '--list')).toBe('');
  });

  it('refuses uncommitted work, a tag that exists, and moving vX back', slow, async () => {
    const first = commitVersion('0.1.0', 'First.');
    writeFileSync(path.join(work, 'notes.txt'), 'draft\n');
    expect((await release('0.1.0')).stderr).toContain('uncommitted changes');
    rmSync(path.join(work, 'notes.txt'));

    expect((await release('0.1.0')).code).toBe(0);
    expect((await release('0.1.0')).stderr).toContain('the tag v0.1.0 already exists');

    // A later release on a branch that does not contain v0's commit: v0 must not move there.
    git(work, 'checkout', '--quiet', '--orphan', 'other');
    commitVersion('0.2.0', 'Elsewhere.');
    const back = await release('0.2.0');
    expect(back.code).toBe(1);
    expect(back.stderr).toContain('which this commit does not descend from');
    expect(originTag('v0')).toBe(first);
    expect(originTag('v0.2.0')).toBe('');
  });
});
