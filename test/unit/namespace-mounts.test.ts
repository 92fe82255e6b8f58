import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  hiddenFolderAt,
  mountSteps,
  toolTrees,
  type HiddenFolder,
} from '../../src/sandbox/network/namespace-mounts.js';
import { namedPaths, serviceSockets } from '../../src/sandbox/network/namespace-sockets.js';

// What a sealed CLI command sees of the file system, as steps, on folders of the test's own standing
// in for /tmp and /run. The built CLI runs the steps against the real folders in
// test/cli/cli-network.test.ts.

const made: string[] = [];
const servers: net.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function scratch(): string {
  const base = mkdtempSync(path.join(tmpdir(), 'plangate-mounts-'));
  made.push(base);
  return base;
}

async function socketAt(file: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const server = net.createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(file, resolve));
}

describe('toolTrees', () => {
  it('keeps a toolchain under a shared temp folder whole, and nothing of a tmpfs one but what is named', () => {
    const folders: HiddenFolder[] = [
      { at: '/tmp', names: ['/tmp'], replacement: { own: 'tmp' } },
      { at: '/run', names: ['/run', '/var/run'], replacement: { tmpfs: '0755' } },
    ];
    expect(
      toolTrees(folders, [
        '/tmp/ci/node_modules/.bin',
        '/tmp/ci/node_modules/node/bin',
        '/run/user/1000/fnm/bin',
        '/usr/bin',
        'rel/bin',
        '/tmp',
      ]),
    ).toEqual(['/tmp/ci']);
  });
});

describe('mountSteps', () => {
  it('keeps what the command needs at its path, makes its temp folder, moves the run folder’s replacement last, covers sockets outside', () => {
    const base = scratch();
    const tmp = path.join(base, 'tmp');
    const run = path.join(base, 'run');
    const folders: HiddenFolder[] = [
      { at: tmp, names: [tmp], replacement: { own: 'tmp' } },
      { at: run, names: [run, path.join(base, 'var-run')], replacement: { tmpfs: '0755' } },
    ];
    const runFolder = path.join(tmp, 'plangate-net-1');
    const repo = path.join(tmp, 'x/repo');
    const home = path.join(tmp, 'x/home');
    const manager = path.join(run, 'user/1000/fnm/bin');
    for (const dir of [runFolder, path.join(repo, 'node_modules/.bin'), home, manager])
      mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(runFolder, 'proxy.sock'), '');
    const steps = mountSteps({
      folders,
      runFolder,
      kept: [
        repo,
        path.join(runFolder, 'proxy.sock'),
        home,
        path.join(repo, 'node_modules/.bin'),
        manager,
        '/usr/bin',
        tmp,
        'bin',
        path.join(tmp, 'gone'),
      ],
      fresh: [path.join(tmp, 'own-temp'), path.join(repo, '.tmp'), tmp],
      sockets: [
        path.join(run, 'docker.sock'),
        path.join(base, 'var-run/docker.sock'),
        path.join(home, '.docker/desktop/docker.sock'),
        '/home/someone/.ssh/cm-host',
      ],
    });
    const stage = (n: number) => path.join(runFolder, 'stage', String(n));
    expect(steps).toEqual([
      { op: 'bind', from: path.join(runFolder, 'tmp'), at: stage(0) },
      { op: 'bind', from: repo, at: `${stage(0)}/x/repo` },
      { op: 'bind', from: home, at: `${stage(0)}/x/home` },
      { op: 'bind', from: path.join(runFolder, 'proxy.sock'), at: `${stage(0)}/plangate-net-1/proxy.sock` },
      { op: 'dir', at: `${stage(0)}/own-temp` },
      { op: 'tmpfs', at: stage(1), mode: '0755' },
      { op: 'bind', from: manager, at: `${stage(1)}/user/1000/fnm/bin` },
      { op: 'move', from: stage(1), at: run },
      { op: 'move', from: stage(0), at: tmp },
      { op: 'cover', at: path.join(home, '.docker/desktop/docker.sock') },
      { op: 'cover', at: '/home/someone/.ssh/cm-host' },
    ]);
    expect(hiddenFolderAt(folders, tmp)).toBe(tmp);
    expect(hiddenFolderAt(folders, path.join(base, 'var-run'))).toBe(run);
    expect(hiddenFolderAt(folders, repo)).toBeUndefined();
  });
});

describe('serviceSockets', () => {
  it('reads the sockets variables name, in every spelling', () => {
    expect(namedPaths('unix:///run/docker.sock')).toEqual(['/run/docker.sock']);
    expect(namedPaths('unix:path=/run/user/1000/bus,guid=4f1')).toEqual(['/run/user/1000/bus']);
    expect(namedPaths('unix:abstract=/tmp/dbus-x;unix:path=/tmp/dbus-y')).toEqual(['/tmp/dbus-y']);
    expect(namedPaths('/tmp/tmux-1000/default,4321,0')).toEqual(['/tmp/tmux-1000/default']);
    expect(namedPaths('en_US.UTF-8')).toEqual([]);
  });

  it('finds the known ones in a home folder, any in ~/.ssh, and those the environment names; only sockets', async () => {
    const home = scratch();
    const desktop = path.join(home, '.docker/desktop/docker.sock');
    const master = path.join(home, '.ssh/sockets/git@example.com-22');
    const agent = path.join(home, 'agent.sock');
    for (const file of [desktop, master, agent]) await socketAt(file);
    writeFileSync(path.join(home, '.ssh/config'), 'Host *\n');
    expect(serviceSockets([home], [{ SSH_AUTH_SOCK: agent, NOT_A_SOCKET: path.join(home, '.ssh/config') }])).toEqual(
      expect.arrayContaining([desktop, master, agent].sort()),
    );
    expect(serviceSockets([home], [{}]).filter((s) => s.startsWith(home))).toEqual([desktop, master].sort());
  });
});
