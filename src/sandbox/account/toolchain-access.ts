import { readFile, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { asAccount, asRoot, type Helpers, type Switch } from './account-switch.js';
import { lookUp } from '../../repo/programs.js';
import { locate, type RunFailure } from './run-helper.js';

/**
 * The toolchains on the PATH, made reachable to the sandbox account for the run. Setup actions
 * install Node, Python and the rest under the runner user's home (0750 on current Ubuntu, 0700
 * elsewhere) or in a checkout only its owner may enter; the account, which must run them, could
 * not even pass through. Each folder on the way that the account cannot pass gets an ACL entry for
 * the account alone (passage, not listing), the PATH folder itself read and passage, and every
 * entry is removed when the sandbox closes, or, when a killed job never closed it, by the next job
 * that prepares the account (`revokeLeftoverGrants`). Nothing else changes: no mode bit, no owner,
 * and no other account gains anything.
 *
 * Where the grants cannot be made (no setfacl, a file system without ACLs), the folders stay as
 * they are and are named: a command whose program lies in one gets the cause and the fix instead
 * of a bare "not found".
 */

/** What the account may now reach, and what it still cannot. */
export interface ToolchainAccess {
  /** The folders given an ACL entry for the account, to be revoked. */
  granted: string[];
  /** PATH folders the account still cannot use, and why; empty when every one is usable. */
  unreachable: string[];
  cause?: string;
}

/** The ledger of grants, in the account's run folder (the action's own, 0711), for a killed job's successor. */
const LEDGER = 'path-grants.json';

const ledgerSchema = z.object({
  uid: z.number().int().positive(),
  folders: z.array(z.string().startsWith('/').max(4096)).max(10_000),
});

/** A folder's chain: every folder from the top down to it, each with what the account needs of it. */
type Need = 'x' | 'rx';
interface Link {
  folder: string;
  need: Need;
}

/** At most this many rounds of grants: one for each nested folder that was closed to the account. */
const MAX_ROUNDS = 16;

/**
 * Lets the account use the folders on `pathList` (absolute entries only), recording each grant in
 * `p.dir` before it is made. A folder above one of `keepClosed` (the runner's workspace and temp
 * folder) is never opened: passage through it would lead to what the sandbox keeps from the account.
 * Never throws: what could not be granted is reported in the answer.
 */
export async function openToolchains(
  h: Helpers,
  p: Switch & { dir: string },
  pathList: string,
  keepClosed: readonly string[] = [],
): Promise<ToolchainAccess> {
  const chains = await chainsOf(pathList);
  const granted: string[] = [];
  let cause: string | undefined;
  let failing = await closedLinks(h, p, chains);
  for (let round = 0; round < MAX_ROUNDS && failing.size > 0; round++) {
    // The shallowest closed link of each chain: a deeper one may open once its parent does.
    const next = new Map<string, Need>();
    for (const chain of chains) {
      const first = chain.find((l) => failing.has(l.folder));
      if (!first || granted.includes(first.folder)) continue;
      const guarded = keepClosed.find((place) => place === first.folder || place.startsWith(`${first.folder}/`));
      if (guarded === undefined) next.set(first.folder, first.need);
      else
        cause ??= `passage through ${first.folder} would let it reach ${guarded}, which holds the runner's checkout or its temporary files, credentials among them`;
    }
    if (next.size === 0) break;
    try {
      await recordGrants(p, [...granted, ...next.keys()]);
      await grant(h, p, next);
      granted.push(...next.keys());
    } catch (error) {
      cause = grantFailure(error);
      break;
    }
    failing = await closedLinks(h, p, chains);
  }
  const unreachable = chains
    .filter((chain) => chain.some((l) => failing.has(l.folder)))
    .map((chain) => chain[chain.length - 1]?.folder ?? '');
  if (unreachable.length > 0) cause ??= 'ACL entries were granted but the account still cannot pass';
  return { granted, unreachable: [...new Set(unreachable)], ...(unreachable.length > 0 ? { cause } : {}) };
}

/** Removes the account's entries from `folders`. Never throws: a folder may be gone meanwhile. */
export async function closeToolchains(h: Helpers, p: Switch, folders: readonly string[]): Promise<void> {
  for (const folder of folders) {
    const entry = `u:${p.identity.uid}`;
    // With the mask, when the account's was the only named entry: the folder is as it was before.
    await asRoot(h, 'setfacl', ['-x', `${entry},m::`, '--', folder], p.how)
      .catch(() => asRoot(h, 'setfacl', ['-x', entry, '--', folder], p.how))
      .catch(() => undefined);
  }
}

/** Revokes the grants recorded in a killed job's run folder `dir` for this account. Never throws. */
export async function revokeLeftoverGrants(h: Helpers, p: Switch, dir: string): Promise<void> {
  const text = await readFile(path.join(dir, LEDGER), 'utf8').catch(() => undefined);
  if (text === undefined) return;
  let parsed: z.infer<typeof ledgerSchema>;
  try {
    parsed = ledgerSchema.parse(JSON.parse(text));
  } catch {
    return;
  }
  // Only this account's entries: the ledger is in a folder of this account's, made by this runner's user.
  if (parsed.uid === p.identity.uid) await closeToolchains(h, p, parsed.folders);
}

/**
 * The cause and the fix when `program` (found on `pathList` as the action finds it) lies in a PATH
 * folder the account still cannot reach; undefined otherwise.
 */
export function outOfReachText(
  access: ToolchainAccess,
  program: string,
  pathList: string,
  account: string,
): string | undefined {
  const file = program.includes('/') ? program : lookUp(program, pathList);
  const folder = file === undefined ? undefined : access.unreachable.find((f) => file.startsWith(`${f}/`));
  if (folder === undefined) return undefined;
  return (
    `${program} is in ${folder}, which the command account ${account} cannot reach (${access.cause ?? 'closed to it'}). ` +
    `Install the toolchain where other accounts can pass (a tool cache outside the runner's home and work folder, or chmod o+x on the folders above it), or, where setfacl is missing, the acl package, so plangate can let the account through for the run.`
  );
}

/** Each existing PATH folder (and its real location, when a link leads elsewhere) as its chain of links. */
async function chainsOf(pathList: string): Promise<Link[][]> {
  const folders = new Set<string>();
  for (const entry of pathList.split(path.delimiter)) {
    if (!path.isAbsolute(entry) || entry.includes('\n')) continue;
    const info = await stat(entry).catch(() => undefined);
    if (!info?.isDirectory()) continue;
    folders.add(path.resolve(entry));
    folders.add(await realpath(entry).catch(() => path.resolve(entry)));
  }
  return [...folders].map((folder) => {
    const parts = folder.split('/').filter(Boolean);
    return parts.map((_, i) => ({
      folder: `/${parts.slice(0, i + 1).join('/')}`,
      need: i === parts.length - 1 ? 'rx' : 'x',
    }));
  });
}

/**
 * The links the account cannot pass, asked of the account itself (one shell, each folder an
 * argument): what its own permission checks say, ACLs and groups included.
 */
async function closedLinks(h: Helpers, p: Switch, chains: readonly Link[][]): Promise<Set<string>> {
  const links = new Map<string, Need>();
  for (const chain of chains)
    for (const l of chain) links.set(l.folder, l.need === 'rx' ? 'rx' : (links.get(l.folder) ?? 'x'));
  if (links.size === 0) return new Set();
  const script =
    'while [ $# -gt 1 ]; do n=$1; d=$2; shift 2; ' +
    'if [ "$n" = rx ]; then { [ -r "$d" ] && [ -x "$d" ]; } || printf "%s\\n" "$d"; ' +
    'else [ -x "$d" ] || printf "%s\\n" "$d"; fi; done';
  const args = [...links].flatMap(([folder, need]) => [need, folder]);
  try {
    const { stdout } = await asAccount(h, p, ['sh', '-c', script, 'sh', ...args]);
    return new Set(stdout.split('\n').filter((line) => links.has(line)));
  } catch {
    // The account could not be asked: take every link as open and grant nothing blind.
    return new Set();
  }
}

/** Writes the ledger before the grants it lists, so a job killed in between still has them revoked. */
async function recordGrants(p: Switch & { dir: string }, folders: string[]): Promise<void> {
  const ledger: z.infer<typeof ledgerSchema> = { uid: p.identity.uid, folders };
  await writeFile(path.join(p.dir, LEDGER), JSON.stringify(ledger), { mode: 0o600 });
}

async function grant(h: Helpers, p: Switch, next: ReadonlyMap<string, Need>): Promise<void> {
  locate(h.programs, 'setfacl');
  for (const need of ['x', 'rx'] as const) {
    const folders = [...next].filter(([, n]) => n === need).map(([folder]) => folder);
    const perms = need === 'x' ? '--x' : 'r-x';
    if (folders.length > 0) await asRoot(h, 'setfacl', ['-m', `u:${p.identity.uid}:${perms}`, '--', ...folders], p.how);
  }
}

function grantFailure(error: unknown): string {
  const failure = error as RunFailure;
  if (failure.code === 'ENOENT') return 'setfacl is not installed';
  return `setfacl failed: ${failure.detail ?? (error instanceof Error ? error.message : String(error))}`;
}
