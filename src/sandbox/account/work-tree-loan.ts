import { chmod, chown } from 'node:fs/promises';
import { asRoot, type Helpers, type Switch } from './account-switch.js';
import { run, type RunFailure } from './run-helper.js';
import { SandboxError } from './sandbox-types.js';

/**
 * The work tree lent to the sandbox account while one of its processes works in it, and taken
 * back after: the account needs no access to anything of the action's, and between commands it can
 * change nothing.
 */

/**
 * Lets the account, and no other, pass through `enclosure`, the private folder around the work tree:
 * its group becomes the account's primary group, with passage (not listing) for that group alone.
 * Any other account on the machine, another job's command account included, cannot enter it.
 * SandboxError when it cannot.
 */
export async function openEnclosure(h: Helpers, p: Switch, enclosure: string): Promise<void> {
  try {
    // Only root may give a folder a group its owner is not in.
    if (p.how === 'root') await chown(enclosure, process.getuid?.() ?? 0, p.identity.gid);
    else await asRoot(h, 'chgrp', [String(p.identity.gid), '--', enclosure], 'sudo');
    await chmod(enclosure, 0o710);
  } catch (error) {
    const detail = (error as RunFailure).detail ?? (error instanceof Error ? error.message : String(error));
    throw new SandboxError(`Cannot let ${p.identity.user} reach the work tree: ${detail}.`);
  }
}

/** Makes the account the owner of the work tree; SandboxError when it cannot. */
export async function lendWorkTree(h: Helpers, p: Switch, workTree: string): Promise<void> {
  const owner = `${p.identity.uid}:${p.identity.gid}`;
  try {
    await asRoot(h, 'chown', ['-R', '-h', owner, '--', workTree], p.how);
  } catch (error) {
    throw new SandboxError(
      `Cannot hand the work tree to ${p.identity.user}: ${(error as RunFailure).detail ?? String(error)}.`,
    );
  }
}

/** Gives the work tree back to the action, readable whatever the account left in it. */
export async function takeBackWorkTree(h: Helpers, p: Switch, workTree: string): Promise<void> {
  const owner = `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`;
  if (p.how === 'root') {
    await run(h.programs, 'chown', ['-R', '-h', owner, '--', workTree]);
  } else {
    await asRoot(h, 'chown', ['-R', '-h', owner, '--', workTree], 'sudo');
    // The account may have left files only it could read; the action owns them now and must read them.
    await run(h.programs, 'chmod', ['-R', 'u+rwX', '--', workTree]);
  }
}
