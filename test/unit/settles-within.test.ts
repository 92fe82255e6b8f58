import { afterEach, describe, expect, it, vi } from 'vitest';
import { settlesWithin } from '../../src/text/settles-within.js';

/**
 * The bounded wait a stopped step gives its lock release and an MCP server's close gives its
 * server's exit: true when the work settles in time, false once the time is up, never a throw.
 */

describe('settlesWithin', () => {
  afterEach(() => vi.useRealTimers());

  it('returns true when the work is done, before the time is up', async () => {
    let done = false;
    const settled = await settlesWithin(
      Promise.resolve().then(() => (done = true)),
      60_000,
    );
    expect(settled).toBe(true);
    expect(done).toBe(true);
  });

  it('stops waiting for work that hangs once the time is up, returns false, and swallows a late failure', async () => {
    vi.useFakeTimers();
    let fail: (error: Error) => void = () => undefined;
    const hanging = new Promise<void>((_, reject) => (fail = reject));
    let answer: boolean | undefined;
    const waited = settlesWithin(hanging, 5_000).then((settled) => (answer = settled));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await waited;
    expect(answer).toBe(false);
    fail(new Error('push answered too late'));
  });

  it('counts work failing in time as settled, without throwing', async () => {
    await expect(settlesWithin(Promise.reject(new Error('no network')), 60_000)).resolves.toBe(true);
  });
});
