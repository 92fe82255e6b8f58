import type { Git } from '../repo/git.js';
import type { FileExists } from './plan-checks.js';

/**
 * Answers "does this path exist?" from the plan's base commit, not the workspace: the executor
 * starts from that commit, and the workspace may hold another checkout. One `git ls-tree` lists the
 * whole tree, so a plan naming hundreds of files costs one git process, not one per file.
 */
export async function baseTreeLookup(git: Git, baseSha: string): Promise<FileExists> {
  // -z: names come unquoted, whatever characters they hold.
  const listing = await git(['ls-tree', '-r', '-z', '--name-only', '--full-tree', baseSha]);
  const present = new Set<string>();
  for (const name of listing.split('\0')) {
    if (name === '') continue;
    present.add(name);
    // A step may name a directory; it exists when any file is under it.
    for (let slash = name.lastIndexOf('/'); slash > 0; slash = name.lastIndexOf('/', slash - 1)) {
      const dir = name.slice(0, slash);
      if (present.has(dir)) break;
      present.add(dir);
    }
  }
  return (path) => present.has(path);
}
