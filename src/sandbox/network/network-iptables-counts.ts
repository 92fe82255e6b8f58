import { isIP } from 'node:net';
import type { BlockedDestination } from './network-rules-types.js';

/**
 * What the iptables rules (network-iptables.ts) counted, read from the kernel's own words. iptables
 * has no set that records each destination with a counter, as nftables has; what it has is the
 * `hashlimit` match, whose table (`/proc/net/ipt_hashlimit/<name>`, `ip6t_hashlimit` for IPv6) holds
 * one entry per destination it saw (address and port, one table per protocol) with a credit that
 * each packet spends and time refills. The rules give each entry {@link HASHLIMIT_BURST} packets of
 * credit, refilled at one packet per {@link HASHLIMIT_PERIOD_S} seconds (the most the kernel's 64-bit
 * credit holds), so the credit spent is the packets sent, exactly while a destination has had fewer
 * than that many and its first refusal is under that long ago, and a lower count after. The chain's
 * own counter counts every refused packet exactly; what the entries do not account for is reported
 * without a destination.
 */

/** The packets of credit each destination's entry starts with. */
export const HASHLIMIT_BURST = 96;
/** The seconds time takes to give one packet's credit back: 96 × 900 s is one day, the kernel's limit. */
export const HASHLIMIT_PERIOD_S = 900;

/**
 * The destinations in one hashlimit table's text: lines of `<expires> <src>:<sport>-><dst>:<dport>
 * <credit> <credit cap> <cost>` (IPv6 addresses written out in full). `withPort`: the table's key
 * holds the port (tcp, udp); otherwise the port the line shows is no port (0).
 */
export function parseHashlimit(text: string, protocol: string, withPort: boolean): BlockedDestination[] {
  const out: BlockedDestination[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length !== 5) continue;
    const [, pair = '', credit = '', cap = '', cost = ''] = fields;
    const destination = pair.split('->')[1] ?? '';
    const colon = destination.lastIndexOf(':');
    const address = canonical(destination.slice(0, colon));
    const port = Number(destination.slice(colon + 1));
    if (address === undefined || !/^\d+$/.test(credit + cap + cost) || !Number.isInteger(port)) continue;
    out.push({
      address,
      protocol,
      ...(withPort ? { port } : {}),
      packets: spent(BigInt(credit), BigInt(cap), BigInt(cost)),
    });
  }
  return out;
}

/**
 * Packets of credit spent, rounded up (what time gave back since is under one packet while the
 * count is exact), and at least one: an entry is made by a packet.
 */
function spent(credit: bigint, cap: bigint, cost: bigint): number {
  if (cost <= 0n || credit >= cap) return 1;
  const packets = Number((cap - credit + cost - 1n) / cost);
  return Math.max(1, packets);
}

/** An address as people write it: IPv6 compressed (`fd00:213::1`), IPv4 as it is; undefined: not an address. */
function canonical(address: string): string | undefined {
  if (isIP(address) === 4) return address;
  if (isIP(address) !== 6) return undefined;
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/** The packet count of the one rule in `iptables -v -S <chain> <n>` output (`-A chain … -c <packets> <bytes>`). */
export function parseRuleCounter(text: string): number | undefined {
  const counted = /^-A \S+.* -c (\d+) \d+\s*$/m.exec(text);
  return counted ? Number(counted[1]) : undefined;
}

/**
 * The same destination as one entry with the larger count: counts are read again after every
 * piece of work and never go down, though time gives credit back.
 */
export function keepHighest(
  seen: Map<string, BlockedDestination>,
  read: readonly BlockedDestination[],
): BlockedDestination[] {
  for (const d of read) {
    const key = `${d.address} ${d.protocol} ${d.port ?? ''}`;
    const before = seen.get(key);
    if (before === undefined || before.packets < d.packets) seen.set(key, d);
  }
  return [...seen.values()];
}
