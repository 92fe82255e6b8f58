import { describe, expect, it, vi } from 'vitest';
import { executorOnlySnapshot } from '../../src/machine/executor-only.js';
import { defaultPolicy } from '../../src/machine/planner-executor.js';
import { decodeRecord } from '../../src/record/plan-record.js';
import { historyChunkMarker } from '../../src/render/history.js';
import { scopeOf } from './record-fixture.js';
import { execute } from '../../src/run/execution.js';
import { executeWithoutPlanner } from '../../src/run/executor-only-run.js';
import type { PlanningRequest } from '../../src/run/planning.js';
import { githubBodyLimit } from '../../src/text/limits.js';
import {
  approvedExecution,
  baseSha,
  commandOn,
  fakeExecutor,
  fakeWorld,
  testSettings,
  type World,
} from './run-fixture.js';

// Quiet: what the code under test logs is recorded in core-mock's coreLog instead of printed.
vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

function planRecord(world: World, commentId: number | undefined) {
  const decoded = decodeRecord(world.thread.comments.find((c) => c.id === commentId)?.body ?? '');
  return decoded.ok ? decoded.record : undefined;
}

/** `/plan` under the executor-only policy, as the plan command hands it to the engine. */
function executorOnlyRequest(world: World): PlanningRequest {
  const source = commandOn(world, '/plan add a CHANGELOG');
  return {
    source,
    requestedBy: 'maintainer',
    snapshot: executorOnlySnapshot('Add a CHANGELOG', defaultPolicy),
    base: { ref: 'main', sha: baseSha },
    comments: [],
  };
}

describe('publish: the pull request of an execution', () => {
  it('opens one pull request for pushed work, labelled, with the approver asked to review', async () => {
    const world = fakeWorld({ settings: testSettings({ 'pr-labels': 'plangate\nautomation' }) });
    world.ctx.executor = fakeExecutor([
      { fields: { result: 'Wrote CHANGELOG.md.', outcome: 'done' }, meanwhile: () => world.repo.write('CHANGELOG.md') },
    ]);
    const execution = await approvedExecution(world);
    const result = await execute(world.ctx, execution);

    expect(world.thread.pulls).toHaveLength(1);
    const [pull] = world.thread.pulls;
    expect(result).toMatchObject({
      outcome: 'done',
      prNumber: pull?.number,
      prUrl: pull?.url,
      branch: execution.record.branch,
    });
    expect(pull).toMatchObject({
      headRef: execution.record.branch,
      baseRef: 'main',
      draft: false,
      labels: ['plangate', 'automation'],
      reviewers: ['maintainer'],
    });
    expect(pull?.body).toContain('CHANGELOG.md | 1 +');
    expect(planRecord(world, execution.planComment?.id)).toMatchObject({
      status: 'done',
      pullRequest: { number: pull?.number, url: pull?.url },
    });
  });

  it('updates the pull request it already opened when a re-run resumes the same run', async () => {
    const world = fakeWorld({ settings: testSettings({ policy: 'executor-only' }) });
    world.ctx.executor = fakeExecutor([
      { fields: { result: 'Wrote CHANGELOG.md.', outcome: 'done' }, meanwhile: () => world.repo.write('CHANGELOG.md') },
    ]);
    const request = executorOnlyRequest(world);
    // The job dies after the pull request is open and checkpointed, before its summary is written.
    world.ctx.writeSummary = async () => {
      throw new Error('the runner went away');
    };
    await expect(executeWithoutPlanner(world.ctx, request)).rejects.toThrow('the runner went away');
    expect(world.thread.pulls).toHaveLength(1);
    const opened = world.thread.pulls[0];
    if (!opened) throw new Error('no pull request was opened');
    opened.body = 'stale';

    // The re-run: GitHub would refuse a second pull request from the branch (the fake does too).
    const again = fakeWorld({
      repo: world.repo,
      thread: world.thread,
      settings: testSettings({ policy: 'executor-only' }),
      executor: fakeExecutor([]),
    });
    const result = await executeWithoutPlanner(again.ctx, { ...request, comments: await again.thread.listComments(7) });

    expect(result).toMatchObject({ outcome: 'done', prNumber: opened.number });
    expect(again.thread.pulls).toHaveLength(1);
    expect(opened.body).toContain('Wrote CHANGELOG.md.');
    expect(again.summaries.at(-1)).toContain(`[Pull request #${opened.number}]`);
  });

  it('moves the history into comments on the pull request when the body cannot hold it', async () => {
    const world = fakeWorld();
    // The body shows each cycle up to 6,000 characters: a dozen long reports cannot fit it.
    const cycles = Array.from({ length: 12 }, (_, i) => i + 1);
    const long = (n: number) =>
      `Cycle ${n} report.\n${'All of this was checked and written down carefully. '.repeat(150)}`;
    world.ctx.executor = fakeExecutor(
      cycles.map((n) => ({
        fields: { result: long(n), outcome: n === 12 ? 'done' : 'replan' },
        meanwhile: () => world.repo.write(`file-${n}.txt`),
      })),
    );
    // A plan that names the file each cycle writes, as the approval must for it to land.
    const plan = { steps: cycles.map((n) => ({ title: `Write file-${n}.txt`, files: [`file-${n}.txt`] })) };
    const execution = await approvedExecution(world, { plan });
    execution.record.snapshot.policy.maxIterations = 12;
    execution.record.scope = { ...scopeOf(plan), budget: { tokens: 1_000_000, cycles: 12 } };
    const result = await execute(world.ctx, execution);

    expect(result.outcome).toBe('done');
    const [pull] = world.thread.pulls;
    if (!pull) throw new Error('no pull request');
    expect(pull.body.length).toBeLessThanOrEqual(githubBodyLimit);
    const parts = world.thread.comments.filter((c) => c.issue === pull.number);
    expect(parts.length).toBeGreaterThan(0);
    expect(parts[0]?.body).toContain(historyChunkMarker(execution.record.planId, 1));
    expect(pull.body).toContain('The full history is in the comments below (12 cycles)');
    // Every cycle's report is there in full, in one of the parts.
    for (const n of cycles) expect(parts.some((p) => p.body.includes(`Cycle ${n} report.`))).toBe(true);
  });

  it('closes its draft and deletes the branch when nothing was left to land, and says so', async () => {
    const world = fakeWorld();
    world.ctx.executor = fakeExecutor([{ fields: { result: 'Nothing needed changing.', outcome: 'done' } }]);
    const execution = await approvedExecution(world);
    const result = await execute(world.ctx, execution);

    expect(result).toMatchObject({ outcome: 'done', branch: undefined, prNumber: undefined });
    expect(world.thread.pulls).toHaveLength(1);
    expect(world.thread.pulls[0]).toMatchObject({ closed: true, draft: true });
    expect(world.thread.pulls[0]?.body).toContain('Nothing needed changing.');
    expect(world.repo.origin.has(`refs/heads/${execution.record.branch}`)).toBe(false);
    expect(world.summaries.at(-1)).toContain('No changes were made, so no pull request proposes any.');
    expect(planRecord(world, execution.planComment?.id)?.status).toBe('done');
  });

  it('proposes nothing for a plan whose thread changed while it ran: its draft stays a draft', async () => {
    const world = fakeWorld();
    world.ctx.executor = fakeExecutor([
      {
        fields: { result: 'Wrote CHANGELOG.md.', outcome: 'done' },
        meanwhile: () => {
          world.repo.write('CHANGELOG.md');
          world.thread.issues.set(7, {
            title: 'Add a CHANGELOG and delete the tests',
            body: 'We have none.',
            author: 'maintainer',
          });
        },
      },
    ]);
    const execution = await approvedExecution(world);
    await expect(execute(world.ctx, execution)).rejects.toThrow(/no longer holds .*title or description of #7 changed/);
    expect(world.thread.pulls).toHaveLength(1);
    expect(world.thread.pulls[0]?.draft).toBe(true);
    expect(world.thread.pulls[0]?.body).not.toContain('Wrote CHANGELOG.md.');
    // The work stays on its branch (after the start commit), and the progress comment says why nothing was proposed.
    expect(world.repo.branchLog(execution.record.branch)).toHaveLength(2);
    expect(world.thread.botComments(7).some((c) => c.body.includes('no longer holds'))).toBe(true);
  });
});
