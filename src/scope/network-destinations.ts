import { isIP } from 'node:net';
import { z } from 'zod';
import { networkBundles, type NetworkBundle } from './network-bundles.js';

export { networkBundles, type NetworkBundle };

/**
 * The network destinations the sandbox may reach: what `allowed-domains` names, with the ecosystem
 * bundles expanded. Anything not on the list is closed to commands and stdio MCP servers (the
 * operating system's rules let the sandbox account reach only loopback, and the host's egress proxy
 * only these destinations); link-local and cloud-metadata addresses are closed whatever the list says.
 */

/** One destination: a host name, `*.` and a domain (its subdomains, not the domain itself), or an IP address; any port when none is named. */
export interface Destination {
  host: string;
  port?: number;
}

const bundleNames = Object.keys(networkBundles) as NetworkBundle[];

const isBundle = (entry: string): entry is NetworkBundle => (bundleNames as string[]).includes(entry);

/** A DNS name as a resolver accepts it: labels of letters, digits and hyphens. */
const hostName = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * One entry of `allowed-domains` as the destinations it names: a bundle's hosts, or one host with
 * an optional port (`example.com`, `*.example.com`, `example.com:8443`, `10.0.0.5`, `[fd00::5]:80`).
 */
export const destinationEntrySchema = z
  .string()
  .trim()
  .toLowerCase()
  .transform((entry, ctx): Destination[] => {
    if (isBundle(entry)) return networkBundles[entry].map((host) => ({ host }));
    const parsed = splitPort(entry);
    if (!parsed) {
      ctx.addIssue({ code: 'custom', message: `has a port that is not a number from 1 to 65535` });
      return z.NEVER;
    }
    const { host, port } = parsed;
    const name = host.startsWith('*.') ? host.slice(2) : host;
    if (isIP(host) === 0 && !hostName.test(name)) {
      ctx.addIssue({
        code: 'custom',
        message: `is neither a host name (example.com, *.example.com), an IP address nor a bundle (${bundleNames.join(', ')})`,
      });
      return z.NEVER;
    }
    return [{ host, ...(port !== undefined ? { port } : {}) }];
  });

/** `host[:port]`, with an IPv6 address in brackets when a port follows it; undefined: a bad port. */
function splitPort(entry: string): { host: string; port?: number } | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  const [host, port] = bracketed
    ? [bracketed[1] ?? '', bracketed[2]]
    : isIP(entry) === 6
      ? [entry, undefined]
      : (() => {
          const at = entry.lastIndexOf(':');
          return at === -1 ? [entry, undefined] : [entry.slice(0, at), entry.slice(at + 1)];
        })();
  if (port === undefined) return { host };
  const number = /^\d{1,5}$/.test(port) ? Number(port) : NaN;
  return number >= 1 && number <= 65535 ? { host, port: number } : undefined;
}

/**
 * `allowed-domains` as a plan names it: a bundle whose hosts are all allowed (on any port) by its
 * name, every other destination as people write it.
 */
export function allowedEntries(allowed: readonly Destination[]): string[] {
  const shown = allowed.map(formatDestination);
  const bundles = bundleNames.filter((name) => networkBundles[name].every((host) => shown.includes(host)));
  const inBundles = new Set<string>(bundles.flatMap((name) => networkBundles[name]));
  return [...new Set([...bundles, ...shown.filter((d) => !inBundles.has(d))])];
}

/** Whether `list` lets the sandbox reach `host` on `port` (the host as a client named it). */
export function destinationAllowed(list: readonly Destination[], host: string, port: number): boolean {
  const target = unbracket(host.trim().toLowerCase().replace(/\.$/, ''));
  return list.some((d) => {
    if (d.port !== undefined && d.port !== port) return false;
    if (d.host.startsWith('*.')) return target.endsWith(d.host.slice(1)) && target.length > d.host.length - 1;
    return unbracket(d.host) === target;
  });
}

const unbracket = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** A destination as a person writes it: `host` or `host:port`. */
export function formatDestination(d: Destination): string {
  const host = isIP(d.host) === 6 && d.port !== undefined ? `[${d.host}]` : d.host;
  return d.port === undefined ? host : `${host}:${d.port}`;
}

/**
 * Addresses no command may reach, whatever the list allows: link-local (where every cloud's
 * metadata service answers, with the instance's credentials), the metadata services that live
 * elsewhere, and NAT64's prefixes (64:ff9b::/96 and the local-use 64:ff9b:1::/48), whose addresses
 * are IPv4 addresses a translator reaches, 64:ff9b::a9fe:a9fe being 169.254.169.254. Other IPv6
 * spellings of an IPv4 address (IPv4-mapped and -compatible, 6to4) are held to what they embed. A
 * name on the list that resolves to one of these is refused too.
 */
export function isForbiddenAddress(address: string): boolean {
  const ip = address.toLowerCase();
  if (isIP(ip) === 4) {
    return (
      ip.startsWith('169.254.') ||
      // Azure's WireServer and Alibaba Cloud's metadata service.
      ip === '168.63.129.16' ||
      ip === '100.100.100.200'
    );
  }
  if (isIP(ip) === 6) {
    // One spelling for every way of writing the address (the WHATWG URL parser's): `::ffff:a9fe:a9fe`
    // is 169.254.169.254 as much as `::ffff:169.254.169.254` is.
    let canonical: string;
    try {
      canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
    } catch {
      // A zone index (fe80::1%eth0) does not parse; link-local addresses are the ones that carry one.
      return true;
    }
    if (isNat64(canonical)) return true;
    const embedded = embeddedIPv4(canonical);
    if (embedded !== undefined && isForbiddenAddress(embedded)) return true;
    // fe80::/10 (link-local) and AWS's IPv6 metadata address.
    return /^fe[89ab][0-9a-f]?:/.test(canonical) || canonical === 'fd00:ec2::254';
  }
  return false;
}

/** Whether `canonical` (as the URL parser writes an IPv6 address) is in 64:ff9b::/96 or 64:ff9b:1::/48. */
function isNat64(canonical: string): boolean {
  return (
    /^64:ff9b::(?:[0-9a-f]{1,4}:)?[0-9a-f]{1,4}$/.test(canonical) ||
    /^64:ff9b:1:/.test(canonical) ||
    canonical === '64:ff9b::'
  );
}

/**
 * The IPv4 address an IPv6 address (canonical, as the URL parser writes it) stands for: the last 32
 * bits of an IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96) or NAT64 (64:ff9b::/96) address,
 * bits 16 to 48 of a 6to4 one (2002::/16); undefined for any other.
 */
export function embeddedIPv4(canonical: string): string | undefined {
  const groups = (text: string) => text.split(':').map((g) => parseInt(g, 16));
  const dotted = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const tail = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (tail) {
    const [high = 0, low = 0] = groups(`${tail[1]}:${tail[2]}`);
    return dotted(high, low);
  }
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(?::|$)/.exec(canonical);
  if (sixToFour) {
    const [high = 0, low = 0] = groups(`${sixToFour[1]}:${sixToFour[2]}`);
    return dotted(high, low);
  }
  return undefined;
}

/**
 * The approved scope's network is what the plan's steps name (`network`), kept to what
 * `allowed-domains` allows: the workflow's list is the ceiling, the plan narrows it, and an
 * amendment widens it back within the ceiling. These compare destinations as patterns.
 */

/** `d` lower case, without a trailing dot or brackets: how destinations are compared. */
function plain(d: Destination): Destination {
  return { ...d, host: unbracket(d.host.trim().toLowerCase().replace(/\.$/, '')) };
}

/** Whether host pattern `outer` reaches every host pattern `inner` reaches (`*.x` reaches `a.x` and `*.a.x`). */
function hostCovers(outer: string, inner: string): boolean {
  return outer.startsWith('*.') ? inner.endsWith(outer.slice(1)) : outer === inner;
}

/** Whether `outer` lets through everything `inner` names. */
export function destinationCovers(outer: Destination, inner: Destination): boolean {
  const [o, i] = [plain(outer), plain(inner)];
  return hostCovers(o.host, i.host) && (o.port === undefined || o.port === i.port);
}

/** What `a` and `b` both name, or undefined when they share nothing. */
function overlap(a: Destination, b: Destination): Destination | undefined {
  const [x, y] = [plain(a), plain(b)];
  const host = hostCovers(x.host, y.host) ? y.host : hostCovers(y.host, x.host) ? x.host : undefined;
  if (host === undefined || (x.port !== undefined && y.port !== undefined && x.port !== y.port)) return undefined;
  const port = x.port ?? y.port;
  return { host, ...(port !== undefined ? { port } : {}) };
}

/** The parts of `wanted` that `allowed` lets through, each once: what a sealed network may reach. */
export function narrowDestinations(allowed: readonly Destination[], wanted: readonly Destination[]): Destination[] {
  const out = new Map<string, Destination>();
  for (const w of wanted)
    for (const a of allowed) {
      const both = overlap(a, w);
      if (both !== undefined && !(isIP(both.host) !== 0 && isForbiddenAddress(both.host)))
        out.set(formatDestination(both), both);
    }
  return [...out.values()];
}

/** Scope entries (as `formatDestination` writes them) as destinations; an entry that does not read names none. */
export function scopeDestinations(entries: readonly string[]): Destination[] {
  return entries.flatMap((entry) => {
    const parsed = destinationEntrySchema.safeParse(entry);
    return parsed.success ? parsed.data : [];
  });
}

/** Why a destination a plan names is not reachable: not in `allowed-domains`, closed to all, or not a destination at all. */
export type UnreachableWhy = 'not-allowed' | 'always-closed' | 'malformed';

/**
 * The destinations `named` (a plan's `network` entries, written as `allowed-domains` entries) that
 * `allowed` lets through, spelled as people write them, and the entries it does not wholly let
 * through, with why. A bundle name stands for its hosts; link-local and metadata addresses are never
 * reachable.
 */
export function namedDestinations(
  allowed: readonly Destination[],
  named: readonly string[],
): { reachable: string[]; unreachable: Array<{ entry: string; why: UnreachableWhy }> } {
  const reachable: string[] = [];
  const unreachable: Array<{ entry: string; why: UnreachableWhy }> = [];
  for (const entry of named) {
    const parsed = destinationEntrySchema.safeParse(entry);
    if (!parsed.success) {
      unreachable.push({ entry, why: 'malformed' });
      continue;
    }
    const closed = parsed.data.filter((d) => isIP(unbracket(d.host)) !== 0 && isForbiddenAddress(unbracket(d.host)));
    const open = parsed.data.filter((d) => !closed.includes(d));
    reachable.push(...narrowDestinations(allowed, open).map(formatDestination));
    if (closed.length > 0) unreachable.push({ entry, why: 'always-closed' });
    else if (!open.every((d) => allowed.some((a) => destinationCovers(a, d))))
      unreachable.push({ entry, why: 'not-allowed' });
  }
  return { reachable: [...new Set(reachable)], unreachable };
}
