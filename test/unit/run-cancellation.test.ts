import { describe, expect, it, vi } from 'vitest';
import { cancelFlow } from '../../src/commands/cancel.js';
import { decodeRecord } from '../../src/record/plan-record.js';
import { cancelSignalRef } from '../../src/run/cancellation.js';
import { execute } from '../../src/run/execution.js';
import type { Execution } from '../../src/run/execution.js';
import { approvedExecution, commandOn, fakeExecutor, fakeWorld, type World } from './run-fixture.js';

// The engine's log lines are not what these tests read.
// Quiet: what the code under test logs is recorded in core-mock's coreLog instead of printed.
vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

/** `/cancel` by the maintainer, run in-process as its own job would run it, against the same thread and origin. */
async function cancelOnThread(world: World): Promise<void> {
  const command = { kind: 'cancel' as const, ...commandOn(world, '/cancel') };
  expect((await cancelFlow(world.ctx, command)).outcome).toBe('aborted');
}

/** The status the plan comment's record shows now. */
function planStatus(world: World, execution: Execution): string | undefined {
  const decoded = decodeRecord(world.thread.comments.find((c) => c.id === execution.planComment?.id)?.body ?? '');
  return decoded.ok ? decoded.record.status : undefined;
}

describe('cancellation: /cancel reaching a running execution', () => {
  it('stops before the next cycle, keeps the work and opens a draft pull request that says who cancelled', async () => {
    const world = fakeWorld();
    const executor = fakeExecutor([
      {
        fields: { result: 'Wrote CHANGELOG.md.', outcome: 'replan' },
        meanwhile: async () => {
          world.repo.write('CHANGELOG.md');
          await cancelOnThread(world);
        },
      },
    ]);
    world.ctx.executor = executor;
    const execution = await approvedExecution(world);
    const result = await execute(world.ctx, execution);

    expect(result).toMatchObject({ outcome: 'aborted', branch: execution.record.branch });
    // No second cycle: the signal was seen right after the first.
    expect(executor.prompts).toHaveLength(1);
    const [pull] = world.thread.pulls;
    expect(pull?.draft).toBe(true);
    expect(pull?.body).toContain('cancelled by @maintainer');
    // The start commit and the one cycle.
    expect(world.repo.branchLog(execution.record.branch)).toHaveLength(2);
    // The plan stays withdrawn, the signal is taken down, the approval is flagged.
    expect(planStatus(world, execution)).toBe('cancelled');
    expect(world.repo.origin.has(cancelSignalRef(7, execution.record.planId))).toBe(false);
    expect(world.thread.reactions).toContainEqual({ commentId: execution.source.commentId, content: '-1' });
    expect(world.summaries.at(-1)).toContain('Reason: cancelled by @maintainer');
  });

  it('ends as cancelled when /cancel comes during the last cycle, which has no next cycle to stop', async () => {
    const world = fakeWorld();
    world.ctx.executor = fakeExecutor([
      {
        fields: { result: 'Wrote CHANGELOG.md; all done.', outcome: 'done' },
        meanwhile: async () => {
          world.repo.write('CHANGELOG.md');
          await cancelOnThread(world);
        },
      },
    ]);
    const execution = await approvedExecution(world);
    const result = await execute(world.ctx, execution);

    expect(result.outcome).toBe('aborted');
    expect(planStatus(world, execution)).toBe('cancelled');
    expect(world.thread.pulls[0]?.draft).toBe(true);
    expect(world.thread.pulls[0]?.body).toContain('cancelled by @maintainer');
    expect(world.repo.origin.has(cancelSignalRef(7, execution.record.planId))).toBe(false);
  });

  it('ends as cancelled after a late /cancel even when the run pushed nothing to propose', async () => {
    const world = fakeWorld();
    world.ctx.executor = fakeExecutor([
      { fields: { result: 'Nothing needed changing.', outcome: 'done' }, meanwhile: () => cancelOnThread(world) },
    ]);
    const execution = await approvedExecution(world);
    const result = await execute(world.ctx, execution);

    expect(result).toMatchObject({ outcome: 'aborted', prNumber: undefined });
    expect(planStatus(world, execution)).toBe('cancelled');
    expect(world.summaries.at(-1)).toContain('Reason: cancelled by @maintainer');
    expect(world.repo.origin.has(cancelSignalRef(7, execution.record.planId))).toBe(false);
  });

  it('refuses to start a plan cancelled while its approval was starting', async () => {
    const world = fakeWorld();
    const executor = fakeExecutor([{ fields: { result: 'Should never run.', outcome: 'done' } }]);
    world.ctx.executor = executor;
    const execution = await approvedExecution(world);
    // /cancel read the plan as proposed and raised the signal; this job's "executing" mark comes after.
    await cancelOnThread(world);
    const result = await execute(world.ctx, execution);

    expect(result.outcome).toBe('refused');
    expect(executor.prompts).toHaveLength(0);
    expect(planStatus(world, execution)).toBe('cancelled');
    expect(world.repo.origin.has(`refs/heads/${execution.record.branch}`)).toBe(false);
    expect(world.thread.botComments(7).at(-1)?.body).toContain('was cancelled while this approval was starting');
  });

  it('goes on when no /cancel came: the signal of another plan stops nothing', async () => {
    const world = fakeWorld();
    world.ctx.executor = fakeExecutor([
      { fields: { result: 'Wrote CHANGELOG.md.', outcome: 'done' }, meanwhile: () => world.repo.write('CHANGELOG.md') },
    ]);
    const execution = await approvedExecution(world);
    world.repo.origin.set(cancelSignalRef(7, 'ffffffff'), world.repo.origin.get('refs/heads/main') ?? '');
    const result = await execute(world.ctx, execution);
    expect(result.outcome).toBe('done');
    expect(planStatus(world, execution)).toBe('done');
    expect(world.thread.pulls[0]?.draft).toBe(false);
  });
});
