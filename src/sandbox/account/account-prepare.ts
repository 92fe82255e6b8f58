import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { accountEntries } from './account-database.js';
import { refuseSharedGroup } from './account-group.js';
import { asRoot, isolationImpossible, probeAccountSwitch, type Helpers, type Switch } from './account-switch.js';
import { tempFolderPrefix } from '../../repo/temp-folders.js';
import { defaultPrograms, lookUp, type Programs } from '../../repo/programs.js';
import { locate, run, type RunFailure } from './run-helper.js';
import { SandboxError, type AccountIdentity, type SandboxDeps } from './sandbox-types.js';

/**
 * Getting the sandbox account ready, once per run: found or created, refused when it is root, the
 * action's own user or shares its group, and given a HOME and temp dir of its own that nothing of
 * the action's is in.
 */

/** A ready account: who it is, how the switch is made, and the folders it owns. */
export interface Prepared extends Switch {
  /** Holds the account's HOME and temp dir; the action's, 0711. */
  dir: string;
  home: string;
  tmp: string;
}

// The name reaches command lines (sudo, useradd); settings accepts the same shape.
const accountNameSchema = z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/i, 'must be a user name of at most 32 characters');

const passwdEntrySchema = z.object({
  user: z.string().min(1),
  uid: z.coerce.number().int().nonnegative(),
  gid: z.coerce.number().int().nonnegative(),
});

/** Resolves the account `name` (creating it when needed) and makes its HOME and temp dir; SandboxError names what to fix. */
export async function prepareAccount(name: string, deps: SandboxDeps, h: Helpers): Promise<Prepared> {
  const parsed = accountNameSchema.safeParse(name);
  if (!parsed.success) throw new SandboxError(`command-user ${JSON.stringify(name)} is not a valid account name.`);
  const allowed = await probeAccountSwitch(deps);
  if (allowed.kind === 'impossible') throw new SandboxError(isolationImpossible(allowed.cause));
  const how = allowed.kind;
  const identity = (await lookUpAccount(name, h.programs)) ?? (await createAccount(h, name, how));
  if (identity.uid === 0)
    throw new SandboxError(
      `command-user ${name} is root (uid 0); name an unprivileged account that exists only to run plangate's commands.`,
    );
  if (identity.uid === process.getuid?.()) {
    throw new SandboxError(
      `command-user ${name} is the action's own user; its commands would see everything the action sees. Name a separate unprivileged account.`,
    );
  }
  await refuseSharedGroup(identity, h.programs);
  // Others may pass through (not list) the folder, to reach the HOME and temp dir the account owns.
  const dir = await mkdtemp(path.join(deps.tmpDir ?? os.tmpdir(), tempFolderPrefix('sandbox')));
  await chmod(dir, 0o711);
  const home = path.join(dir, 'home');
  const tmp = path.join(dir, 'tmp');
  await mkdir(home, { mode: 0o700 });
  await mkdir(tmp, { mode: 0o700 });
  const owner = `${identity.uid}:${identity.gid}`;
  try {
    if (how === 'root')
      await Promise.all([chown(home, identity.uid, identity.gid), chown(tmp, identity.uid, identity.gid)]);
    else await asRoot(h, 'chown', [owner, '--', home, tmp], how);
    if (how === 'sudo') {
      // The rule may name only some accounts, or map this one to another uid: check it really switches.
      const id = locate(h.programs, 'id');
      const answer = (await run(h.programs, h.sudo, ['-n', '-u', name, '--', id, '-u'])).stdout.trim();
      if (answer !== String(identity.uid))
        throw new SandboxError(
          `sudo ran a check as command-user ${name} with uid ${JSON.stringify(answer)}, not ${identity.uid}.`,
        );
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    if (error instanceof SandboxError) throw error;
    throw new SandboxError(`Cannot prepare command-user ${name}: ${(error as RunFailure).detail ?? String(error)}.`);
  }
  return { identity, how, dir, home, tmp };
}

/** useradd through root or sudo; a concurrent run that created it first is fine. */
async function createAccount(h: Helpers, account: string, how: 'root' | 'sudo'): Promise<AccountIdentity> {
  const args = [
    '--system',
    '--user-group',
    '--no-create-home',
    '--home-dir',
    '/nonexistent',
    '--shell',
    '/usr/sbin/nologin',
    account,
  ];
  try {
    await asRoot(h, findUseradd(h.programs), args, how);
  } catch (error) {
    const failure = error as RunFailure;
    // Exit 9: it exists (another job made it meanwhile).
    if (failure.code !== 9) {
      throw new SandboxError(
        `Cannot create the account ${account} that commands run as (useradd: ${failure.detail}). Create it yourself and name it in command-user.`,
      );
    }
  }
  const identity = await lookUpAccount(account, h.programs);
  if (!identity) throw new SandboxError(`The account ${account} was created but cannot be looked up.`);
  return identity;
}

/** uid and gid of an account: `getent passwd` (which sees NSS accounts), else /etc/passwd; undefined when none. */
export async function lookUpAccount(
  user: string,
  programs: Programs = defaultPrograms(),
): Promise<AccountIdentity | undefined> {
  const [fields = []] = await accountEntries('passwd', [user], programs);
  const parsed = passwdEntrySchema.safeParse({ user: fields[0], uid: fields[2], gid: fields[3] });
  return parsed.success && parsed.data.user === user ? parsed.data : undefined;
}

/** useradd on PATH, else in sbin, which a root job's PATH may lack; a bare name (reported as missing) when neither has it. */
function findUseradd(programs: Programs): string {
  return lookUp('useradd', programs.path) ?? lookUp('useradd', '/usr/sbin:/sbin') ?? 'useradd';
}
