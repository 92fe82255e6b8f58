import { lookup as systemLookup } from 'node:dns/promises';
import { connect, isIP, type Socket } from 'node:net';
import {
  destinationAllowed,
  embeddedIPv4,
  formatDestination,
  isForbiddenAddress,
  type Destination,
} from '../../scope/network-destinations.js';

/**
 * What the egress proxy decides before it opens anything: whether a destination a sandboxed client
 * named is allowed, which addresses it may be reached at, and the one connection to them. The host
 * name is resolved here, once, and the connection goes to an address that was vetted, so a DNS
 * answer that changes between check and connect (rebinding) cannot swap the destination.
 */

/** Resolves a host name to all of its addresses, as `dns.promises.lookup(host, { all: true })` does. */
export type EgressLookup = (host: string) => Promise<{ address: string; family: number }[]>;

/** The system resolver: the sandbox has no DNS of its own, so the proxy resolves for it. */
export const systemEgressLookup: EgressLookup = (host) => systemLookup(host, { all: true });

/** What the proxy's two paths (CONNECT tunnels and plain HTTP) share. */
export interface EgressContext {
  destinations: readonly Destination[];
  lookup: EgressLookup;
  idleTimeoutMs: number;
  /** Registers a socket so that closing the proxy ends it; destroys it at once if the proxy is closed. */
  track(socket: Socket): void;
  closed(): boolean;
  refuse(host: string, port: number, reason: string): void;
}

/** A destination reached: the open upstream socket. Otherwise the status and text to answer with. */
export type Reached = { socket: Socket } | { status: 403 | 502 | 503; message: string };

/** A new connection that gets no answer within this long is given up (the next address is tried). */
const CONNECT_TIMEOUT_MS = 15_000;

const CLOSED_TO_ALL = 'a link-local, cloud metadata or NAT64 address, closed whatever allowed-domains says';

/**
 * Vets `host:port` (as the client named it: lower case, no brackets) and connects to it. A refusal
 * by the policy is recorded and answered 403; a name that does not resolve or an address that does
 * not answer is answered 502 with the cause.
 */
export async function reach(context: EgressContext, host: string, port: number): Promise<Reached> {
  const where = formatDestination({ host, port });
  const refused = (reason: string): Reached => {
    context.refuse(host, port, reason);
    return { status: 403, message: `plangate's egress proxy refused ${where}: ${reason}.\n` };
  };
  if (isIP(host) !== 0 && isForbiddenAddress(host)) return refused(closedToAll(host));
  if (!destinationAllowed(context.destinations, host, port)) return refused('not allowed for this run');
  const resolved = isIP(host) !== 0 ? [host] : await resolve(context.lookup, host);
  if (typeof resolved === 'string') {
    return { status: 502, message: `plangate's egress proxy could not resolve ${host}: ${resolved}.\n` };
  }
  const closedTo = resolved.find(isForbiddenAddress);
  if (closedTo !== undefined) return refused(`resolves to ${closedTo}, ${closedToAll(closedTo)}`);
  if (context.closed()) return { status: 503, message: `plangate's egress proxy is closing.\n` };
  try {
    return { socket: await openUpstream(context, resolved, port) };
  } catch (error) {
    return { status: 502, message: `plangate's egress proxy could not connect to ${where}: ${cause(error)}.\n` };
  }
}

/**
 * Why `address` is closed to every run, naming the IPv4 address an IPv6 one stands for (NAT64's
 * 64:ff9b::a9fe:a9fe is 169.254.169.254), so a refusal of a spelling reads as what it reaches.
 */
function closedToAll(address: string): string {
  if (isIP(address) !== 6) return CLOSED_TO_ALL;
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    // A zone index (fe80::1%eth0): link-local, and nothing embedded.
    return CLOSED_TO_ALL;
  }
  const stands = embeddedIPv4(canonical);
  const nat64 = /^64:ff9b:/.test(canonical);
  if (stands !== undefined) return `${CLOSED_TO_ALL}: ${address} stands for ${stands}${nat64 ? ' through NAT64' : ''}`;
  return nat64 ? `${CLOSED_TO_ALL}: ${address} is a NAT64 address, which reaches IPv4 addresses` : CLOSED_TO_ALL;
}

/** The addresses `host` resolves to, or the cause when it resolves to none. */
async function resolve(lookup: EgressLookup, host: string): Promise<string[] | string> {
  try {
    const addresses = (await lookup(host)).map((a) => a.address);
    return addresses.length > 0 ? addresses : 'no address';
  } catch (error) {
    return cause(error);
  }
}

/**
 * The first of `addresses` that accepts a connection, tried in the resolver's order. Each is an IP
 * address, so `net.connect` looks nothing up: what was vetted is what is reached.
 */
async function openUpstream(context: EgressContext, addresses: readonly string[], port: number): Promise<Socket> {
  let last: unknown = new Error('no address');
  for (const address of addresses) {
    if (context.closed()) break;
    try {
      const socket = await connectTo(context, address, port);
      if (!context.closed()) return socket;
      socket.destroy();
    } catch (error) {
      last = error;
    }
  }
  throw context.closed() ? new Error('the proxy is closing') : last;
}

function connectTo(context: EgressContext, address: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port, allowHalfOpen: true });
    // Errors after the connection are handled through 'close' by whoever holds the socket; this
    // listener keeps one from ever becoming an uncaught exception in the action.
    socket.on('error', () => {});
    context.track(socket);
    socket.setTimeout(CONNECT_TIMEOUT_MS, () =>
      socket.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
    );
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('closed')));
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

/** An error's code (ENOTFOUND, ECONNREFUSED) or its message: what a person can act on. */
function cause(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}
