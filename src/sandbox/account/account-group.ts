import type { Programs } from '../../repo/programs.js';
import { accountEntries } from './account-database.js';
import { SandboxError, type AccountIdentity } from './sandbox-types.js';

/**
 * The folder around the work tree lets the sandbox account's primary group pass (work-tree-loan.ts),
 * and the copy's files are as readable as the checkout's: every other member of that group could
 * read the copy lent to the account. So the group must be the account's alone.
 */

/** Names shown in the refusal before "and N more": a shared group such as `users` may have hundreds. */
const namesShown = 5;

/**
 * Refuses the account when others are in its primary group: accounts whose primary group it is, and
 * members the group lists, as far as the system enumerates them (`getent`, which sees NSS accounts,
 * else /etc/passwd and /etc/group). SandboxError names them and what to change.
 */
export async function refuseSharedGroup(identity: AccountIdentity, programs: Programs): Promise<void> {
  const gid = String(identity.gid);
  const others = new Set<string>();
  for (const [user = '', , , primary] of await accountEntries('passwd', [], programs)) {
    if (primary === gid && user !== identity.user && user !== '') others.add(user);
  }
  for (const [, , id, members = ''] of await accountEntries('group', [gid], programs)) {
    if (id !== gid) continue;
    for (const member of members.split(',')) if (member !== '' && member !== identity.user) others.add(member);
  }
  if (others.size === 0) return;
  const names = [...others].sort();
  const shown = names.slice(0, namesShown).join(', ');
  const more = names.length > namesShown ? ` and ${names.length - namesShown} more` : '';
  throw new SandboxError(
    `command-user ${identity.user} shares its group (gid ${gid}) with ${shown}${more}, who could read the work tree lent to it. Give ${identity.user} a group of its own, as plangate does for the accounts it creates.`,
  );
}
