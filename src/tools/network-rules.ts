import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { z } from 'zod';
import { lookUp } from '../repo/programs.js';
import { asRoot, type Helpers } from './account-switch.js';
import { locate } from './run-helper.js';
import { SandboxError } from './sandbox-types.js';

/**
 * The operating system's half of the sealed network: nftables rules, matched on the sandbox
 * account's uid, that let its processes reach loopback only (the host's egress proxy listens there;
 * port 53 excepted, so no DNS query leaves through a local resolver), whatever they try: a raw
 * socket, their own DNS query, IPv6, a tool that ignores proxy settings. Every refused packet's
 * destination is counted in a set the kernel fills, so each attempt can be reported.
 *
 * The table is created with nftables' `owner` flag by an `nft -i` process that the action holds
 * open (as root, or through sudo): the kernel deletes an owned table when its owner's socket
 * closes, so the rules end with the job whatever way it ends, a SIGKILL included (the pipe to
 * `nft` closes, `nft` exits, the table goes).
 */

/** Packets the rules refused, by destination; counts are since the rules were installed. */
export interface BlockedDestination {
  address: string;
  /** The transport protocol: tcp, udp, icmp, … */
  protocol: string;
  /** Undefined for a protocol without ports. */
  port?: number;
  packets: number;
}

/** What the rules refused so far: by destination, and every packet in all. */
export interface RulesRefusals {
  destinations: BlockedDestination[];
  /** Every refused packet, recorded in a set or not (a set the kernel could not add to under pressure). */
  packets: number;
}

export interface NetworkRules {
  /** The table's name, `plangate_<pid>`. */
  readonly table: string;
  /** Every destination refused so far, with its packet count, and the packets refused in all. */
  blocked(): Promise<RulesRefusals>;
  /** Removes the rules. Never throws. */
  close(): Promise<void>;
}

export interface NetworkRulesOptions {
  /** The sandbox account's uid: the only one the rules hold. */
  uid: number;
  how: 'root' | 'sudo';
  helpers: Helpers;
}

/** The absolute path of `nft` on the action's PATH (absolute entries only), or undefined where it has none. */
export function findNft(h: Helpers): string | undefined {
  return lookUp('nft', h.programs.path);
}

/** The ruleset, in nft's own language: one owned table, one chain for the account, sets of what it refused. */
export function ruleset(table: string, uid: number): string {
  const t = `inet ${table}`;
  return [
    `add table ${t} { flags owner; }`,
    `add set ${t} ports4 { type ipv4_addr . inet_proto . inet_service; flags dynamic; counter; size 65535; }`,
    `add set ${t} ports6 { type ipv6_addr . inet_proto . inet_service; flags dynamic; counter; size 65535; }`,
    `add set ${t} other4 { type ipv4_addr . inet_proto; flags dynamic; counter; size 65535; }`,
    `add set ${t} other6 { type ipv6_addr . inet_proto; flags dynamic; counter; size 65535; }`,
    `add chain ${t} refuse`,
    // Every packet refused, counted once more here: what the sets fail to record still shows.
    `add rule ${t} refuse counter`,
    `add rule ${t} refuse meta nfproto ipv4 meta l4proto { tcp, udp } add @ports4 { ip daddr . meta l4proto . th dport } reject`,
    `add rule ${t} refuse meta nfproto ipv6 meta l4proto { tcp, udp } add @ports6 { ip6 daddr . meta l4proto . th dport } reject`,
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
    `add rule ${t} output meta skuid ${uid} goto sandbox`,
  ].join('\n');
}

/**
 * Installs the rules for `uid` and keeps them until `close`. Throws SandboxError naming the cause
 * when they cannot be installed (nftables missing, the kernel refusing).
 */
export async function installNetworkRules(options: NetworkRulesOptions): Promise<NetworkRules> {
  const { helpers: h, how } = options;
  const nft = findNft(h);
  if (nft === undefined)
    throw new SandboxError(`nftables is not installed (no nft program on PATH: ${h.programs.path})`);
  const table = `plangate_${process.pid}`;
  const child = how === 'root' ? spawnNft(nft, [], h) : spawnNft(locate(h.programs, h.sudo), ['-n', nft], h);
  const failure = await feed(child, ruleset(table, options.uid));
  if (failure !== undefined) {
    child.stdin.end();
    throw new SandboxError(`the network rules could not be installed: ${failure}`);
  }
  let closed = false;
  return {
    table,
    async blocked() {
      if (closed) return { destinations: [], packets: 0 };
      const { stdout } = await asRoot(h, nft, ['-j', 'list', 'table', 'inet', table], how);
      return { destinations: parseBlocked(stdout), packets: parseRefusedPackets(stdout) };
    },
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
        if (child.exitCode !== null) resolve();
      });
    },
  };
}

function spawnNft(file: string, args: string[], h: Helpers): ChildProcessWithoutNullStreams {
  return spawn(file, [...args, '-i'], { cwd: '/', env: { PATH: h.programs.path }, stdio: 'pipe' });
}

/**
 * Writes the ruleset to the interactive nft and waits until it is in force: a marker echoed after
 * it (nft answers `list` only once every earlier line ran) or an error nft printed. Resolves with
 * nft's error text, or undefined when the rules hold.
 */
function feed(child: ChildProcessWithoutNullStreams, rules: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    let output = '';
    const done = (value: string | undefined) => {
      child.stdout.removeAllListeners('data');
      child.stderr.removeAllListeners('data');
      resolve(value);
    };
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (/Error:/.test(output)) done(output.trim().split('\n').slice(0, 4).join(' '));
      else if (output.includes('chain output')) done(undefined);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', (error) => done(error.message));
    child.once('exit', (code) => done(output.trim() || `nft exited with code ${code ?? 'unknown'}`));
    const table = /add table (\S+ \S+)/.exec(rules)?.[1] ?? '';
    child.stdin.write(`${rules}\nlist chain ${table} output\n`);
  });
}

const elementSchema = z.object({
  elem: z.object({
    val: z.object({ concat: z.array(z.union([z.string(), z.number()])) }),
    counter: z.object({ packets: z.number() }).optional(),
  }),
});

const listingSchema = z.object({
  nftables: z.array(
    z.union([
      z.object({ set: z.object({ name: z.string(), elem: z.array(z.unknown()).optional() }) }),
      z.record(z.string(), z.unknown()),
    ]),
  ),
});

/** The refused destinations in `nft -j list table` output. */
export function parseBlocked(json: string): BlockedDestination[] {
  const listing = listingSchema.parse(JSON.parse(json));
  const out: BlockedDestination[] = [];
  for (const entry of listing.nftables) {
    if (!('set' in entry)) continue;
    const set = entry.set as { name: string; elem?: unknown[] };
    for (const raw of set.elem ?? []) {
      const parsed = elementSchema.safeParse(raw);
      if (!parsed.success) continue;
      const [address, protocol, port] = parsed.data.elem.val.concat;
      out.push({
        address: String(address),
        protocol: String(protocol),
        ...(typeof port === 'number' ? { port } : {}),
        packets: parsed.data.elem.counter?.packets ?? 1,
      });
    }
  }
  return out;
}

const counterRuleSchema = z.object({
  rule: z.object({
    chain: z.literal('refuse'),
    expr: z.tuple([z.object({ counter: z.object({ packets: z.number() }) })]),
  }),
});

/** The refuse chain's own counter in `nft -j list table` output: every packet refused. */
export function parseRefusedPackets(json: string): number {
  const listing = listingSchema.parse(JSON.parse(json));
  for (const entry of listing.nftables) {
    const parsed = counterRuleSchema.safeParse(entry);
    if (parsed.success) return parsed.data.rule.expr[0].counter.packets;
  }
  return 0;
}
