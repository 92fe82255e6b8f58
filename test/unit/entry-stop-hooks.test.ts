import { describe, expect, it } from 'vitest';
import { stopHooks } from '../../src/entry/stop-hooks.js';

describe('stopHooks', () => {
  it('runs every hook registered at the time, with the signal, together', async () => {
    const hooks = stopHooks();
    const heard: string[] = [];
    let finishFirst: () => void = () => undefined;
    hooks.register(async (signal) => {
      heard.push(`first ${signal}`);
      await new Promise<void>((resolve) => (finishFirst = resolve));
    });
    hooks.register(async (signal) => void heard.push(`second ${signal}`));
    const ran = hooks.run('SIGTERM');
    // The second does not wait for the first to finish.
    expect(heard).toEqual(['first SIGTERM', 'second SIGTERM']);
    let settled = false;
    void ran.then(() => (settled = true));
    // Every pending microtask has run by the next turn of the event loop.
    await new Promise(setImmediate);
    expect(settled, 'run waits for every hook').toBe(false);
    finishFirst();
    await ran;
    expect(settled).toBe(true);
  });

  it('leaves out a withdrawn hook', async () => {
    const hooks = stopHooks();
    const heard: string[] = [];
    const withdraw = hooks.register(async () => void heard.push('withdrawn'));
    hooks.register(async () => void heard.push('kept'));
    withdraw();
    await hooks.run('SIGINT');
    expect(heard).toEqual(['kept']);
  });

  it('runs the others and never throws when a hook fails, before or after its first await', async () => {
    const hooks = stopHooks();
    const heard: string[] = [];
    hooks.register(() => {
      throw new Error('at once');
    });
    hooks.register(async () => {
      await Promise.resolve();
      throw new Error('later');
    });
    hooks.register(async () => void heard.push('ran'));
    await expect(hooks.run('SIGINT')).resolves.toBeUndefined();
    expect(heard).toEqual(['ran']);
  });

  it('tells a hook registered after the signal at once, with that signal, and only once', async () => {
    const hooks = stopHooks();
    await hooks.run('SIGTERM');
    const heard: string[] = [];
    hooks.register(async (signal) => void heard.push(signal));
    // Within register itself: a flow that starts after the signal knows before its next step.
    expect(heard).toEqual(['SIGTERM']);
    hooks.register(() => {
      throw new Error('at once');
    });
    // Not kept for a later run: told once.
    await hooks.run('SIGINT');
    expect(heard).toEqual(['SIGTERM']);
  });
});
