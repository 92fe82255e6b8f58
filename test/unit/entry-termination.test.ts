import { afterEach, describe, expect, it } from 'vitest';
import { stopOnTermination, terminationSignals } from '../../src/entry/termination.js';

/**
 * The runner's stop signals (SIGINT, then SIGTERM, for a cancelled or timed-out job): the first
 * stops the run's parts, then fails the step and exits; a second changes nothing. Delivered here
 * with process.emit, which calls the handlers as a real signal would, so no process is stopped.
 */

const releases: Array<() => void> = [];
afterEach(() => releases.splice(0).forEach((release) => release()));

function watch(stop: () => Promise<void>) {
  const events: string[] = [];
  let exited: () => void = () => undefined;
  const exit = new Promise<void>((resolve) => (exited = resolve));
  const release = stopOnTermination(
    async () => {
      events.push('stop');
      await stop();
    },
    {
      fail: (message) => events.push(`fail: ${message}`),
      exit: () => {
        events.push('exit');
        exited();
      },
    },
  );
  releases.push(release);
  return { events, exit, release };
}

describe('stopOnTermination', () => {
  for (const signal of terminationSignals) {
    it(`stops the run's parts on ${signal}, then fails the step naming it, then exits`, async () => {
      let finishStop: () => void = () => undefined;
      const { events, exit } = watch(() => new Promise<void>((resolve) => (finishStop = resolve)));
      process.emit(signal, signal);
      expect(events).toEqual(['stop']);
      // The second signal of a cancellation, while the first is still being handled.
      process.emit('SIGTERM', 'SIGTERM');
      expect(events).toEqual(['stop']);
      finishStop();
      await exit;
      expect(events).toHaveLength(3);
      expect(events[1]).toMatch(new RegExp(`^fail: plangate was stopped by ${signal} \\(the job was cancelled`));
      expect(events[2]).toBe('exit');
    });
  }

  it('fails the step and exits even when stopping the parts fails', async () => {
    const { events, exit } = watch(() => Promise.reject(new Error('sweep failed')));
    process.emit('SIGINT', 'SIGINT');
    await exit;
    expect(events.map((e) => e.slice(0, 4))).toEqual(['stop', 'fail', 'exit']);
  });

  it('leaves the signals alone once released', () => {
    const before = terminationSignals.map((signal) => process.listenerCount(signal));
    const { release } = watch(() => Promise.resolve());
    expect(terminationSignals.map((signal) => process.listenerCount(signal))).toEqual(before.map((n) => n + 1));
    release();
    expect(terminationSignals.map((signal) => process.listenerCount(signal))).toEqual(before);
  });
});
