import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { closeCheckoutPassage } from './checkout-passage.js';

/** Where root's tools live even when the test process's PATH leaves them out. */
const adminPath = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'].join(':');

/** The local accounts, by name, with their home directories (from /etc/passwd, where useradd writes). */
export function localAccounts(): Map<string, { home: string; uid: number }> {
  const accounts = new Map<string, { home: string; uid: number }>();
  let passwd: string;
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return accounts;
  }
  for (const line of passwd.split('\n')) {
    const [name = '', , uid = '', , , home = ''] = line.split(':');
    if (name !== '') accounts.set(name, { home, uid: Number(uid) });
  }
  return accounts;
}

/**
 * Deletes an account a test created, with its home when it has one of its own under /home, and
 * its sudoers rule if a test granted one; an account already gone is fine. Returns why it could
 * not, or undefined. Only for accounts whose names the tests made (test/helpers/unique-names.ts).
 */
export function deleteAccount(name: string): string | undefined {
  const account = localAccounts().get(name);
  rmSync(path.join('/etc/sudoers.d', name), { force: true });
  if (!account) return undefined;
  // Its passage to the checkout (a runner account's, or a sandbox's a killed run never revoked) goes with it.
  closeCheckoutPassage([account.uid]);
  const ownHome = account.home === path.join('/home', name) && existsSync(account.home);
  const result = spawnSync('userdel', [...(ownHome ? ['--remove'] : []), name], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${process.env.PATH ?? ''}:${adminPath}` },
  });
  // userdel exits 12 when only the home could not be removed; the account itself is gone then.
  if (result.status === 0 || (result.status === 12 && !localAccounts().has(name))) return undefined;
  return `userdel ${name}: ${(result.error?.message ?? result.stderr).trim() || `exit ${result.status}`}`;
}
