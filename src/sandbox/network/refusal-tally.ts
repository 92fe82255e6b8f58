import { formatDestination } from '../../scope/network-destinations.js';
import type { EgressProxy } from './egress-proxy.js';
import type { RefusedDestination } from '../account/sandbox-types.js';

/**
 * What a sealed network refused so far, and what of it is new since the last report: shared by the
 * two ways of sealing (firewall rules on an account, sandbox/network/network-seal.ts; a network namespace,
 * sandbox/network/namespace-seal.ts), so that a refusal reads the same whichever sealed it.
 */
export interface Tally {
  /** Packets the rules refused, by destination key (always empty where no rules count them). */
  counts: Map<string, number>;
  /** Every refusal of the proxy, oldest first. */
  proxyRefusals: RefusedDestination[];
}

/** The key of refused packets whose destination the rules could not record (reported all the same). */
export const unrecordedDestinations = 'destinations the rules could not record';

/** Nothing refused yet. */
export function emptyTally(): Tally {
  return { counts: new Map<string, number>(), proxyRefusals: [] };
}

/** Every refusal of `proxy` so far, as the run reports it. */
export function proxyRefused(proxy: EgressProxy): RefusedDestination[] {
  return proxy.refusals().map((r): RefusedDestination => ({
    destination: formatDestination({ host: r.host, port: r.port }),
    by: 'proxy',
    attempts: 1,
    reason: r.reason,
  }));
}

/** What `now` holds beyond `before`: destinations refused since, with their new attempts. */
export function newSince(before: Tally, now: Tally): RefusedDestination[] {
  const out: RefusedDestination[] = [];
  for (const [destination, packets] of now.counts) {
    const added = packets - (before.counts.get(destination) ?? 0);
    if (added > 0) out.push({ destination, by: 'firewall', attempts: added });
  }
  return [...out, ...mergeSame(now.proxyRefusals.slice(before.proxyRefusals.length))];
}

/** One entry per destination and reason, attempts added up. */
function mergeSame(refusals: RefusedDestination[]): RefusedDestination[] {
  const merged = new Map<string, RefusedDestination>();
  for (const r of refusals) {
    const k = `${r.destination} ${r.reason ?? ''}`;
    const seen = merged.get(k);
    merged.set(k, seen ? { ...seen, attempts: seen.attempts + r.attempts } : r);
  }
  return [...merged.values()];
}
