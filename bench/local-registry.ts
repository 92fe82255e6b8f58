import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * An npm registry on loopback that serves tarballs from memory, as the public one serves them
 * (`GET /name/-/name-1.0.0.tgz`), and counts what it was asked: the benchmark checks that every
 * install really downloaded every tarball, and sees how many connections it took.
 */

export interface LocalRegistry {
  /** `http://127.0.0.1:port` or `https://…`, without a trailing slash. */
  readonly origin: string;
  readonly port: number;
  /** Requests, distinct tarballs served and accepted connections since the last call, which resets them. */
  takeCounts(): { requests: number; tarballs: number; connections: number; notFound: number };
  close(): Promise<void>;
}

/** Starts the registry on 127.0.0.1; with `tls`, it speaks HTTPS with that key and certificate. */
export async function startLocalRegistry(
  tarballs: ReadonlyMap<string, Buffer>,
  tls?: { key: Buffer; cert: Buffer },
): Promise<LocalRegistry> {
  let requests = 0;
  let connections = 0;
  let notFound = 0;
  let served = new Set<string>();
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    const body = req.method === 'GET' ? tarballs.get(req.url ?? '') : undefined;
    if (!body) {
      notFound++;
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    served.add(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length }).end(body);
  };
  const server: Server = tls ? createHttpsServer(tls, handle) : createHttpServer(handle);
  server.on(tls ? 'secureConnection' : 'connection', () => connections++);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    takeCounts() {
      const counts = { requests, tarballs: served.size, connections, notFound };
      requests = connections = notFound = 0;
      served = new Set();
      return counts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
