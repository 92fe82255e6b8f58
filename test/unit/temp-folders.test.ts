import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makerRunning, parseTempFolder, tempFolderPrefix } from '../../src/repo/temp-folders.js';

describe('the names of a run’s folders in the temp dir', () => {
  it('carry the pid of the action that made them, for either kind', () => {
    for (const kind of ['work', 'sandbox'] as const) {
      expect(parseTempFolder(`${tempFolderPrefix(kind)}AbC123`)).toEqual({ kind, pid: process.pid });
    }
    expect(tempFolderPrefix('work')).toBe(`plangate-${process.pid}-`);
    expect(tempFolderPrefix('sandbox')).toBe(`plangate-sandbox-${process.pid}-`);
  });

  it('are told from every other name', () => {
    for (const name of [
      'plangate-AbC123',
      'plangate-0-AbC123',
      'plangate-12-AbC12',
      'plangate-12-AbC1234',
      'plangate-12-AbC-12',
      'x-plangate-12-AbC123',
      'plangate-sandbox-AbC123',
    ])
      expect(parseTempFolder(name), name).toBeUndefined();
  });
});

describe('whether the action that made a folder still runs', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  const folder = () => {
    const at = mkdtempSync(path.join(tmpdir(), 'plangate-maker-test-'));
    cleanups.push(() => rmSync(at, { recursive: true, force: true }));
    return at;
  };
  /** A process that runs until the test ends. */
  const running = async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    await once(child, 'spawn');
    cleanups.push(() => child.kill('SIGKILL'));
    return child.pid ?? 0;
  };

  it('says yes for this process and for one that started before the folder was made', async () => {
    const pid = await running();
    const at = folder();
    expect(await makerRunning(at, process.pid)).toBe(true);
    expect(await makerRunning(at, pid)).toBe(true);
    // init started at boot, long before any folder.
    expect(await makerRunning(at, 1)).toBe(true);
  });

  it('says no for a pid no process has, for a process started after the folder, and for a missing folder', async () => {
    const ended = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout);
    const at = folder();
    expect(await makerRunning(at, ended)).toBe(false);
    // A pid reused by a later process: this one starts once the folder is older than the start's margin.
    const made = statSync(at).ctimeMs;
    while (Date.now() < made + 400) await new Promise((resolve) => setTimeout(resolve, 50));
    const later = await running();
    expect(await makerRunning(at, later)).toBe(false);
    expect(await makerRunning(path.join(at, 'gone'), 1)).toBe(false);
  });
});
