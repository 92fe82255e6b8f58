import { describe, expect, it, vi } from 'vitest';
import { decodeRecord } from '../../src/record/plan-record.js';
import { execute } from '../../src/run/execution.js';
import { approvedExecution, fakeExecutor, fakePlanner, fakeWorld, testSettings, type World } from './run-fixture.js';

// Quiet: what the code under test logs is recorded in core-mock's coreLog instead of printed.
vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

/** What the plan comment's record says now. */
function planStatus(world: World, commentId: number | undefined): string | undefined {
  const decoded = decodeRecord(world.thread.comments.find((c) => c.id === commentId)?.body ?? '');
  return decoded.ok ? decoded.record.status : undefined;
}

describe('budget: timeout-minutes and max-cost-usd', () => {
  it('stops at timeout-minutes with a draft pull request that carries the reason and the history', async () => {
    let clock = Date.parse('2025-01-01T00:00:00Z');
    const world = fakeWorld({ settings: testSettings({ 'timeout-minutes': '5' }) });
    const executor = fakeExecutor([
      {
        fields: { result: 'Wrote CHANGELOG.md; the README is next.', outcome: 'replan' },
        meanwhile: () => {
          world.repo.write('CHANGELOG.md');
          clock += 6 * 60_000;
        },
      },
    ]);
    const planner = fakePlanner();
    world.ctx.executor = executor;
    world.ctx.planner = planner;
    const execution = await approvedExecution(world, {}, () => clock);
    const result = await execute(world.ctx, execution);

    expect(result.outcome).toBe('aborted');
    // The replan was never summoned; the planner only wrote the abort summary.
    expect(executor.prompts).toHaveLength(1);
    expect(planner.asked).toEqual([['summary']]);
    const [pull] = world.thread.pulls;
    expect(pull?.draft).toBe(true);
    expect(pull?.body).toContain('reached timeout-minutes (5)');
    expect(pull?.body).toContain('Wrote CHANGELOG.md; the README is next.');
    expect(planStatus(world, execution.planComment?.id)).toBe('aborted');
    expect(world.summaries.at(-1)).toContain('Reason: reached timeout-minutes (5)');
  });

  it('stops at max-cost-usd, planning included, with the same draft pull request', async () => {
    const world = fakeWorld({ settings: testSettings({ 'max-cost-usd': '0.05' }) });
    const executor = fakeExecutor([
      {
        fields: { result: 'Wrote CHANGELOG.md.', outcome: 'replan' },
        meanwhile: () => world.repo.write('CHANGELOG.md'),
        // 1M prompt tokens of gpt-4.1-mini: $0.40.
        usage: { promptTokens: 1_000_000, cachedTokens: 0, completionTokens: 0 },
      },
    ]);
    world.ctx.executor = executor;
    const execution = await approvedExecution(world);
    const result = await execute(world.ctx, execution);

    expect(result.outcome).toBe('aborted');
    expect(executor.prompts).toHaveLength(1);
    expect(result.usage?.costUsd).toBeGreaterThan(0.4);
    expect(world.thread.pulls[0]?.draft).toBe(true);
    expect(world.thread.pulls[0]?.body).toMatch(/reached max-cost-usd \(\$0\.05; spent \$0\.4/);
  });

  it('lets a run inside its limits finish', async () => {
    let clock = 0;
    const world = fakeWorld({ settings: testSettings({ 'timeout-minutes': '5', 'max-cost-usd': '1' }) });
    world.ctx.executor = fakeExecutor([
      {
        fields: { result: 'Wrote CHANGELOG.md.', outcome: 'replan' },
        meanwhile: () => void (world.repo.write('CHANGELOG.md'), (clock += 60_000)),
      },
      {
        fields: { result: 'Linked it.', outcome: 'done' },
        meanwhile: () => void (world.repo.write('README.md'), (clock += 60_000)),
      },
    ]);
    const execution = await approvedExecution(world, {}, () => clock);
    const result = await execute(world.ctx, execution);
    expect(result.outcome).toBe('done');
    expect(world.thread.pulls[0]?.draft).toBe(false);
    // The start commit and two cycles.
    expect(world.repo.branchLog(execution.record.branch)).toHaveLength(3);
  });
});
