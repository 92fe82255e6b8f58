import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient, runnerFetch } from '../../src/github/client.js';
import { startGitHubEmulator, type GitHubEmulator } from '../fakes/github-emulator.js';

// A runner behind a proxy: plangate's client loads @actions/github's proxy-aware fetch only then,
// and GitHub requests go through the proxy as they did when the client was getOctokit's. Its own
// file because @actions/github reads the proxy settings once, when it is first loaded: nothing here
// may load it before the variables are set.

const owner = 'octo';
const repo = 'sample';
const token = 'ghs_proxyTestToken0123456789';

let gh: GitHubEmulator;
let proxy: Server;
/** The host:port of every tunnel the proxy was asked for. */
const tunnels: string[] = [];

beforeAll(async () => {
  gh = await startGitHubEmulator({ owner, repo, token });
  // A CONNECT proxy that takes every tunnel to the emulator, whatever host it was asked for.
  const emulator = new URL(gh.url);
  proxy = createServer();
  proxy.on('connect', (request, socket, head) => {
    tunnels.push(request.url ?? '');
    const upstream = connect(Number(emulator.port), emulator.hostname, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await gh?.close();
});

describe('a GitHub client behind a proxy', () => {
  it('sends its requests through the proxy the runner names', async () => {
    const address = proxy.address();
    if (address === null || typeof address === 'string') throw new Error('no proxy port');
    // A host that is not loopback: @actions/http-client never proxies loopback. Only the proxy knows the way.
    const apiUrl = `http://api.github.test:${new URL(gh.url).port}`;
    process.env.http_proxy = `http://127.0.0.1:${address.port}`;
    process.env.GITHUB_API_URL = apiUrl;
    try {
      expect(runnerFetch(process.env)).not.toBe(globalThis.fetch);
      const octokit = createGitHubClient(token, apiUrl, { pace: false });
      const { data } = await octokit.rest.repos.get({ owner, repo });
      expect(data.name).toBe(repo);
      expect(tunnels).toEqual([`api.github.test:${new URL(gh.url).port}`]);
      // Without the proxy the host does not even resolve: the answer came through the tunnel.
      await expect(globalThis.fetch(`${apiUrl}/repos/${owner}/${repo}`)).rejects.toThrow();
    } finally {
      delete process.env.http_proxy;
      delete process.env.GITHUB_API_URL;
    }
  });
});
