import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makerRunning, parseTempFolder, processStart, tempFolderPrefix } from '../../src/repo/temp-folders.js';

describe('the names of a run’s folders in the temp dir', () => {
  it('carry the pid of the action that made them and when it started, for either kind', async () => {
    const start = await processStart(process.pid);
    expect(start).toBeGreaterThan(0);
    for (const kind of ['work', 'sandbox'] as const) {
      expect(parseTempFolder(`${tempFolderPrefix(kind)}AbC123`)).toEqual({ kind, pid: process.pid, start });
    }
    expect(tempFolderPrefix('work')).toBe(`plangate-${process.pid}-${start}-`);
    expect(tempFolderPrefix('sandbox')).toBe(`plangate-sandbox-${process.pid}-${start}-`);
  });

  it('are told from every other name', () => {
    for (const name of [
      'plangate-AbC123',
      'plangate-12-AbC123',
      'plangate-0-5-AbC123',
      'plangate-12-5-AbC12',
      'plangate-12-5-AbC1234',
      'plangate-12-5-AbC-12',
      'plangate-12-x5-AbC123',
      'x-plangate-12-5-AbC123',
      'plangate-sandbox-AbC123',
      'plangate-sandbox-12-AbC123',
    ])
      expect(parseTempFolder(name), name).toBeUndefined();
  });
});

describe('whether the action that made a folder still runs', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  /** A process that runs until the test ends, and when it started. */
  const running = async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    await once(child, 'spawn');
    cleanups.push(() => child.kill('SIGKILL'));
    const pid = child.pid ?? 0;
    return { pid, start: (await processStart(pid)) ?? -1 };
  };

  it('says yes for a live process that started when the name says, this one and init too', async () => {
    const other = await running();
    expect(await makerRunning(other)).toBe(true);
    expect(await makerRunning({ pid: process.pid, start: (await processStart(process.pid)) ?? -1 })).toBe(true);
    expect(await makerRunning({ pid: 1, start: (await processStart(1)) ?? -1 })).toBe(true);
  });

  it('says yes for a live maker however far the wall clock has moved since it started', async () => {
    const other = await running();
    // NTP stepping the clock, or a machine too busy to read two clocks in one instant.
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 3_600_000);
    expect(await makerRunning(other)).toBe(true);
  });

  it('says yes for a live pid whose maker could not read its start', async () => {
    const other = await running();
    expect(await makerRunning({ pid: other.pid, start: 0 })).toBe(true);
  });

  it('says no for a pid no process has, and for a process that took a dead action’s pid', async () => {
    const ended = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout);
    expect(await makerRunning({ pid: ended, start: 1 })).toBe(false);
    expect(await makerRunning({ pid: ended, start: 0 })).toBe(false);
    const later = await running();
    expect(await makerRunning({ pid: later.pid, start: later.start - 1 })).toBe(false);
    expect(await makerRunning({ pid: process.pid, start: 1 })).toBe(false);
  });
});
