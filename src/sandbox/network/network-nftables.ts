import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { z } from 'zod';
import { lookUp } from '../../repo/programs.js';
import { asRoot, type Helpers } from '../account/account-switch.js';
import type { BlockedDestination, NetworkRules, NetworkRulesOptions } from './network-rules-types.js';
import { locate } from '../account/run-helper.js';
import { SandboxError } from '../account/sandbox-types.js';

/**
 * The sealed network's rules in nftables, where `nft` is installed: one table, matched on the
 * sandbox account's uid, whose sets the kernel fills with every refused destination and its packets.
 *
 * The table is created with nftables' `owner` flag by an `nft -i` process that the action holds
 * open (as root, or through sudo): the kernel deletes an owned table when its owner's socket
 * closes, so the rules end with the job whatever way it ends, a SIGKILL included (the pipe to
 * `nft` closes, `nft` exits, the table goes). No other process, root included, can change or delete
 * an owned table, so while that `nft` answers, the rules are as they were installed.
 */

/** How long the interactive nft may take to answer whether the table is still there. */
const ANSWER_TIMEOUT_MS = 15_000;

/** The absolute path of `nft` on the action's PATH (absolute entries only), or undefined where it has none. */
export function findNft(h: Helpers): string | undefined {
  return lookUp('nft', h.programs.path);
}

/**
 * The ruleset, in nft's own language: one owned table, one chain for the account, sets of what it
 * refused, and the proxy's port closed to every account but the sandbox's and the action's.
 */
export function ruleset(table: string, uid: number, proxyPort: number, ownUid: number): string {
  const t = `inet ${table}`;
  const proxyUsers = [...new Set([uid, ownUid])].join(', ');
  return [
    `add table ${t} { flags owner; }`,
    `add set ${t} ports4 { type ipv4_addr . inet_proto . inet_service; flags dynamic; counter; size 65535; }`,
    `add set ${t} ports6 { type ipv6_addr . inet_proto . inet_service; flags dynamic; counter; size 65535; }`,
    `add set ${t} other4 { type ipv4_addr . inet_proto; flags dynamic; counter; size 65535; }`,
    `add set ${t} other6 { type ipv6_addr . inet_proto; flags dynamic; counter; size 65535; }`,
    // Every packet refused, counted once more by protocol: what the sets fail to record still shows.
    `add set ${t} refused { type inet_proto; flags dynamic; counter; size 256; }`,
    `add chain ${t} refuse`,
    `add rule ${t} refuse add @refused { meta l4proto }`,
    // A reset for TCP: at once, where an ICMP error (which the kernel rate-limits) can leave a connect retrying.
    `add rule ${t} refuse meta nfproto ipv4 meta l4proto tcp add @ports4 { ip daddr . meta l4proto . th dport } reject with tcp reset`,
    `add rule ${t} refuse meta nfproto ipv6 meta l4proto tcp add @ports6 { ip6 daddr . meta l4proto . th dport } reject with tcp reset`,
    `add rule ${t} refuse meta nfproto ipv4 meta l4proto udp add @ports4 { ip daddr . meta l4proto . th dport } reject`,
    `add rule ${t} refuse meta nfproto ipv6 meta l4proto udp add @ports6 { ip6 daddr . meta l4proto . th dport } reject`,
    `add rule ${t} refuse meta nfproto ipv4 add @other4 { ip daddr . meta l4proto } drop`,
    `add rule ${t} refuse meta nfproto ipv6 add @other6 { ip6 daddr . meta l4proto } drop`,
    `add rule ${t} refuse drop`,
    `add chain ${t} sandbox`,
    // DNS goes nowhere, a resolver on loopback included: its queries carry data out.
    `add rule ${t} sandbox meta l4proto { tcp, udp } th dport 53 goto refuse`,
    `add rule ${t} sandbox ip daddr 127.0.0.0/8 accept`,
    `add rule ${t} sandbox ip6 daddr ::1 accept`,
    `add rule ${t} sandbox goto refuse`,
    `add chain ${t} output { type filter hook output priority filter; policy accept; }`,
    // The proxy serves the sandbox: another account on the machine gets no way through it.
    `add rule ${t} output ip daddr 127.0.0.0/8 tcp dport ${proxyPort} meta skuid != { ${proxyUsers} } reject with tcp reset`,
    `add rule ${t} output meta skuid ${uid} goto sandbox`,
  ].join('\n');
}

/**
 * Installs the rules for `options.uid` in an owned table and keeps them until `close`. Throws
 * SandboxError naming the cause when they cannot be installed.
 */
export async function installNftRules(options: NetworkRulesOptions): Promise<NetworkRules> {
  const { helpers: h, how } = options;
  const nft = findNft(h);
  if (nft === undefined)
    throw new SandboxError(`nftables is not installed (no nft program on PATH: ${h.programs.path})`);
  const table = `plangate_${process.pid}`;
  const child = how === 'root' ? spawnNft(nft, [], h) : spawnNft(locate(h.programs, h.sudo), ['-n', nft], h);
  const rules = ruleset(table, options.uid, options.proxyPort, options.ownUid ?? process.getuid?.() ?? 0);
  const failure = await feed(child, `${rules}\n`, table);
  if (failure !== undefined) {
    child.stdin.end();
    throw new SandboxError(`the network rules could not be installed: ${failure}`);
  }
  let closed = false;
  // One question at a time: steps that run together check before each of their commands.
  let asking: Promise<string | undefined> = Promise.resolve(undefined);
  return {
    firewall: `nftables (${nft})`,
    name: table,
    async blocked() {
      if (closed) return { destinations: [], packets: 0 };
      // The sets alone: nft 1.0's JSON for an owned table itself is broken (its flags print as garbage).
      const { stdout } = await asRoot(h, nft, ['-j', 'list', 'sets', 'inet'], how);
      return { destinations: parseBlocked(stdout, table), packets: parseRefusedPackets(stdout, table) };
    },
    async inForce() {
      if (closed) return 'the rules were removed';
      if (child.exitCode !== null || child.signalCode !== null)
        return `the nft process that holds the table ${table} has ended, and the kernel deleted the table with it`;
      // Asked of the holder itself: it answers only while it runs, and lists what the kernel has.
      const failure = await (asking = asking.then(() => feed(child, '', table)));
      return failure === undefined ? undefined : `nft, which holds the table ${table}, did not list it: ${failure}`;
    },
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
        if (child.exitCode !== null || child.signalCode !== null) resolve();
      });
    },
  };
}

function spawnNft(file: string, args: string[], h: Helpers): ChildProcessWithoutNullStreams {
  const child = spawn(file, [...args, '-i'], { cwd: '/', env: { PATH: h.programs.path }, stdio: 'pipe' });
  // A holder that ended is found by inForce; its closed pipe must not throw in the action.
  child.stdin.on('error', () => undefined);
  return child;
}

/**
 * Writes `commands` to the interactive nft, then asks it to list the table's output chain, and
 * waits until the listing comes (nft answers `list` only once every earlier line ran), nft prints an
 * error, or it ends. Resolves with what went wrong, or undefined when the table is there.
 */
function feed(child: ChildProcessWithoutNullStreams, commands: string, table: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    let output = '';
    const done = (value: string | undefined) => {
      clearTimeout(timer);
      child.stdout.removeListener('data', collect);
      child.stderr.removeListener('data', collect);
      child.removeListener('error', failed);
      child.removeListener('exit', exited);
      resolve(value);
    };
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (/Error:/.test(output)) done(output.trim().split('\n').slice(0, 4).join(' '));
      else if (output.includes('chain output')) done(undefined);
    };
    const failed = (error: Error) => done(error.message);
    const exited = (code: number | null) => done(output.trim() || `nft exited with code ${code ?? 'unknown'}`);
    const timer = setTimeout(() => done(`nft did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`), ANSWER_TIMEOUT_MS);
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', failed);
    child.once('exit', exited);
    if (child.exitCode !== null || child.signalCode !== null) {
      done('nft has ended');
      return;
    }
    child.stdin.write(`${commands}list chain inet ${table} output\n`);
  });
}

const elementSchema = z.object({
  elem: z.object({
    val: z.union([z.object({ concat: z.array(z.union([z.string(), z.number()])) }), z.string(), z.number()]),
    counter: z.object({ packets: z.number() }).optional(),
  }),
});

const listingSchema = z.object({
  nftables: z.array(
    z.union([
      z.object({ set: z.object({ name: z.string(), table: z.string(), elem: z.array(z.unknown()).optional() }) }),
      z.record(z.string(), z.unknown()),
    ]),
  ),
});

/** The elements of `table`'s sets in `nft -j list sets` output, by set name. */
function elements(json: string, table: string): Map<string, z.infer<typeof elementSchema>['elem'][]> {
  const listing = listingSchema.parse(JSON.parse(json));
  const out = new Map<string, z.infer<typeof elementSchema>['elem'][]>();
  for (const entry of listing.nftables) {
    if (!('set' in entry)) continue;
    const set = entry.set as { name: string; table: string; elem?: unknown[] };
    if (set.table !== table) continue;
    const parsed = (set.elem ?? []).flatMap((raw) => {
      const element = elementSchema.safeParse(raw);
      return element.success ? [element.data.elem] : [];
    });
    out.set(set.name, parsed);
  }
  return out;
}

/** The refused destinations of `table` in `nft -j list sets` output. */
export function parseBlocked(json: string, table: string): BlockedDestination[] {
  const out: BlockedDestination[] = [];
  for (const [name, elems] of elements(json, table)) {
    if (name === 'refused') continue;
    for (const elem of elems) {
      if (typeof elem.val !== 'object') continue;
      const [address, protocol, port] = elem.val.concat;
      out.push({
        address: String(address),
        protocol: String(protocol),
        ...(typeof port === 'number' ? { port } : {}),
        packets: elem.counter?.packets ?? 1,
      });
    }
  }
  return out;
}

/** Every packet `table` refused, from its `refused` set (a counter per protocol) in `nft -j list sets` output. */
export function parseRefusedPackets(json: string, table: string): number {
  return (elements(json, table).get('refused') ?? []).reduce((sum, elem) => sum + (elem.counter?.packets ?? 0), 0);
}
