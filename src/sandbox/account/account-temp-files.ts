import { existsSync, realpathSync } from 'node:fs';
import { asAccount, type Helpers, type Switch } from './account-switch.js';

/**
 * What the account's commands left in the machine's shared temp places. A command gets a HOME and a
 * temp dir of its own, removed with the job, but nothing keeps it from writing to /tmp, /var/tmp or
 * /dev/shm directly: on a runner that outlives its jobs, the next job whose command account is the
 * same one (another repository's, perhaps) would find those files there and could read them, or be
 * misled by them. So everything the account owns there is removed before the first command of a
 * job and again when its sandbox closes.
 */

/** The world-writable places every account can leave files in, besides the system's temp dir. */
const sharedPlaces = ['/tmp', '/var/tmp', '/dev/shm', '/run/lock', '/dev/mqueue'];

/**
 * Makes each file found writable to its owner, then removes it: a folder the account made read-only
 * would keep what is in it. Both programs come by absolute path (`$1`, `$2`), then the files.
 */
const REMOVE = 'chmod="$1"; rm="$2"; shift 2; "$chmod" -R u+rwX -- "$@" 2>/dev/null; "$rm" -rf -- "$@"';

/**
 * Removes, as the account itself, everything it owns in `tmpDir` and the shared temp places, except
 * inside `spared` (this job's own folders: the account's HOME and temp dir, the work tree's
 * enclosure). Run as the account, it can remove only what the account could reach and change: never
 * another account's file, and it follows no link. Run after the sweep of its processes, so nothing
 * of the account writes meanwhile. Never throws: it is cleanup.
 */
export async function removeAccountTempFiles(
  h: Helpers,
  p: Switch,
  tmpDir: string,
  spared: readonly string[],
): Promise<void> {
  try {
    const roots = [...new Set([tmpDir, ...sharedPlaces].filter((place) => existsSync(place)).map(realPath))];
    if (roots.length === 0) return;
    const pruned = spared.flatMap((folder, i) => [...(i > 0 ? ['-o'] : []), '-path', literal(realPath(folder))]);
    await asAccount(h, p, [
      'find',
      ...roots,
      '-xdev',
      '-mindepth',
      '1',
      ...(pruned.length > 0 ? ['(', ...pruned, ')', '-prune', '-o'] : []),
      // What the account owns is removed whole (so not searched further); elsewhere find looks deeper.
      '-user',
      String(p.identity.uid),
      '-prune',
      '-exec',
      '/bin/sh',
      '-c',
      REMOVE,
      'remove',
      h.programs.find('chmod'),
      h.programs.find('rm'),
      '{}',
      '+',
    ]);
  } catch {
    // find reports the folders the account may not enter; what it could remove is gone. A file left
    // behind stays as its owner made it; cleanup must not fail the run.
  }
}

/** The folder with its links resolved, as find names what it finds below it. */
function realPath(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

/** `path` as a find -path pattern that matches only itself. */
function literal(path: string): string {
  return path.replace(/[\\*?[\]]/g, '\\$&');
}
