import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as core from '@actions/core';
import { outOfScopeReason, type KeptOutChange } from '../repo/change-gate.js';
import { resolveInWorkspace } from '../tools/workspace.js';
import { errorMessage } from '../text/error-message.js';

/**
 * What the commit gate held back in a step's own work tree (a change outside the step's files, or
 * one that adds a credential) outlives that tree: it is read before the tree goes and written into
 * the main work tree after the merge, where it waits uncommitted as the main tree's held changes do,
 * so the next commit holds it back again and an amendment can still carry it. Only files are
 * carried; a held-back deletion is left undone.
 */

/** A held-back file as the step left it. */
export interface HeldFile {
  path: string;
  content: Buffer;
  mode: number;
}

/**
 * Reads the files `keptOut` names that the gate left in `tree` (not the ones it put back or never
 * stages). A change outside the step's files but inside the run's (`inRunScope`) is another step's
 * business and is dropped: in the main tree it would land over that step's work.
 */
export async function readHeld(
  tree: string,
  keptOut: readonly KeptOutChange[],
  inRunScope: (path: string) => boolean,
): Promise<HeldFile[]> {
  const held: HeldFile[] = [];
  for (const change of keptOut) {
    const carried = change.credential || (change.reason === outOfScopeReason && !inRunScope(change.path));
    if (!carried || change.change === 'deleted') continue;
    try {
      const file = resolveInWorkspace(tree, change.path);
      const info = await lstat(file);
      if (info.isFile()) held.push({ path: change.path, content: await readFile(file), mode: info.mode & 0o777 });
    } catch (error) {
      core.info(`A held-back change to ${change.path} stays in its step's tree: ${errorMessage(error)}`);
    }
  }
  return held;
}

/** Writes held-back files into `workTree`, each through the workspace guard (no way out by a symlink). */
export async function restoreHeld(workTree: string, held: readonly HeldFile[]): Promise<void> {
  for (const file of held) {
    try {
      const target = resolveInWorkspace(workTree, file.path);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, file.content, { mode: file.mode });
    } catch (error) {
      core.warning(`Could not keep the held-back change to ${file.path}: ${errorMessage(error)}`);
    }
  }
}
