import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { makerRunning, parseTempFolder } from '../repo/temp-folders.js';
import type { Switch } from './account-switch.js';

/**
 * Whether another plangate job on this machine uses the same command account right now. After
 * every command a job ends everything its account runs, and it lends its work tree to that
 * account: two jobs sharing one account would end each other's commands, and each one's commands
 * could read the other's files (another repository's, perhaps). A job gives its account a HOME in
 * a folder of the temp dir named with its pid (account-prepare.ts), which tells of it here.
 */

/**
 * The pid of another running action whose folder in `tmpDir` holds a HOME of this account, or
 * undefined. Folders the account owns are passed over: a command must not be able to keep the
 * account's later jobs from running theirs.
 */
export async function accountUsedBy(p: Switch, tmpDir: string): Promise<number | undefined> {
  for (const name of await readdir(tmpDir).catch(() => [])) {
    const made = parseTempFolder(name);
    if (made?.kind !== 'sandbox' || made.pid === process.pid) continue;
    const folder = path.join(tmpDir, name);
    const stat = await lstat(folder).catch(() => undefined);
    if (!stat?.isDirectory() || stat.uid === p.identity.uid) continue;
    const home = await lstat(path.join(folder, 'home')).catch(() => undefined);
    if (home?.uid === p.identity.uid && (await makerRunning(folder, made.pid))) return made.pid;
  }
  return undefined;
}
