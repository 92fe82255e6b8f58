import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { reach, type EgressContext } from './egress-vetting.js';

/**
 * The egress proxy's plain-HTTP path: `GET http://host:port/path` and the like, forwarded to the
 * vetted address with the client's method, headers and body, and the upstream's status, headers and
 * body streamed back. Nothing is added to what the client sent (no Via, no X-Forwarded-For, no
 * credential): the headers meant for the proxy itself are dropped, Host is the URL's authority
 * (RFC 9112, 3.2.2) and Connection says the one upstream connection ends with the response.
 */

/** Headers that concern one connection, not the request (RFC 9110, 7.6.1), and ones we answer ourselves. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/** Forwards one request, or answers it with the reason it was not. Never throws. */
export async function forwardRequest(context: EgressContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const target = requestTarget(req.url);
  if (!target) {
    answer(res, 400, `plangate's egress proxy forwards absolute http:// URLs and CONNECT tunnels only.\n`);
    return;
  }
  const reached = await reach(context, target.host, target.port);
  if ('status' in reached) {
    answer(res, reached.status, reached.message);
    return;
  }
  const upstreamSocket = reached.socket;
  if (req.destroyed) {
    upstreamSocket.destroy();
    return;
  }
  const headers = [...kept(req.rawHeaders, ['host']), 'Host', target.authority, 'Connection', 'close'];
  if (req.headers['transfer-encoding'] !== undefined) headers.push('Transfer-Encoding', 'chunked');
  const upstream = request({
    createConnection: () => upstreamSocket,
    method: req.method,
    path: target.path,
    headers,
    setHost: false,
  });
  upstream.setTimeout(context.idleTimeoutMs, () => upstream.destroy(new Error('idle')));
  upstream.on('response', (incoming) => {
    res.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, kept(incoming.rawHeaders, []));
    incoming.pipe(res);
    incoming.on('error', () => res.destroy());
  });
  upstream.on('error', (error) => {
    if (res.headersSent) res.destroy();
    else answer(res, 502, `plangate's egress proxy lost ${target.authority}: ${error.message}.\n`);
  });
  // One request per upstream connection: once the client's response is over, so is the connection.
  res.on('close', () => upstreamSocket.destroy());
  req.on('error', () => upstream.destroy());
  req.pipe(upstream);
}

/** A plain-text answer from the proxy itself. */
export function answer(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(message),
  });
  res.end(message);
}

interface RequestTarget {
  host: string;
  port: number;
  /** `host[:port]` as the URL parser writes it (no default port): the Host header the origin gets. */
  authority: string;
  path: string;
}

/**
 * The destination of an absolute-form request target (`http://host[:port]/path?query`), or
 * undefined for anything else. The host is the URL parser's (lower case, IDN as punycode, IPv4 in
 * dotted form), the path the client's own bytes, so the origin sees the path that was asked for.
 */
function requestTarget(raw: string | undefined): RequestTarget | undefined {
  const parts = /^http:\/\/([^/?#\\@]+)([/?][^#]*)?$/i.exec(raw ?? '');
  if (!parts) return undefined;
  let url: URL;
  try {
    url = new URL(raw ?? '');
  } catch {
    return undefined;
  }
  if (url.hostname === '') return undefined;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const path = parts[2] ?? '/';
  return {
    host,
    port: url.port === '' ? 80 : Number(url.port),
    authority: url.host,
    path: path.startsWith('?') ? `/${path}` : path,
  };
}

/** `raw` (name, value, name, value…) without hop-by-hop, `Proxy-*` and `dropped` headers. */
function kept(raw: readonly string[], dropped: readonly string[]): string[] {
  const named = new Set(dropped);
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() !== 'connection') continue;
    for (const name of (raw[i + 1] ?? '').split(',')) named.add(name.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || lower.startsWith('proxy-') || named.has(lower)) continue;
    out.push(name, raw[i + 1] ?? '');
  }
  return out;
}
