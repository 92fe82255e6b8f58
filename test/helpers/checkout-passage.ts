import { spawnSync } from 'node:child_process';
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Passage for the suite's own accounts through the folders above this checkout and its node, when
 * the checkout lies where only its owner may enter (a clone under /root, or any 0700 folder). The
 * runner accounts run the bundled action with this checkout's node, as a real runner runs its own
 * copy; a real runner's user owns those files, so a test must let its stand-in reach them. Each
 * closed folder gets an ACL entry for the account alone (passage, not listing); the suite's
 * teardown removes every entry of the run's accounts (`closeCheckoutPassage`).
 */

/** The folders from the top down to the checkout and to the folder of the node running the suite. */
function foldersAbove(): string[] {
  const tops = [process.cwd(), path.dirname(process.execPath)].flatMap((folder) => {
    try {
      return [folder, realpathSync(folder)];
    } catch {
      return [folder];
    }
  });
  const folders = new Set<string>();
  for (const top of tops) {
    const parts = top.split('/').filter(Boolean);
    parts.forEach((_, i) => folders.add(`/${parts.slice(0, i + 1).join('/')}`));
  }
  return [...folders].sort((a, b) => a.split('/').length - b.split('/').length);
}

/** Whether the account may pass through `folder`, as its own permission check says. */
function passes(uid: number, gid: number, folder: string): boolean {
  return spawnSync('test', ['-x', folder], { uid, gid, stdio: 'ignore' }).status === 0;
}

/**
 * Gives the account passage through each closed folder above the checkout (shallowest first, so a
 * deeper one is judged once its parent is open). Undefined when done, else why not (no setfacl).
 */
export function openCheckoutPassage(uid: number, gid: number): string | undefined {
  for (const folder of foldersAbove()) {
    if (passes(uid, gid, folder)) continue;
    const result = spawnSync('setfacl', ['-m', `u:${uid}:--x`, '--', folder], { encoding: 'utf8' });
    if (result.status !== 0)
      return `setfacl could not open ${folder} to it (${(result.error?.message ?? result.stderr).trim()}); install the acl package`;
  }
  return undefined;
}

/** Removes the ACL entries of `uids` from the folders above the checkout. Never throws: it is cleanup. */
export function closeCheckoutPassage(uids: readonly number[]): void {
  if (uids.length === 0) return;
  const entries = uids.map((uid) => `u:${uid}`).join(',');
  for (const folder of foldersAbove()) {
    // Entry by entry, so one the folder never had does not stop the others' removal.
    if (spawnSync('setfacl', ['-x', entries, '--', folder], { stdio: 'ignore' }).status !== 0)
      for (const uid of uids) spawnSync('setfacl', ['-x', `u:${uid}`, '--', folder], { stdio: 'ignore' });
  }
}

/**
 * Why another account cannot run this suite's node here, where plangate could not let it through
 * either (the folders above it closed to others, and no setfacl for plangate's ACL passage), or
 * undefined. Tests whose commands start this node as the command account skip for it outside CI.
 */
export function nodeOutOfReach(): string | undefined {
  const closed = foldersAbove().filter((folder) => {
    try {
      return (statSync(folder).mode & 0o001) === 0;
    } catch {
      return false;
    }
  });
  if (closed.length === 0) return undefined;
  const setfacl = (process.env.PATH ?? '').split(':').some((dir) => {
    try {
      accessSync(path.join(dir, 'setfacl'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  return setfacl
    ? undefined
    : `${closed[0]} is closed to other accounts and setfacl (the acl package) is missing, so the command account cannot run ${process.execPath}`;
}
