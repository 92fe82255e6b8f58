import type { Git } from '../repo/git.js';
import { treeChangeCount } from '../sandbox/sandbox.js';

/**
 * The paths list_files chooses from, each list sorted by UTF-16 code unit and without repeats:
 * tracked files, read from the index on every call (git reads it in a few milliseconds), and new
 * files not ignored, which take git a walk of the whole working tree. The walk's answer is kept
 * until a tool may have changed the tree (tree-changes.ts) or the index lists other files (the host
 * staged, committed or unstaged something), so a session's repeated listings cost one index read.
 */
export interface RepositoryPaths {
  tracked: readonly string[];
  untracked: readonly string[];
}

interface Kept {
  changes: number;
  /** git's listing of the index, as it printed it: the same text means the same tracked files. */
  index: string;
  tracked: string[];
  untracked: string[];
}

/** Reads the repository's paths for `workspace`; the returned function keeps the walk's answer between calls. */
export function repositoryPaths(workspace: string, git: Git): () => Promise<RepositoryPaths> {
  let kept: Kept | undefined;
  const readIndex = () => git(['ls-files', '--cached', '-z']);
  const walk = () => git(['ls-files', '--others', '--exclude-standard', '-z']);
  const keep = (changes: number, index: string, others: string): Kept => ({
    changes,
    index,
    tracked: kept?.index === index ? kept.tracked : sortedUnique(splitNul(index)),
    untracked: sortedUnique(splitNul(others)),
  });
  return async () => {
    // Read before git runs: a change noted while it runs makes the next call look again.
    const changes = treeChangeCount(workspace);
    if (kept === undefined || kept.changes !== changes) {
      // The walk is due anyway: side by side, the two take about as long as the walk alone.
      const [index, others] = await Promise.all([readIndex(), walk()]);
      kept = keep(changes, index, others);
    } else {
      const index = await readIndex();
      if (index !== kept.index) kept = keep(changes, index, await walk());
    }
    return { tracked: kept.tracked, untracked: kept.untracked };
  };
}

/**
 * The union of two sorted lists without repeats, in order, produced only as far as it is read: a
 * listing that shows its first few hundred paths never orders the other fifty thousand.
 */
export function* mergeSorted(a: readonly string[], b: readonly string[]): Generator<string> {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x < y)) {
      i += 1;
      yield x as string;
    } else {
      j += 1;
      if (x === y) i += 1;
      yield y;
    }
  }
}

/**
 * `paths` sorted by code unit without repeats. git prints both listings in byte order already, which
 * differs from code-unit order only for rare characters, so this is usually one pass of comparisons;
 * a list out of order is sorted. A conflicted file appears once per stage in the index: kept once.
 */
export function sortedUnique(paths: string[]): string[] {
  let sorted = true;
  for (let k = 1; k < paths.length && sorted; k++) sorted = (paths[k - 1] as string) <= (paths[k] as string);
  if (!sorted) paths.sort(byCodeUnit);
  return paths.filter((p, k) => k === 0 || p !== paths[k - 1]);
}

function splitNul(text: string): string[] {
  return text.split('\0').filter((entry) => entry !== '');
}

/** Locale-independent order, so the same tree always lists the same way. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
