import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RUN_TAG_ENV, runTag } from '../helpers/unique-names.js';

/**
 * A world's origin (a bare repository whose main holds `files` as its one commit) and the seed
 * checkout that pushed it. Seeding takes five git processes and a push; in a test run each set of
 * files is seeded once, into a folder named for the run that every worker and test file shares,
 * and each world copies it, which takes no process at all. The global teardown removes the folder
 * with the run's other leftovers (test/helpers/global-setup.ts). Outside a test run (the benchmark,
 * the demo), where no teardown would remove it, each world seeds its own.
 */

export type Git = (cwd: string, ...args: string[]) => string;

export interface SeededOrigin {
  origin: string;
  seed: string;
}

/** Seeds `dir`/origin.git and `dir`/seed; `shared` makes origin group-writable (core.sharedRepository). */
export function seedOrigin(git: Git, dir: string, files: Record<string, string>, shared: boolean): SeededOrigin {
  const placed = { origin: path.join(dir, 'origin.git'), seed: path.join(dir, 'seed') };
  if (!process.env[RUN_TAG_ENV]) {
    seedInPlace(git, dir, files, shared);
    return placed;
  }
  const template = seededTemplate(git, files, shared);
  cpSync(path.join(template, 'origin.git'), placed.origin, { recursive: true });
  cpSync(path.join(template, 'seed'), placed.seed, { recursive: true });
  return placed;
}

/** The run's seeded folder for these files, made on first use. */
function seededTemplate(git: Git, files: Record<string, string>, shared: boolean): string {
  // The commit is the files and the dates git gives it: a caller that fixes the dates (the demo's
  // capture, for commit ids that repeat) gets a template of its own.
  const dates = [process.env.GIT_AUTHOR_DATE ?? '', process.env.GIT_COMMITTER_DATE ?? ''];
  const names = Object.keys(files).sort();
  const key = createHash('sha256')
    .update(JSON.stringify([shared, dates, names.map((name) => [name, files[name]])]))
    .digest('hex')
    .slice(0, 16);
  const template = path.join(tmpdir(), `pg-seed-${runTag()}-${key}`);
  if (existsSync(template)) return template;
  // Seeded aside and renamed into place, so a worker never copies a half-made one; when two
  // workers race, the first rename wins and the other's copy is dropped.
  const making = mkdtempSync(path.join(tmpdir(), `pg-seed-${runTag()}-making-`));
  seedInPlace(git, making, files, shared);
  try {
    renameSync(making, template);
  } catch (error) {
    rmSync(making, { recursive: true, force: true });
    if (!existsSync(template)) throw error;
  }
  return template;
}

function seedInPlace(git: Git, dir: string, files: Record<string, string>, shared: boolean): void {
  const origin = path.join(dir, 'origin.git');
  const seed = path.join(dir, 'seed');
  git(dir, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  // The emulator (GitHub's side) writes commits and refs into origin as the test process while the
  // action pushes as the world's account. Group-shared, whatever either writes stays writable for
  // the other. (Not `init --shared`: that also refuses non-fast-forward pushes.)
  if (shared) git(origin, 'config', 'core.sharedRepository', 'group');
  git(dir, 'init', '--quiet', '--initial-branch=main', seed);
  writeFiles(seed, files);
  git(seed, 'add', '--all');
  git(seed, 'commit', '--quiet', '-m', 'Initial commit');
  git(seed, 'push', '--quiet', origin, 'HEAD:refs/heads/main');
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
}
