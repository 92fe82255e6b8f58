import path from 'node:path';

/**
 * A count of the changes plangate's own tools may have made to each work tree: write_file, and every
 * process the sandbox lends the tree to (run_command, an executor's stdio MCP call). A tool that keeps
 * what it learned about a tree (list_files keeps the untracked files) compares counts to know when to
 * look again. Keyed by the tree's resolved path, so the planner's and the executor's tools, built
 * apart, see the same count.
 */

const counts = new Map<string, number>();

/** Records that `workTree` may have changed: call it after the change, whether or not it succeeded. */
export function noteTreeChange(workTree: string): void {
  const key = path.resolve(workTree);
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** How many changes to `workTree` have been noted so far; equal counts mean no tool changed it in between. */
export function treeChangeCount(workTree: string): number {
  return counts.get(path.resolve(workTree)) ?? 0;
}
