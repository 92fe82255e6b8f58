import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { makerRunning, parseTempFolder } from '../../repo/temp-folders.js';
import type { Switch } from './account-switch.js';
import { SandboxError } from './sandbox-types.js';

/**
 * Whether another plangate job on this machine uses the same command account right now. After
 * every command a job ends everything its account runs, and it lends its work tree to that
 * account: two jobs sharing one account would end each other's commands, and each one's commands
 * could read the other's files (another repository's, perhaps). A job gives its account a HOME in
 * a folder of the temp dir named with its pid and start (account-prepare.ts), which tells of it here.
 */

/**
 * The pid of another running action whose folder in `tmpDir` holds a HOME of this account, or
 * undefined. Folders the account owns are passed over: a command must not be able to keep the
 * account's later jobs from running theirs. A temp dir that cannot be listed is a SandboxError:
 * what cannot be checked is not taken as safe.
 */
export async function accountUsedBy(p: Switch, tmpDir: string): Promise<number | undefined> {
  let names: string[];
  try {
    names = await readdir(tmpDir);
  } catch (error) {
    throw new SandboxError(
      `Cannot list the temp dir ${tmpDir} to check that no other plangate job on this machine uses command-user ${p.identity.user} (${(error as NodeJS.ErrnoException).code ?? String(error)}). Let the runner's user list it, or set TMPDIR to a folder it can.`,
    );
  }
  for (const name of names) {
    const made = parseTempFolder(name);
    if (made?.kind !== 'sandbox' || made.pid === process.pid) continue;
    const folder = path.join(tmpDir, name);
    const stat = await lstat(folder).catch(() => undefined);
    if (!stat?.isDirectory() || stat.uid === p.identity.uid) continue;
    const home = await lstat(path.join(folder, 'home')).catch(() => undefined);
    if (home?.uid === p.identity.uid && (await makerRunning(made))) return made.pid;
  }
  return undefined;
}
