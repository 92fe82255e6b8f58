import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { makerRunning, parseTempFolder } from '../../repo/temp-folders.js';
import { asRoot, type Helpers, type Switch } from './account-switch.js';
import { revokeLeftoverGrants } from './toolchain-access.js';

/**
 * What a job killed outright (SIGKILL, a lost runner) left in the temp dir: its work-tree copy
 * (repo/work-tree.ts) and its account's HOME and temp dir (account-prepare.ts). Nothing of that job
 * was left to remove them, and the next job whose command account is the same one could read them:
 * another repository's files, or what its commands kept in HOME. Both folders carry the pid and start of
 * the action that made them (repo/temp-folders.ts), so a later action can tell a dead job's from a live one's.
 */

/**
 * Removes, as root, the folders in `tmpDir` that an action of this runner's user made for this
 * account and whose action no longer runs. Run after the sweep: nothing of the account runs that
 * could race the removal. Never throws: it is cleanup.
 */
export async function removeLeftovers(h: Helpers, p: Switch, tmpDir: string): Promise<void> {
  try {
    const dead: string[] = [];
    for (const name of await readdir(tmpDir)) {
      const made = parseTempFolder(name);
      const folder = path.join(tmpDir, name);
      if (made === undefined || (await makerRunning(made))) continue;
      if (!(await madeForAccount(folder, made.kind, p))) continue;
      // The PATH folders its job opened to the account stay open until their ledger is read.
      if (made.kind === 'sandbox') await revokeLeftoverGrants(h, p, folder);
      dead.push(folder);
    }
    // rm(1) does not follow the symbolic links a command may have left inside.
    if (dead.length > 0) await asRoot(h, 'rm', ['-rf', '--', ...dead], p.how);
  } catch {
    // A leftover not removed stays as closed as it was; it must not fail the run.
  }
}

/**
 * Whether `folder` is one this runner's user made (no account can plant one for root to remove)
 * that this account could reach: a work-tree copy never opened or opened to its group, or its own
 * HOME and temp dir. Another account's stay for that account's next run, which alone could race it.
 */
async function madeForAccount(folder: string, kind: 'work' | 'sandbox', p: Switch): Promise<boolean> {
  const stat = await lstat(folder).catch(() => undefined);
  if (!stat?.isDirectory() || stat.uid !== process.getuid?.()) return false;
  if (kind === 'sandbox')
    return (await lstat(path.join(folder, 'home')).catch(() => undefined))?.uid === p.identity.uid;
  return stat.gid === p.identity.gid || stat.gid === process.getgid?.();
}
