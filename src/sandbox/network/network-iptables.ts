import { lookUp, type Programs } from '../../repo/programs.js';
import { processStart } from '../../repo/temp-folders.js';
import { asRoot, type Helpers } from '../account/account-switch.js';
import { startHolder, type HolderConfig } from './network-holder.js';
import {
  HASHLIMIT_BURST,
  HASHLIMIT_PERIOD_S,
  keepHighest,
  parseHashlimit,
  parseRuleCounter,
} from './network-iptables-counts.js';
import { removeLeftoverChains } from './network-leftovers.js';
import type { BlockedDestination, NetworkRules, NetworkRulesOptions } from './network-rules-types.js';
import { run } from '../account/run-helper.js';
import { SandboxError } from '../account/sandbox-types.js';

/**
 * The sealed network's rules in iptables and ip6tables, where nftables' `nft` is missing (a stock
 * runner has iptables, for Docker): the same rules as in nftables (network-nftables.ts), matched on
 * the sandbox account's uid with the `owner` match, in two chains of their own named for the action
 * (`plangate-<pid>-<start>`, and the same with `r` for refusals), which OUTPUT jumps to first, in
 * both families. They work on either backend of iptables (nf_tables or legacy): only the iptables
 * command's own interface is used.
 *
 * iptables has no rule set that the kernel deletes with its owner, so a root process holds them
 * (network-holder.ts) and removes them when the action ends, a SIGKILL included; rules whose action
 * and holder were both killed are removed by the next job that installs rules (network-leftovers.ts).
 *
 * Refusals are counted as nftables counts them, as far as iptables can record (network-iptables-counts.ts):
 * every refused packet exactly, each destination (address, protocol, port) in a hashlimit table.
 */

/** The programs the rules need, by absolute path. */
export interface IptablesPrograms {
  iptables: string;
  ip6tables: string;
  iptablesRestore: string;
  ip6tablesRestore: string;
}

/** The chains and hashlimit tables of one action's rules. */
export interface IptablesNames {
  /** `plangate-<pid>-<start>`: what OUTPUT jumps to. */
  main: string;
  /** The main chain's name and `r`: where refused packets are counted, recorded and refused. */
  refuse: string;
  /** The hashlimit tables' names, `pg<pid><protocol letter><family>` (the kernel allows 15 characters). */
  table(protocol: Recorded, family: Family): string;
}

export type Family = 4 | 6;

/** The protocols recorded each in a table of their own; `other` by address alone. */
export type Recorded = 'tcp' | 'udp' | 'icmp' | 'other';

const recorded: readonly Recorded[] = ['tcp', 'udp', 'icmp', 'other'];

/** The chains and tables of the action with this pid and start (kernel ticks since boot). */
export function iptablesNames(pid: number, start: number): IptablesNames {
  const main = `plangate-${pid}-${start}`;
  return { main, refuse: `${main}r`, table: (protocol, family) => `pg${pid}${protocol[0] ?? 'o'}${family}` };
}

/** iptables, ip6tables and their restore programs on the action's PATH, or undefined where any is missing. */
export function findIptables(h: Helpers): IptablesPrograms | undefined {
  const find = (name: string) => lookUp(name, h.programs.path);
  const [iptables, ip6tables, iptablesRestore, ip6tablesRestore] = [
    find('iptables'),
    find('ip6tables'),
    find('iptables-restore'),
    find('ip6tables-restore'),
  ];
  if (!iptables || !ip6tables || !iptablesRestore || !ip6tablesRestore) return undefined;
  return { iptables, ip6tables, iptablesRestore, ip6tablesRestore };
}

/** What the rule set of one family is made for. */
export interface IptablesRuleOptions {
  uid: number;
  ownUid: number;
  proxyPort: number;
}

/**
 * One family's rules as `iptables-restore --noflush` input: applied as one transaction, so either
 * all of them hold or none. The main chain leaves the action's own packets alone, refuses every other
 * account's packets to the proxy's port, and holds the sandbox account's to loopback; the refuse
 * chain counts every packet, records its destination in the protocol's table, and refuses it (a reset
 * for TCP, port unreachable for UDP, nothing for the rest), as the nftables rules do.
 */
export function restoreInput(family: Family, names: IptablesNames, o: IptablesRuleOptions): string {
  const { main, refuse } = names;
  const loopback = family === 4 ? '127.0.0.0/8' : '::1/128';
  const icmp = family === 4 ? 'icmp' : 'ipv6-icmp';
  const unreachable = family === 4 ? 'icmp-port-unreachable' : 'icmp6-port-unreachable';
  const record = (protocol: Recorded) =>
    [
      '-m hashlimit',
      `--hashlimit-upto ${3600 / HASHLIMIT_PERIOD_S}/hour`,
      `--hashlimit-burst ${HASHLIMIT_BURST}`,
      `--hashlimit-mode ${protocol === 'tcp' || protocol === 'udp' ? 'dstip,dstport' : 'dstip'}`,
      `--hashlimit-name ${names.table(protocol, family)}`,
      '--hashlimit-htable-size 1024 --hashlimit-htable-max 65536',
      // An entry lasts a week without packets: a job's whole length.
      '--hashlimit-htable-expire 604800000',
    ].join(' ');
  return [
    '*filter',
    `:${main} - [0:0]`,
    `:${refuse} - [0:0]`,
    `-A ${main} -m owner --uid-owner ${o.ownUid} -j RETURN`,
    // The proxy serves the sandbox: another account on the machine gets no way through it.
    ...(family === 4
      ? [
          `-A ${main} -d 127.0.0.0/8 -p tcp --dport ${o.proxyPort} -m owner ! --uid-owner ${o.uid} -j REJECT --reject-with tcp-reset`,
        ]
      : []),
    `-A ${main} -m owner ! --uid-owner ${o.uid} -j RETURN`,
    // DNS goes nowhere, a resolver on loopback included: its queries carry data out.
    `-A ${main} -p tcp --dport 53 -j ${refuse}`,
    `-A ${main} -p udp --dport 53 -j ${refuse}`,
    `-A ${main} -d ${loopback} -j ACCEPT`,
    `-A ${main} -j ${refuse}`,
    // Every packet refused, counted here: what the tables fail to record still shows.
    `-A ${refuse}`,
    `-A ${refuse} -p tcp ${record('tcp')}`,
    `-A ${refuse} -p tcp -j REJECT --reject-with tcp-reset`,
    `-A ${refuse} -p udp ${record('udp')}`,
    `-A ${refuse} -p udp -j REJECT --reject-with ${unreachable}`,
    `-A ${refuse} -p ${icmp} ${record('icmp')}`,
    `-A ${refuse} -p ${icmp} -j DROP`,
    `-A ${refuse} ${record('other')}`,
    `-A ${refuse} -j DROP`,
    `-I OUTPUT 1 -j ${main}`,
    'COMMIT',
    '',
  ].join('\n');
}

/** The commands that remove one action's rules from both families; each may fail where part is gone. */
export function removalCommands(p: Pick<IptablesPrograms, 'iptables' | 'ip6tables'>, names: IptablesNames): string[][] {
  return [p.iptables, p.ip6tables].flatMap((program) => [
    [program, '-w', '-D', 'OUTPUT', '-j', names.main],
    [program, '-w', '-F', names.main],
    [program, '-w', '-F', names.refuse],
    [program, '-w', '-X', names.main],
    [program, '-w', '-X', names.refuse],
  ]);
}

/** The holder's whole work for one action's rules: install, check, read, remove. */
export function holderConfig(
  p: IptablesPrograms,
  names: IptablesNames,
  options: IptablesRuleOptions,
  path: string,
): HolderConfig {
  const families = [
    { family: 4 as const, program: p.iptables, restore: p.iptablesRestore, proc: '/proc/net/ipt_hashlimit' },
    { family: 6 as const, program: p.ip6tables, restore: p.ip6tablesRestore, proc: '/proc/net/ip6t_hashlimit' },
  ];
  return {
    path,
    install: families.map((f) => ({
      command: [f.restore, '-w', '--noflush'],
      input: restoreInput(f.family, names, options),
    })),
    remove: removalCommands(p, names),
    check: families.flatMap((f) => [
      [f.program, '-w', '-C', 'OUTPUT', '-j', names.main],
      [f.program, '-w', '-C', names.main, '-j', names.refuse],
    ]),
    read: {
      commands: families.map((f) => [f.program, '-w', '-v', '-S', names.refuse, '1']),
      files: families.flatMap((f) => recorded.map((protocol) => `${f.proc}/${names.table(protocol, f.family)}`)),
    },
  };
}

/**
 * Removes what killed jobs left, then installs the rules for `options.uid` through a holder and
 * keeps them until `close`. Throws SandboxError naming the cause when they cannot be installed.
 */
export async function installIptablesRules(options: NetworkRulesOptions): Promise<NetworkRules> {
  const { helpers: h, how } = options;
  const programs = findIptables(h);
  if (programs === undefined)
    throw new SandboxError(
      `iptables is not installed (no iptables, ip6tables and their restore programs on PATH: ${h.programs.path})`,
    );
  await removeLeftoverChains(h, how, programs);
  const names = iptablesNames(process.pid, (await processStart(process.pid)) ?? 0);
  const ruleOptions = {
    uid: options.uid,
    ownUid: options.ownUid ?? process.getuid?.() ?? 0,
    proxyPort: options.proxyPort,
  };
  const config = holderConfig(programs, names, ruleOptions, h.programs.path);
  let holder;
  try {
    holder = await startHolder(config, h, how);
  } catch (error) {
    throw new SandboxError(
      `the network rules could not be installed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const seen = new Map<string, BlockedDestination>();
  let closed = false;
  return {
    firewall: `${await version(h.programs, programs.iptables)} (${programs.iptables}, with ip6tables)`,
    name: names.main,
    async blocked() {
      if (closed) return { destinations: [], packets: 0 };
      const reading = await holder.read();
      const totals = reading.outputs.map((o) => (o === null ? undefined : parseRuleCounter(o)));
      if (totals.some((t) => t === undefined)) throw new Error('the refuse chains could not be read');
      const read = config.read.files.flatMap((file, i) => {
        const text = reading.files[i];
        if (text === null || text === undefined) return [];
        const protocol = tableProtocol(names, file);
        return parseHashlimit(text, protocol, protocol === 'tcp' || protocol === 'udp');
      });
      return {
        destinations: keepHighest(seen, read),
        packets: totals.reduce<number>((sum, t) => sum + (t ?? 0), 0),
      };
    },
    async inForce() {
      if (closed) return 'the rules were removed';
      const why = await holder.check();
      return why === undefined ? undefined : `the iptables rules ${names.main} are no longer in force: ${why}`;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (await holder.close()) return;
      // The holder ended before it could remove them (killed): they must not outlive the job.
      for (const [program = '', ...args] of config.remove) await asRoot(h, program, args, how).catch(() => undefined);
    },
  };
}

/** The protocol whose table `file` is, by its name. */
function tableProtocol(names: IptablesNames, file: string): Recorded {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return (
    recorded.find((protocol) => ([4, 6] as const).some((family) => names.table(protocol, family) === base)) ?? 'other'
  );
}

/** `iptables v1.8.9 (nf_tables)`: the version and the backend, for the job log. */
async function version(programs: Programs, iptables: string): Promise<string> {
  try {
    return (await run(programs, iptables, ['--version'])).stdout.trim() || 'iptables';
  } catch {
    return 'iptables';
  }
}
