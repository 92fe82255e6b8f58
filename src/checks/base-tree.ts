import type { Git } from '../repo/git.js';
import type { FileExists } from './plan-checks.js';

/**
 * Answers "does this path exist?" from the plan's base commit, not the workspace: the executor
 * starts from that commit, and the workspace may hold another checkout. One `git ls-tree` asks about
 * every path the plan names at once, so a plan naming hundreds of files costs one git process, and a
 * repository of fifty thousand files is never listed whole into memory (a plan names a handful).
 * Only `paths` are looked up: another path may answer false though it exists.
 */
export async function baseTreeLookup(git: Git, baseSha: string, paths: readonly string[]): Promise<FileExists> {
  const asked = paths.filter(isTreePath);
  const found: string[] = [];
  if (asked.length > 0) {
    // Without -r, ls-tree descends only as far as each path needs and shows a directory as one entry;
    // literal pathspecs, so `*` or `:` in a name is just a character; -z: names come unquoted.
    const listing = await git([
      '--literal-pathspecs',
      'ls-tree',
      '-z',
      '--name-only',
      '--full-tree',
      baseSha,
      '--',
      ...asked,
    ]);
    found.push(...listing.split('\0').filter((name) => name !== ''));
  }
  const present = new Set(found);
  // A path exists as itself, or as a directory something listed lies under (an ls-tree asked about
  // both `a` and `a/b` may show only `a/b`).
  return (path) => present.has(path) || found.some((name) => name.startsWith(`${path}/`));
}

/** A path inside the repository that git can be asked about: relative, with no `.` or `..` segment. */
function isTreePath(path: string): boolean {
  return (
    path !== '' &&
    !path.startsWith('/') &&
    path.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
  );
}
