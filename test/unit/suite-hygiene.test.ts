import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { leftovers, listProcesses, takeBaseline, type Baseline } from '../helpers/processes.js';
import { madeForRun, RUN_TAG_ENV, runTag, uniqueName } from '../helpers/unique-names.js';

/**
 * The helpers behind the suite's own hygiene (test/helpers/): names unique to a run, and the
 * global teardown's search for processes the suite left running.
 */

describe('unique names', () => {
  it('carry the run tag, differ per call and fit an account name', () => {
    const a = uniqueName('pg-e2e-cmd');
    const b = uniqueName('pg-e2e-cmd');
    expect(a).not.toBe(b);
    for (const name of [a, b]) {
      expect(name).toMatch(/^[a-z_][a-z0-9_-]{0,31}$/);
      expect(name.startsWith(`pg-e2e-cmd-${runTag()}-`)).toBe(true);
      expect(madeForRun(name, runTag())).toBe(true);
      expect(madeForRun(name, 'zzzzzz')).toBe(false);
    }
  });

  it('share one tag across the workers of a run (the global setup sets it)', () => {
    expect(process.env[RUN_TAG_ENV]).toBe(runTag());
  });

  it('refuse a prefix that would make an unusable account name', () => {
    expect(() => uniqueName('Not-An-Account')).toThrow(/not a usable account name/);
    expect(() => uniqueName('a-prefix-far-too-long-for-it')).toThrow(/not a usable account name/);
  });
});

describe.runIf(listProcesses() !== undefined)('the leftover-process check', () => {
  const started: number[] = [];
  afterEach(async () => {
    for (const pid of started.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });

  const found = (baseline: Baseline) => leftovers(baseline).map((p) => p.pid);

  /** A child of this worker that runs until it is killed. */
  async function child(): Promise<ChildProcess & { pid: number }> {
    const spawned = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
    await once(spawned, 'spawn');
    if (spawned.pid === undefined) throw new Error('no pid');
    started.push(spawned.pid);
    return spawned as ChildProcess & { pid: number };
  }

  /**
   * An orphan in a session of its own, as a daemonising process (or the command sudo runs) is: not
   * below the worker and not in its process group, so only its environment can tell it apart.
   */
  async function orphan(env: NodeJS.ProcessEnv): Promise<number> {
    const script =
      "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { detached: true, stdio: 'ignore' }); c.unref(); process.stdout.write(String(c.pid));";
    const parent = spawn(process.execPath, ['-e', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    parent.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await once(parent, 'close');
    const pid = Number(out);
    if (!(pid > 0)) throw new Error(`no orphan pid: ${JSON.stringify(out)}`);
    started.push(pid);
    return pid;
  }

  it('finds a process started after the baseline, and not once it is gone', async () => {
    const baseline = takeBaseline(`${RUN_TAG_ENV}=never-set`);
    if (!baseline) throw new Error('no baseline');
    const running = await child();
    expect(found(baseline)).toContain(running.pid);
    running.kill('SIGKILL');
    await once(running, 'exit');
    expect(found(baseline)).not.toContain(running.pid);
  });

  it('does not count what was running before the baseline', async () => {
    const running = await child();
    const baseline = takeBaseline(`${RUN_TAG_ENV}=never-set`);
    if (!baseline) throw new Error('no baseline');
    expect(found(baseline)).not.toContain(running.pid);
  });

  it('finds an orphan that left the process group by the marker in its environment, and only then', async () => {
    const tag = `hygiene${process.pid}`;
    const baseline = takeBaseline(`${RUN_TAG_ENV}=${tag}`);
    if (!baseline) throw new Error('no baseline');
    const marked = await orphan({ ...process.env, [RUN_TAG_ENV]: tag });
    const unmarked = await orphan({ PATH: process.env.PATH ?? '' });
    const now = found(baseline);
    expect(now).toContain(marked);
    expect(now).not.toContain(unmarked);
  });
});
