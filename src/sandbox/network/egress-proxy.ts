import { createServer } from 'node:http';
import { isIP, type AddressInfo, type Socket } from 'node:net';
import type { Destination } from '../../scope/network-destinations.js';
import { answer, forwardRequest } from './egress-forward.js';
import { reach, systemEgressLookup, type EgressContext, type EgressLookup } from './egress-vetting.js';

/**
 * The host's egress proxy: the one way out of the sandbox. The operating system's rules let the
 * sandbox account reach only loopback; its commands and stdio MCP servers get HTTP_PROXY and
 * HTTPS_PROXY pointing here, and this proxy, run by the action on 127.0.0.1, opens connections only
 * to the destinations `allowed-domains` lists, never to a link-local or cloud metadata address.
 * Every refusal is answered 403 with its cause (so the tool's error names it) and recorded, so the
 * run can report what was blocked.
 *
 * Built on Node's own `http` and `net` rather than the proxy-chain package: proxy-chain can be
 * steered to a vetted address only by handing it a replacement `dns.lookup` (with that function's
 * callback overloads), it has neither a connection cap nor an idle timeout (both would reach into
 * its internals), it forwards plain HTTP with Node's lenient (`insecureHTTPParser`) parser and keeps
 * the client's Host header whatever the URL says, and it brings upstream-proxy and SOCKS chaining
 * (and their packages) into the bundle for nothing. What this needs (CONNECT, absolute-URI
 * forwarding, resolve once, connect to what was vetted) is short enough to read in full here.
 */

export interface ProxyRefusal {
  host: string;
  port: number;
  reason: string;
  /** ms since epoch */
  at: number;
}

export interface EgressProxy {
  /**
   * e.g. http://127.0.0.1:41234 : what HTTP_PROXY/HTTPS_PROXY are set to. With `socketPath`, the
   * socket as `unix:<path>`, which only a bridge (sandbox/network/namespace-bridge.ts) connects to.
   */
  readonly url: string;
  /** Every refusal so far, oldest first (a copy). */
  refusals(): ProxyRefusal[];
  /** Stops accepting, ends every open tunnel. Never throws. */
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  destinations: readonly Destination[];
  /** Resolves a host name to addresses; default: node:dns/promises lookup with {all:true}. Tests substitute it. */
  lookup?: EgressLookup;
  /** Connections open at once, clients' and upstream's each; more are closed unanswered. Default 256. */
  maxConnections?: number;
  /** A tunnel or request with no traffic either way for this long is ended. Default 10 minutes. */
  idleTimeoutMs?: number;
  /**
   * Listen on this unix socket instead of 127.0.0.1: a process in its own network namespace has a
   * loopback of its own, and reaches the host only through the file system (sandbox/network/namespace-seal.ts).
   * Its folder must be one only this user can enter.
   */
  socketPath?: string;
}

/**
 * Refusals kept: a command that loops on a refused destination cannot grow the action's memory
 * without bound. The first ones are kept, which name every destination a run was missing.
 */
const MAX_REFUSALS = 10_000;

/** Starts the proxy on 127.0.0.1 and a free port, or on `options.socketPath`. */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const maxConnections = options.maxConnections ?? 256;
  const sockets = new Set<Socket>();
  const refused: ProxyRefusal[] = [];
  let closed = false;
  const context: EgressContext = {
    destinations: options.destinations,
    lookup: options.lookup ?? systemEgressLookup,
    idleTimeoutMs: options.idleTimeoutMs ?? 10 * 60_000,
    track(socket) {
      if (closed) {
        socket.destroy();
        return;
      }
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    },
    closed: () => closed,
    refuse(host, port, reason) {
      if (refused.length < MAX_REFUSALS) refused.push({ host, port, reason, at: Date.now() });
    },
  };

  // requestTimeout 0: a long upload is not cut short; the idle timeout (server.timeout) bounds it.
  const server = createServer({ requestTimeout: 0 });
  server.maxConnections = maxConnections;
  server.timeout = context.idleTimeoutMs;
  server.on('connection', (socket: Socket) => context.track(socket));
  server.on('connect', (req, socket: Socket, head: Buffer) => void openTunnel(context, req.url, socket, head));
  server.on('request', (req, res) => {
    if (sockets.size >= 2 * maxConnections) {
      answer(res, 503, `plangate's egress proxy has too many connections open.\n`);
      return;
    }
    void forwardRequest(context, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const listening = () => {
      server.off('error', reject);
      resolve();
    };
    if (options.socketPath !== undefined) server.listen(options.socketPath, listening);
    else server.listen(0, '127.0.0.1', listening);
  });
  const url =
    options.socketPath !== undefined
      ? `unix:${options.socketPath}`
      : `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    refusals: () => refused.map((r) => ({ ...r })),
    async close() {
      if (closed) return;
      closed = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await stopped;
    },
  };
}

/**
 * A `CONNECT host:port` tunnel (HTTPS, or any TCP protocol): bytes both ways between the client
 * and the vetted address once the proxy answered 200, ended when either side ends or it idles.
 */
async function openTunnel(context: EgressContext, target: string | undefined, client: Socket, head: Buffer) {
  // After 'connect' the HTTP server no longer watches the socket's errors: a reset must not throw.
  client.on('error', () => client.destroy());
  const parsed = connectTarget(target);
  if (!parsed) {
    refuseTunnel(client, 400, `plangate's egress proxy expects CONNECT host:port.\n`);
    return;
  }
  const reached = await reach(context, parsed.host, parsed.port);
  if ('status' in reached) {
    refuseTunnel(client, reached.status, reached.message);
    return;
  }
  const upstream = reached.socket;
  if (client.destroyed) {
    upstream.destroy();
    return;
  }
  client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  if (head.length > 0) upstream.write(head);
  for (const socket of [client, upstream]) {
    socket.setTimeout(context.idleTimeoutMs, () => {
      client.destroy();
      upstream.destroy();
    });
  }
  client.pipe(upstream);
  upstream.pipe(client);
  // Either side gone: the other gets what was already sent, then ends too.
  client.once('close', () => upstream.end(() => upstream.destroy()));
  upstream.once('close', () => client.end(() => client.destroy()));
}

/** The answer to a CONNECT that opens nothing, written on the raw socket, which then ends. */
function refuseTunnel(client: Socket, status: number, message: string): void {
  const reason = { 400: 'Bad Request', 403: 'Forbidden', 502: 'Bad Gateway', 503: 'Service Unavailable' }[status];
  client.end(
    `HTTP/1.1 ${status} ${reason ?? 'Error'}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(message)}\r\nConnection: close\r\n\r\n${message}`,
  );
}

/** `host:port` or `[v6]:port`, the host in lower case and without brackets; undefined when malformed. */
function connectTarget(target: string | undefined): { host: string; port: number } | undefined {
  const parts = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9_.-]+)):(\d{1,5})$/i.exec(target ?? '');
  if (!parts) return undefined;
  const port = Number(parts[3]);
  const v6 = parts[1]?.toLowerCase();
  if (v6 !== undefined && isIP(v6) !== 6) return undefined;
  const host = v6 ?? (parts[2] ?? '').toLowerCase();
  return port >= 1 && port <= 65535 ? { host, port } : undefined;
}
