import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findPrograms } from '../../src/repo/programs.js';
import { startEgressProxy, type EgressProxy } from '../../src/sandbox/network/egress-proxy.js';
import { sealInNamespace } from '../../src/sandbox/network/namespace-seal.js';
import {
  createSandbox,
  missingProgram,
  SandboxError,
  type Sandbox,
  type SpawnPlan,
} from '../../src/sandbox/sandbox.js';

// The namespace seal's parts on their own: the refusals it names without making anything, the proxy
// on a unix socket, and a missing program reported through the bridge as one. The attacks on it run
// through the built CLI in test/cli/cli-network.test.ts.

const impossible = (cause: string) => `sealed: ${cause}`;
const folders: string[] = [];
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function seal(options: { platform?: NodeJS.Platform; path?: string } = {}): Sandbox {
  const workTree = mkdtempSync(path.join(tmpdir(), 'plangate-ns-'));
  folders.push(workTree);
  const deps = options.path === undefined ? {} : { programs: findPrograms(options.path) };
  const sandbox = sealInNamespace(createSandbox({ isolation: 'none', workTree, deps }), {
    destinations: [],
    impossible,
    deps,
    ...(options.platform ? { platform: options.platform } : {}),
  });
  open.push(sandbox);
  return sandbox;
}

/** A folder holding only the named programs, found on this PATH. */
function pathWith(...names: string[]): string {
  const bin = mkdtempSync(path.join(tmpdir(), 'plangate-bin-'));
  folders.push(bin);
  for (const name of names) symlinkSync(findPrograms().find(name), path.join(bin, name));
  return bin;
}

function execute(plan: SpawnPlan, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(plan.file, plan.args, { cwd, env: plan.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

const namespacesHere =
  process.platform === 'linux' &&
  spawnSync('unshare', ['--user', '--map-root-user', '--net', '--', 'ip', 'link', 'set', 'lo', 'up']).status === 0;

describe('sealInNamespace', () => {
  it('names the cause where no namespace can be made, and runs nothing', async () => {
    const darwin = seal({ platform: 'darwin' });
    expect(await darwin.refusal()).toBe('sealed: network namespaces exist only on Linux, and this is darwin');
    await expect(darwin.ready()).rejects.toThrow(SandboxError);
    expect(() => darwin.plan(['true'], {})).toThrow('not ready');

    const noUnshare = seal({ platform: 'linux', path: pathWith('ip') });
    expect(await noUnshare.refusal()).toMatch(/^sealed: unshare \(util-linux\) is not installed/);
    const noIp = seal({ platform: 'linux', path: pathWith('unshare') });
    expect(await noIp.refusal()).toMatch(/^sealed: ip \(iproute2\), which brings up loopback/);
    const noMount = seal({ platform: 'linux', path: pathWith('unshare', 'ip') });
    expect(await noMount.refusal()).toMatch(/^sealed: mount \(util-linux\), which hides your services' sockets/);
    // Remembered: a second attempt fails the same way, nothing runs unsealed.
    await expect(noIp.ready()).rejects.toThrow('ip (iproute2)');
    await expect(noIp.ready()).rejects.toThrow('ip (iproute2)');
  });

  it.skipIf(process.platform !== 'linux')(
    'refuses a work tree that is a folder commands get a replacement of',
    async () => {
      const sandbox = sealInNamespace(createSandbox({ isolation: 'none', workTree: '/tmp/' }), {
        destinations: [],
        impossible,
      });
      open.push(sandbox);
      expect(await sandbox.refusal()).toMatch(
        /^sealed: the work tree is \/tmp itself, a folder commands get an empty replacement of/,
      );
    },
  );

  it.skipIf(!namespacesHere)('reports a program that is not there as missing, through the bridge', async () => {
    const sandbox = seal();
    expect(await sandbox.refusal()).toBeUndefined();
    await sandbox.ready();
    const plan = sandbox.plan(['no-such-program-4b1e'], { PATH: process.env.PATH });
    const result = await execute(plan, sandbox.workTree);
    expect(result.code).toBe(127);
    expect(missingProgram(plan, result.code, result.output)).toBe(true);
    const ran = await execute(
      sandbox.plan(['node', '-e', 'console.log(process.env.HTTP_PROXY)'], { PATH: process.env.PATH }),
      sandbox.workTree,
    );
    expect(ran).toEqual({ code: 0, output: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\n$/) as string });
  });

  it.skipIf(!namespacesHere)(
    'covers the sockets it knows of in HOME, and takes a link into a folder the view replaces as gone',
    async () => {
      const sandbox = seal();
      await sandbox.ready();
      const home = mkdtempSync(path.join(tmpdir(), 'plangate-home-'));
      const elsewhere = mkdtempSync(path.join(tmpdir(), 'plangate-sock-'));
      folders.push(home, elsewhere);
      const served = path.join(home, '.docker/run/docker.sock');
      const linked = path.join(home, '.docker/desktop/docker.sock');
      mkdirSync(path.dirname(served), { recursive: true });
      mkdirSync(path.dirname(linked), { recursive: true });
      for (const where of [served, path.join(elsewhere, 'docker.sock')]) {
        const server = net.createServer((socket) => socket.destroy());
        open.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
        await new Promise<void>((resolve) => server.listen(where, resolve));
      }
      symlinkSync(path.join(elsewhere, 'docker.sock'), linked);
      const tries = `for (const p of ${JSON.stringify([served, linked])}) require('node:net').connect(p).on('error', (e) => console.log(e.code))`;
      const result = await execute(
        sandbox.plan(['node', '-e', tries], { PATH: process.env.PATH, HOME: home }),
        sandbox.workTree,
      );
      expect(result.code, result.output).toBe(0);
      expect(result.output.split('\n').sort()).toEqual(['', 'ECONNREFUSED', 'ENOENT']);
    },
  );
});

describe('the egress proxy on a unix socket', () => {
  it('listens there, not on loopback, and refuses what the list does not name', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'plangate-sock-'));
    folders.push(folder);
    const socketPath = path.join(folder, 'proxy.sock');
    const proxy: EgressProxy = await startEgressProxy({ destinations: [], socketPath });
    open.push(proxy);
    expect(proxy.url).toBe(`unix:${socketPath}`);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request({ socketPath, path: 'http://example.com/', headers: { host: 'example.com' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
    expect(proxy.refusals()).toMatchObject([{ host: 'example.com', port: 80, reason: 'not allowed for this run' }]);
  });
});
