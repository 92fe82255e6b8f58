import { once } from 'node:events';
import { createServer as createHttpServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Destination } from '../../src/scope/network-destinations.js';
import { startEgressProxy, type EgressProxy, type EgressProxyOptions } from '../../src/sandbox/network/egress-proxy.js';

// The host's egress proxy against real loopback servers: an HTTP origin that echoes what it got,
// and a TCP server that greets and echoes. Host names are the substituted resolver's only, so
// nothing here reaches DNS or the internet.

/** What the origin received, as it answers it. */
interface Echo {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let origin: Server;
let originPort: number;
let echo: TcpServer;
let echoPort: number;
let proxy: EgressProxy | undefined;

const portOf = (server: Server | TcpServer) => (server.address() as AddressInfo).port;

beforeAll(async () => {
  origin = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const echoed: Echo = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      res.writeHead(201, 'Made', { 'Content-Type': 'application/json', 'X-Origin': 'yes' });
      res.end(JSON.stringify(echoed));
    });
  });
  echo = createTcpServer((socket) => {
    socket.on('error', () => {});
    socket.write('hello\n');
    socket.pipe(socket);
  });
  await Promise.all([
    new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve)),
    new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve)),
  ]);
  originPort = portOf(origin);
  echoPort = portOf(echo);
});

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

afterAll(async () => {
  origin.closeAllConnections();
  await new Promise((resolve) => origin.close(resolve));
  await new Promise((resolve) => echo.close(resolve));
});

/** The test resolver: these names only; anything else does not resolve. */
const names: Record<string, string[]> = {
  'allowed.test': ['127.0.0.1'],
  'port.test': ['127.0.0.1'],
  'meta.test': ['169.254.169.254'],
  'mixed.test': ['127.0.0.1', '169.254.169.254'],
  'mapped.test': ['::ffff:a9fe:a9fe'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
};

async function lookup(host: string) {
  const addresses = names[host];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

async function start(options: Partial<EgressProxyOptions> = {}): Promise<EgressProxy> {
  const destinations: Destination[] = [
    { host: 'allowed.test' },
    { host: 'meta.test' },
    { host: 'mixed.test' },
    { host: 'mapped.test' },
    { host: 'gone.test' },
    { host: 'port.test', port: echoPort },
    { host: '169.254.169.254' },
    { host: 'nat64.test' },
    { host: '64:ff9b::a9fe:a9fe' },
    { host: '64:ff9b::a00:5' },
    { host: '64:ff9b:1::a00:5' },
  ];
  proxy = await startEgressProxy({ destinations, lookup, ...options });
  return proxy;
}

interface Tunnel {
  status: number;
  socket: Socket;
  /** Bytes after the proxy's answer that arrived with it. */
  head: Buffer;
}

/** `CONNECT target` through the proxy, as an HTTPS client behind HTTPS_PROXY sends it. */
async function connectThrough(p: EgressProxy, target: string): Promise<Tunnel> {
  const { hostname, port } = new URL(p.url);
  const req = request({ host: hostname, port, method: 'CONNECT', path: target, agent: false });
  req.end();
  const [res, socket, head] = (await once(req, 'connect')) as [{ statusCode: number }, Socket, Buffer];
  socket.on('error', () => {});
  return { status: res.statusCode, socket, head };
}

/**
 * What `socket` sends, `head` first, collected by one listener from the start, so that no chunk
 * is missed between two waits.
 */
function collect(socket: Socket, head: Buffer = Buffer.alloc(0)) {
  let text = head.toString();
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const closed = once(socket, 'close');
  return {
    /** Waits until what arrived contains `wanted`; fails if the socket closes first. */
    async until(wanted: string): Promise<string> {
      while (!text.includes(wanted)) {
        const next = await Promise.race([once(socket, 'data').then(() => 'data'), closed.then(() => 'closed')]);
        if (next === 'closed' && !text.includes(wanted)) throw new Error(`closed before ${wanted}: ${text}`);
      }
      return text;
    },
    /** Everything, once the socket has closed. */
    async all(): Promise<string> {
      await closed;
      return text;
    },
  };
}

/** Everything `socket` sends until it closes, after `head`. */
const readToEnd = (socket: Socket, head?: Buffer) => collect(socket, head).all();

interface Answer {
  status: number;
  message: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A plain HTTP request through the proxy, as a client behind HTTP_PROXY sends it (absolute URI). */
async function httpThrough(
  p: EgressProxy,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(p.url);
  const req = request({
    host: hostname,
    port,
    method: init.method ?? 'GET',
    path: url,
    headers: init.headers,
    agent: false,
  });
  req.end(init.body);
  const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
  let body = '';
  for await (const chunk of res) body += (chunk as Buffer).toString();
  return { status: res.statusCode ?? 0, message: res.statusMessage ?? '', headers: res.headers, body };
}

describe('the egress proxy', () => {
  it('listens on loopback and a port of its own', async () => {
    const p = await start();
    expect(p.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(p.url).port).not.toBe('0');
  });

  it('tunnels bytes both ways for a CONNECT to an allowed name', async () => {
    const p = await start();
    const tunnel = await connectThrough(p, `allowed.test:${echoPort}`);
    expect(tunnel.status).toBe(200);
    const received = collect(tunnel.socket, tunnel.head);
    // The server speaks first (server -> client), then echoes what the client sends (client -> server).
    expect(await received.until('hello\n')).toBe('hello\n');
    tunnel.socket.write('ping through the tunnel');
    expect(await received.until('ping')).toMatch(/^hello\nping/);
    expect(await received.until('tunnel')).toBe('hello\nping through the tunnel');
    tunnel.socket.end();
    expect(await received.all()).toBe('hello\nping through the tunnel');
    expect(p.refusals()).toEqual([]);
  });

  it('forwards a plain GET with its headers and the status, and adds nothing of its own', async () => {
    const p = await start();
    const answer = await httpThrough(p, `http://allowed.test:${originPort}/a/b?c=d`, {
      headers: {
        'X-Client': 'kept',
        'Proxy-Authorization': 'Basic c2VjcmV0OnNlY3JldA==',
        'Proxy-Connection': 'keep-alive',
        Connection: 'X-Hop',
        'X-Hop': 'for the proxy only',
      },
    });
    expect(answer.status).toBe(201);
    expect(answer.message).toBe('Made');
    expect(answer.headers['x-origin']).toBe('yes');
    const got = JSON.parse(answer.body) as Echo;
    expect(got.method).toBe('GET');
    expect(got.url).toBe('/a/b?c=d');
    // Host is the URL's authority (not the proxy's address the client put there); the rest is the client's.
    const { host, connection, ...rest } = got.headers;
    expect(host).toBe(`allowed.test:${originPort}`);
    expect(connection).toBe('close');
    expect(rest).toEqual({ 'x-client': 'kept' });
  });

  it('forwards a POST with its body, streamed as the client sent it', async () => {
    const p = await start();
    const body = 'x'.repeat(200_000);
    const answer = await httpThrough(p, `http://allowed.test:${originPort}/upload`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body,
    });
    expect(answer.status).toBe(201);
    const got = JSON.parse(answer.body) as Echo;
    expect(got.method).toBe('POST');
    expect(got.headers['content-length']).toBe(String(body.length));
    expect(got.body).toBe(body);
  });

  it('forwards a chunked POST, framed again for the origin', async () => {
    const p = await start();
    const { hostname, port } = new URL(p.url);
    const req = request({
      host: hostname,
      port,
      method: 'POST',
      path: `http://allowed.test:${originPort}/chunks`,
      agent: false,
    });
    req.write('first ');
    req.end('second');
    const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
    let text = '';
    for await (const chunk of res) text += (chunk as Buffer).toString();
    const got = JSON.parse(text) as Echo;
    expect(got.body).toBe('first second');
    expect(got.headers['transfer-encoding']).toBe('chunked');
  });

  it('answers 403 naming the destination for a name not in allowed-domains, and records it', async () => {
    const p = await start();
    const tunnel = await connectThrough(p, 'evil.test:443');
    expect(tunnel.status).toBe(403);
    const body = await readToEnd(tunnel.socket, tunnel.head);
    expect(body).toContain('evil.test:443');
    expect(body).toContain('not allowed for this run');

    const answer = await httpThrough(p, 'http://exfil.test/upload', { method: 'POST', body: 'canary' });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('exfil.test:80');
    expect(answer.body).toContain('not allowed for this run');

    const refusals = p.refusals();
    expect(refusals.map(({ host, port, reason }) => ({ host, port, reason }))).toEqual([
      { host: 'evil.test', port: 443, reason: 'not allowed for this run' },
      { host: 'exfil.test', port: 80, reason: 'not allowed for this run' },
    ]);
    for (const r of refusals) expect(typeof r.at).toBe('number');
  });

  it('refuses an IP address not listed as such, even one an allowed name resolves to', async () => {
    const p = await start();
    const tunnel = await connectThrough(p, `127.0.0.1:${echoPort}`);
    expect(tunnel.status).toBe(403);
    expect(await readToEnd(tunnel.socket, tunnel.head)).toContain('not allowed for this run');
    expect(p.refusals().map((r) => r.host)).toEqual(['127.0.0.1']);
  });

  it('refuses a listed name that resolves to a metadata address, and a listed metadata address', async () => {
    const p = await start();
    for (const target of ['meta.test:80', 'mixed.test:80', 'mapped.test:80', '169.254.169.254:80']) {
      const tunnel = await connectThrough(p, target);
      expect(tunnel.status, target).toBe(403);
      expect(await readToEnd(tunnel.socket, tunnel.head)).toContain('link-local, cloud metadata or NAT64');
    }
    const answer = await httpThrough(p, 'http://meta.test/latest/meta-data/');
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('resolves to 169.254.169.254');
    expect(p.refusals().map((r) => [r.host, r.reason])).toEqual([
      ['meta.test', expect.stringContaining('resolves to 169.254.169.254')],
      ['mixed.test', expect.stringContaining('resolves to 169.254.169.254')],
      ['mapped.test', expect.stringContaining('resolves to ::ffff:a9fe:a9fe')],
      ['169.254.169.254', expect.stringContaining('link-local, cloud metadata or NAT64')],
      ['meta.test', expect.stringContaining('resolves to 169.254.169.254')],
    ]);
  });

  it('refuses NAT64 addresses, listed or resolved to, naming the IPv4 address one stands for', async () => {
    const p = await start();
    for (const target of ['[64:ff9b::a9fe:a9fe]:80', '[64:ff9b::a00:5]:80', '[64:ff9b:1::a00:5]:80', 'nat64.test:80']) {
      const tunnel = await connectThrough(p, target);
      expect(tunnel.status, target).toBe(403);
      expect(await readToEnd(tunnel.socket, tunnel.head)).toContain('closed whatever allowed-domains says');
    }
    expect(p.refusals().map((r) => [r.host, r.reason])).toEqual([
      ['64:ff9b::a9fe:a9fe', expect.stringContaining('64:ff9b::a9fe:a9fe stands for 169.254.169.254 through NAT64')],
      ['64:ff9b::a00:5', expect.stringContaining('stands for 10.0.0.5 through NAT64')],
      ['64:ff9b:1::a00:5', expect.stringContaining('is a NAT64 address')],
      ['nat64.test', expect.stringContaining('resolves to 64:ff9b::a9fe:a9fe')],
    ]);
  });

  it('holds a listed port restriction', async () => {
    const p = await start();
    const refused = await connectThrough(p, `port.test:${originPort}`);
    expect(refused.status).toBe(403);
    expect(await readToEnd(refused.socket, refused.head)).toContain(`port.test:${originPort}`);
    const answer = await httpThrough(p, `http://port.test:${originPort}/`);
    expect(answer.status).toBe(403);

    const allowed = await connectThrough(p, `port.test:${echoPort}`);
    expect(allowed.status).toBe(200);
    expect(await collect(allowed.socket, allowed.head).until('hello\n')).toBe('hello\n');
    allowed.socket.destroy();
    expect(p.refusals().map((r) => `${r.host}:${r.port}`)).toEqual([
      `port.test:${originPort}`,
      `port.test:${originPort}`,
    ]);
  });

  it('answers 502 with the cause for a listed name that does not resolve, without a refusal', async () => {
    const p = await start();
    const tunnel = await connectThrough(p, 'gone.test:443');
    expect(tunnel.status).toBe(502);
    expect(await readToEnd(tunnel.socket, tunnel.head)).toContain('could not resolve gone.test: ENOTFOUND');
    const answer = await httpThrough(p, 'http://gone.test/');
    expect(answer.status).toBe(502);
    expect(answer.body).toContain('ENOTFOUND');
    expect(p.refusals()).toEqual([]);
  });

  it('connects to the address it vetted, never resolving the name again', async () => {
    // A resolver whose second answer for the name would be the metadata service: rebinding.
    const answers = [['127.0.0.1'], ['169.254.169.254']];
    let asked = 0;
    const rebinding = async (host: string) => {
      if (host !== 'allowed.test') return lookup(host);
      const addresses = answers[Math.min(asked, answers.length - 1)] ?? [];
      asked += 1;
      return addresses.map((address) => ({ address, family: 4 }));
    };
    const p = await start({ lookup: rebinding });
    const tunnel = await connectThrough(p, `allowed.test:${echoPort}`);
    expect(tunnel.status).toBe(200);
    expect(await collect(tunnel.socket, tunnel.head).until('hello\n')).toBe('hello\n');
    tunnel.socket.destroy();
    expect(asked).toBe(1);
  });

  it('refuses a request that is not for an absolute http:// URL', async () => {
    const p = await start();
    const answer = await httpThrough(p, '/relative');
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('absolute http://');
    const tunnel = await connectThrough(p, 'no-port.test');
    expect(tunnel.status).toBe(400);
    tunnel.socket.destroy();
  });

  it('ends an open tunnel when closed, and closes more than once without throwing', async () => {
    const p = await start();
    const tunnel = await connectThrough(p, `allowed.test:${echoPort}`);
    expect(tunnel.status).toBe(200);
    const received = collect(tunnel.socket, tunnel.head);
    await received.until('hello\n');
    await p.close();
    await received.all();
    expect(tunnel.socket.destroyed).toBe(true);
    await p.close();
  });

  it('ends a tunnel that stays idle', async () => {
    const p = await start({ idleTimeoutMs: 300 });
    const tunnel = await connectThrough(p, `allowed.test:${echoPort}`);
    expect(tunnel.status).toBe(200);
    // The client sends nothing: the tunnel ends on its own while the proxy keeps running.
    await readToEnd(tunnel.socket, tunnel.head);
    expect(tunnel.socket.destroyed).toBe(true);
    expect((await httpThrough(p, `http://allowed.test:${originPort}/`)).status).toBe(201);
  });

  it('closes connections beyond its cap unanswered', async () => {
    const p = await start({ maxConnections: 1 });
    const first = await connectThrough(p, `allowed.test:${echoPort}`);
    expect(first.status).toBe(200);
    const { hostname, port } = new URL(p.url);
    const second = request({ host: hostname, port, method: 'CONNECT', path: `allowed.test:${echoPort}`, agent: false });
    second.end();
    const [error] = (await once(second, 'error')) as [Error];
    expect(error.message).toMatch(/socket hang up|ECONNRESET/);
    first.socket.destroy();
  });
});
