import { describe, expect, it, vi } from 'vitest';
import { decodeRunRecord } from '../../src/record/run-record.js';
import { progressMarker } from '../../src/render/progress-comment.js';
import type { StopHook } from '../../src/run/run-context.js';
import { execute } from '../../src/run/execution.js';
import { approvedExecution, fakeExecutor, fakeWorld, type World } from './run-fixture.js';

vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

/**
 * A job stopped while it executes (cancelled in the Actions UI, or out of time): the runner's signal
 * reaches main.ts, which runs the hooks the flow registered. The progress comment must then say the
 * run stopped and where it resumes, not "Executing" until someone approves again.
 */

/** A world whose stop hooks the test can fire, as main.ts's stop handler does. */
function stoppable(): { world: World; hooks: Set<StopHook>; stop: (signal: string) => Promise<void> } {
  const world = fakeWorld();
  const hooks = new Set<StopHook>();
  world.ctx.onStop = (hook) => {
    hooks.add(hook);
    return () => void hooks.delete(hook);
  };
  const stop = async (signal: string) => void (await Promise.all([...hooks].map((hook) => hook(signal))));
  return { world, hooks, stop };
}

function progressBody(world: World, planId: string): string {
  const [progress] = world.thread.botComments(7).filter((c) => c.body.includes(progressMarker(planId)));
  return progress?.body ?? '';
}

describe('a job stopped while it executes', () => {
  it('puts the progress comment back at the last finished cycle, says the job was stopped, and nothing the run writes later replaces it', async () => {
    const { world, hooks, stop } = stoppable();
    let planId = '';
    let seenWhileStopping = '';
    world.ctx.executor = fakeExecutor([
      {
        fields: { result: 'Wrote CHANGELOG.md.', outcome: 'replan' },
        meanwhile: () => world.repo.write('CHANGELOG.md'),
      },
      {
        fields: { result: 'Half of the README.', outcome: 'done' },
        // The signal arrives in the middle of cycle 2.
        meanwhile: async () => {
          world.repo.write('README.md');
          await stop('SIGINT');
          seenWhileStopping = progressBody(world, planId);
        },
      },
    ]);
    const execution = await approvedExecution(world);
    planId = execution.record.planId;
    // The run goes on after the signal here (the real step exits once the stop is done), so its
    // later saves are what must not write over the stop.
    await execute(world.ctx, execution);

    for (const body of [seenWhileStopping, progressBody(world, planId)]) {
      expect(body).toMatch(/### ⚠️ Plan `[^`]+` interrupted/);
      expect(body).not.toContain('Executing plan');
      expect(body).not.toMatch(/Plan `[^`]+` finished/);
      expect(body).toContain('the job was stopped by SIGINT (cancelled, or out of time) after 1 finished cycle');
      expect(body).toContain(`comment \`/approve ${planId}\`, to resume from the last finished cycle`);
      // The checkpoint is cycle 1's end, where a re-run resumes: the half-done cycle 2 is not in it.
      const saved = decodeRunRecord(body);
      expect(saved?.snapshot.context.history.map((h) => h.result)).toEqual(['Wrote CHANGELOG.md.']);
    }
    expect(hooks.size, 'the flow withdraws its hook when it ends').toBe(0);
  });

  it('leaves a run that ends without a stop untouched', async () => {
    const { world, hooks } = stoppable();
    world.ctx.executor = fakeExecutor([
      { fields: { result: 'Wrote CHANGELOG.md.', outcome: 'done' }, meanwhile: () => world.repo.write('CHANGELOG.md') },
    ]);
    const execution = await approvedExecution(world);
    const result = await execute(world.ctx, execution);
    expect(result.outcome).toBe('done');
    expect(progressBody(world, execution.record.planId)).toMatch(/### ✅ Plan `[^`]+` finished/);
    expect(hooks.size).toBe(0);
  });
});
