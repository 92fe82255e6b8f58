import { unrecordedDestinations } from '../sandbox/sandbox.js';
import type { RefusedDestination } from '../sandbox/sandbox.js';
import {
  destinationCovers,
  destinationEntrySchema,
  isForbiddenAddress,
  scopeDestinations,
  type Destination,
} from '../scope/network-destinations.js';

/**
 * What the sealed network refused during a command, as its tool result says it: each destination
 * once, with its attempts, and what the executor can do about it. A destination `allowed-domains`
 * allows but the approved plan does not name can be asked for (a revised plan names it, which stops
 * the run for an amendment a maintainer approves); one it does not allow needs the workflow changed
 * first. Empty when nothing was refused.
 */

/** What the run may reach: the workflow's ceiling and what the approval took of it. */
export interface NetworkAllowance {
  /** What `allowed-domains` allows (bundles expanded). */
  allowed: readonly Destination[];
  /** The approved scope's `network`, as people write it. */
  approved: readonly string[];
}

export function refusedText(refused: readonly RefusedDestination[], allowance?: NetworkAllowance): string {
  if (refused.length === 0) return '';
  const lines = refused.map((r) => {
    const what =
      r.by === 'firewall'
        ? `${r.attempts} packet${r.attempts === 1 ? '' : 's'}`
        : `${r.attempts} request${r.attempts === 1 ? '' : 's'}`;
    return `- ${r.destination}: ${what} refused${r.reason ? ` (${r.reason})` : ''}`;
  });
  const head = `The sealed network refused ${refused.length === 1 ? 'one destination' : `${refused.length} destinations`}:`;
  if (!allowance)
    return [
      head,
      ...lines,
      'Commands reach only loopback and the allowed destinations (`allowed-domains` in a workflow, `--allowed-domains` locally), through the proxy in HTTP_PROXY. If the work needs one of these, say which and why in your result: a maintainer can allow it.',
    ].join('\n');
  return [
    head,
    ...lines,
    "Commands reach only loopback and the destinations this run's approved plan names, through the proxy in HTTP_PROXY.",
    ...advice(refused, allowance),
  ].join('\n');
}

type Standing = 'closed' | 'direct' | 'ask' | 'ceiling';

/** What the executor can do about each refused destination, grouped by what it takes. */
function advice(refused: readonly RefusedDestination[], allowance: NetworkAllowance): string[] {
  const approved = scopeDestinations(allowance.approved);
  const by = new Map<Standing, string[]>();
  for (const r of refused.filter((r) => r.destination !== unrecordedDestinations)) {
    const standing = standingOf(r, allowance.allowed, approved);
    const named = `\`${r.destination.replace(/ \([a-z0-9]+\)$/, '')}\``;
    const list = by.get(standing) ?? [];
    if (!list.includes(named)) list.push(named);
    by.set(standing, list);
  }
  const said = (standing: Standing) => (by.get(standing) ?? []).join(', ');
  return [
    by.has('ask')
      ? `- ${said('ask')}: \`allowed-domains\` allows it, but the approved plan does not name it. If the work needs it, say which and why in your result with outcome replan: a revised plan names it in a step's \`network\`, and that stops the run for an amendment a maintainer approves.`
      : '',
    by.has('ceiling')
      ? `- ${said('ceiling')}: not in \`allowed-domains\`, so no plan or amendment can open it. If the work needs it, say so in your result: a maintainer must add it to the workflow's \`allowed-domains\` first.`
      : '',
    by.has('direct')
      ? `- ${said('direct')}: allowed for this run, but only through the proxy in HTTP_PROXY; connections that go around it are always refused.`
      : '',
    by.has('closed') ? `- ${said('closed')}: a link-local, cloud metadata or NAT64 address, closed to every run.` : '',
  ].filter((line) => line !== '');
}

/** Where a refused destination stands: closed to all, allowed but reached around the proxy, allowed by the workflow only, or not at all. */
function standingOf(
  r: RefusedDestination,
  allowed: readonly Destination[],
  approved: readonly Destination[],
): Standing {
  // As network-seal.ts writes it: `host:port`, or with the protocol after it for a packet.
  const parsed = destinationEntrySchema.safeParse(r.destination.replace(/ \([a-z0-9]+\)$/, ''));
  const d = parsed.success ? parsed.data[0] : undefined;
  if (!d) return 'ceiling';
  // The proxy says so when a name resolved to such an address.
  if (isForbiddenAddress(d.host) || /link-local/.test(r.reason ?? '')) return 'closed';
  const covered = (list: readonly Destination[]) => list.some((a) => destinationCovers(a, d));
  if (!covered(allowed)) return 'ceiling';
  // The proxy lets an approved destination through, so only a packet around it is refused.
  return covered(approved) && r.by === 'firewall' ? 'direct' : 'ask';
}
