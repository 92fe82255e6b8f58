import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPrograms } from '../../src/repo/programs.js';
import { accountEntries } from '../../src/sandbox/account/account-database.js';
import { SandboxError } from '../../src/sandbox/account/sandbox-types.js';

/**
 * The account database as the sandbox reads it: through getent, and from /etc when a runner has no
 * getent (a PATH without it), which must answer the same as getent for the same keys.
 */

const systemPath = findPrograms('/usr/bin:/bin:/usr/sbin:/sbin');
const noGetentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-no-getent-'));
const noGetent = findPrograms(noGetentDir);
const failingGetent = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-failing-getent-'));
fs.writeFileSync(path.join(failingGetent, 'getent'), '#!/bin/sh\necho "nss backend down" >&2\nexit 1\n', {
  mode: 0o755,
});
afterAll(() => {
  fs.rmSync(noGetentDir, { recursive: true, force: true });
  fs.rmSync(failingGetent, { recursive: true, force: true });
});

describe('accountEntries', () => {
  it.each([
    ['passwd', ['root']],
    ['passwd', ['0']],
    ['group', ['0']],
    ['group', ['root']],
  ] as const)('answers %s %j the same from /etc without getent as through getent', async (database, keys) => {
    const viaGetent = await accountEntries(database, [...keys], systemPath);
    expect(viaGetent).toHaveLength(1);
    expect(viaGetent[0]?.[0]).toBe('root');
    expect(await accountEntries(database, [...keys], noGetent)).toEqual(viaGetent);
  });

  it('gives no lines for an account that does not exist, with getent and without', async () => {
    expect(await accountEntries('passwd', ['pg-nobody-at-all'], systemPath)).toEqual([]);
    expect(await accountEntries('passwd', ['pg-nobody-at-all'], noGetent)).toEqual([]);
  });

  it('lists the whole local database without getent', async () => {
    const listed = await accountEntries('passwd', [], noGetent);
    const local = fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    expect(listed.map((fields) => fields.join(':'))).toEqual(local);
  });

  it('fails closed, quoting getent, when getent fails for another reason than "no such entry"', async () => {
    const failure = accountEntries('passwd', ['root'], findPrograms(`${failingGetent}:${systemPath.path}`));
    await expect(failure).rejects.toBeInstanceOf(SandboxError);
    await expect(failure).rejects.toThrow('Cannot look up the passwd entry of root: nss backend down');
  });
});
