import { describe, expect, it, vi } from 'vitest';
import { answerFlow } from '../../src/commands/answer.js';
import { approveFlow } from '../../src/commands/approve.js';
import { helpFlow } from '../../src/commands/help.js';
import { planFlow } from '../../src/commands/plan.js';
import { reviseFlow } from '../../src/commands/revise.js';
import { statusFlow } from '../../src/commands/status.js';
import { decodeRecord, hasRecordMarker, type PlanRecord } from '../../src/record/plan-record.js';
import { plannerFailedNotice } from '../../src/run/executor-only-run.js';
import { commandOn, fakeExecutor, fakeModel, fakePlanner, fakeWorld, testSettings, type World } from './run-fixture.js';

// Quiet: what the code under test logs is recorded in core-mock's coreLog instead of printed.
vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

// The command flows in-process, over the fake thread, origin and models of run-fixture.ts: each
// test reads what a maintainer would see on the thread and the branch.

/** Every plan record on issue 7, oldest first, as the comments hold them now. */
function records(world: World): PlanRecord[] {
  return world.thread
    .botComments(7)
    .filter((c) => hasRecordMarker(c.body))
    .flatMap((c) => {
      const decoded = decodeRecord(c.body);
      return decoded.ok ? [decoded.record] : [];
    });
}

const lastReply = (world: World) => world.thread.botComments(7).at(-1)?.body ?? '';

async function plan(world: World, objective = 'add a CHANGELOG', author = 'maintainer') {
  return planFlow(world.ctx, { kind: 'plan', objective, ...commandOn(world, `/plan ${objective}`, author) });
}

async function approve(world: World, author = 'maintainer') {
  return approveFlow(world.ctx, { kind: 'approve', ...commandOn(world, '/approve', author) });
}

/** An executor that writes CHANGELOG.md and reports done. */
const writesChangelog = (world: World) =>
  fakeExecutor([
    { fields: { result: 'Wrote CHANGELOG.md.', outcome: 'done' }, meanwhile: () => world.repo.write('CHANGELOG.md') },
  ]);

describe('/plan', () => {
  it('posts the plan with a verifiable record and waits for approval', async () => {
    const world = fakeWorld();
    const result = await plan(world);

    expect(result.outcome).toBe('planned');
    const [record] = records(world);
    expect(record).toMatchObject({
      planId: result.planId,
      status: 'proposed',
      issue: 7,
      requestedBy: 'maintainer',
      base: { ref: 'main' },
    });
    expect(record?.snapshot.context.plan?.steps[0]?.title).toBe('Add CHANGELOG.md');
    expect(world.thread.reactions.map((r) => r.content)).toContain('eyes');
    expect(world.summaries.at(-1)).toContain(`posted plan ${result.planId}`);
    // Nothing was executed: no branch, no pull request.
    expect(world.thread.pulls).toHaveLength(0);
  });

  it('refuses someone without the trigger permission, before any model is asked', async () => {
    const planner = fakePlanner();
    const world = fakeWorld({ planner });
    const result = await plan(world, 'add a CHANGELOG', 'drive-by');

    expect(result.outcome).toBe('refused');
    expect(lastReply(world)).toBe('@drive-by you may not use `/plan` on this repository.');
    expect(planner.prompts).toHaveLength(0);
    expect(records(world)).toHaveLength(0);
  });

  it('runs the executor alone under the executor-only policy: no plan comment, a pull request with the notice', async () => {
    const world = fakeWorld({ settings: testSettings({ policy: 'executor-only' }) });
    world.ctx.executor = writesChangelog(world);
    const result = await plan(world);

    expect(result.outcome).toBe('done');
    expect(records(world)).toHaveLength(0);
    expect(world.thread.pulls[0]?.body).toContain('Executor-only policy');
  });

  it('under plan-first, carries a plan out at once and falls back to the executor when the planner fails', async () => {
    const planFirst = testSettings({ policy: 'plan-first' });
    const world = fakeWorld({ settings: planFirst });
    world.ctx.executor = writesChangelog(world);
    expect((await plan(world)).outcome).toBe('done');
    expect(records(world)[0]?.status).toBe('done');
    expect(world.thread.reactions.map((r) => r.content)).toContain('rocket');

    const failing = fakeWorld({
      settings: planFirst,
      planner: fakeModel('planner', 'gpt-4.1', () => ({ fields: {}, error: new Error('503 Service Unavailable') })),
    });
    failing.ctx.executor = writesChangelog(failing);
    expect((await plan(failing)).outcome).toBe('done');
    expect(records(failing)).toHaveLength(0);
    expect(failing.thread.pulls[0]?.body).toContain(plannerFailedNotice);
  });
});

describe('/approve', () => {
  it('carries out the live plan: commits on the plan’s branch, one pull request, the record done', async () => {
    const world = fakeWorld();
    const planned = await plan(world);
    world.ctx.executor = writesChangelog(world);
    const result = await approve(world);

    expect(result).toMatchObject({ outcome: 'done', planId: planned.planId, branch: `plangate/7-${planned.planId}` });
    // The empty start commit its draft pull request needed, then the cycle's work.
    expect(world.repo.branchLog(`plangate/7-${planned.planId}`).map((c) => c.files)).toEqual([[], ['CHANGELOG.md']]);
    expect(world.thread.pulls).toHaveLength(1);
    expect(world.thread.pulls[0]?.draft).toBe(false);
    expect(records(world)[0]).toMatchObject({
      status: 'done',
      approvedBy: 'maintainer',
      pullRequest: { number: result.prNumber },
    });

    // A second approval of a finished plan runs nothing and points at its pull request.
    expect((await approve(world)).outcome).toBe('refused');
    expect(lastReply(world)).toContain(`plan \`${planned.planId}\` is already done: ${result.prUrl}`);
    expect(world.thread.pulls).toHaveLength(1);
  });

  it('refuses a plan comment someone else edited, and runs nothing', async () => {
    const world = fakeWorld();
    await plan(world);
    const planComment = world.thread.botComments(7).find((c) => hasRecordMarker(c.body));
    if (!planComment) throw new Error('no plan comment');
    world.thread.editAs('reviewer', planComment.id, planComment.body);
    const executor = writesChangelog(world);
    world.ctx.executor = executor;
    const result = await approve(world);

    expect(result.outcome).toBe('refused');
    expect(lastReply(world)).toContain('was edited by @reviewer');
    expect(executor.prompts).toHaveLength(0);
    expect(world.thread.pulls).toHaveLength(0);
  });

  it('refuses an approval older than approval-max-age-hours, asking for a new one; a fresh one runs the plan that waited', async () => {
    const world = fakeWorld();
    const planned = await plan(world);
    const executor = writesChangelog(world);
    world.ctx.executor = executor;
    // The approval's job starts eight days after its comment (queued, or an old run re-run).
    const stale = { kind: 'approve' as const, ...commandOn(world, '/approve') };
    world.thread.advance(8 * 24 * 3_600_000);
    const refused = await approveFlow(world.ctx, stale);

    expect(refused.outcome).toBe('refused');
    expect(lastReply(world)).toContain('this approval expired: it was posted 8 days ago');
    expect(lastReply(world)).toContain('an approval counts for 168 hours (7 days) (`approval-max-age-hours`)');
    expect(lastReply(world)).toContain(`approve it again with a new comment: \`/approve ${planned.planId}\``);
    expect(executor.prompts).toHaveLength(0);
    expect(world.thread.pulls).toHaveLength(0);
    expect(records(world)[0]?.status).toBe('proposed');

    // Only the approval expires: the plan waited eight days, and a new approval carries it out.
    expect((await approve(world)).outcome).toBe('done');
    expect(world.thread.pulls).toHaveLength(1);
  });

  it('counts an approval for approval-max-age-hours to the hour, and one dated ahead of the action’s clock as new', async () => {
    const world = fakeWorld({ settings: testSettings({ 'approval-max-age-hours': '2' }) });
    await plan(world);
    world.ctx.executor = writesChangelog(world);
    const stale = { kind: 'approve' as const, ...commandOn(world, '/approve') };
    world.thread.advance(2 * 3_600_000 + 1_000);
    expect((await approveFlow(world.ctx, stale)).outcome).toBe('refused');
    expect(lastReply(world)).toContain('posted 2 hours ago');
    expect(lastReply(world)).toContain('an approval counts for 2 hours (`approval-max-age-hours`)');

    const early = fakeWorld();
    await plan(early);
    early.ctx.executor = writesChangelog(early);
    const ahead = { kind: 'approve' as const, ...commandOn(early, '/approve') };
    early.ctx.now = () => early.thread.now() - 60_000;
    expect((await approveFlow(early.ctx, ahead)).outcome).toBe('done');
  });

  it('refuses an approver without the approve permission', async () => {
    const world = fakeWorld();
    await plan(world);
    const result = await approve(world, 'drive-by');
    expect(result.outcome).toBe('refused');
    expect(records(world)[0]?.status).toBe('proposed');
  });
});

describe('/revise and /answer', () => {
  it('supersedes the earlier plan with the revised one', async () => {
    const world = fakeWorld();
    const first = await plan(world);
    const revised = await reviseFlow(world.ctx, {
      kind: 'revise',
      feedback: 'Also link it from the README.',
      ...commandOn(world, '/revise Also link it from the README.'),
    });

    expect(revised.outcome).toBe('planned');
    expect(records(world).map((r) => [r.planId, r.status, r.supersededBy])).toEqual([
      [first.planId, 'superseded', revised.planId],
      [revised.planId, 'proposed', undefined],
    ]);
  });

  it('plans from the answer to the planner’s question', async () => {
    const world = fakeWorld({
      planner: fakeModel('planner', 'gpt-4.1', (asked, index) =>
        index === 0 && asked.includes('plan')
          ? { fields: { question: 'Keep a Changelog or a plain list?' } }
          : {
              fields: {
                plan: { steps: [{ title: 'Add CHANGELOG.md in Keep a Changelog format' }] },
                directive: 'Create CHANGELOG.md.',
              },
            },
      ),
    });
    expect((await plan(world)).outcome).toBe('asked');
    expect(records(world)[0]?.status).toBe('asking');
    const answered = await answerFlow(world.ctx, {
      kind: 'answer',
      text: 'Keep a Changelog.',
      ...commandOn(world, '/answer Keep a Changelog.'),
    });

    expect(answered.outcome).toBe('planned');
    const live = records(world).at(-1);
    expect(live?.status).toBe('proposed');
    expect(live?.snapshot.context.plan?.steps[0]?.title).toContain('Keep a Changelog');
  });
});

describe('/status and /help', () => {
  it('/status says where the live plan stands; /help lists the commands', async () => {
    const world = fakeWorld();
    const noPlan = await statusFlow(world.ctx, { kind: 'status', ...commandOn(world, '/status') });
    expect(noPlan.outcome).toBe('answered');
    expect(lastReply(world)).toContain('there is no plan on this thread');

    const planned = await plan(world);
    const status = await statusFlow(world.ctx, { kind: 'status', ...commandOn(world, '/status', 'drive-by') });
    expect(status).toMatchObject({ outcome: 'answered', planId: planned.planId });
    expect(lastReply(world)).toContain(planned.planId ?? 'no plan id');

    const help = await helpFlow(world.ctx, { kind: 'help', ...commandOn(world, '/help', 'drive-by') });
    expect(help.outcome).toBe('answered');
    for (const name of ['/plan', '/approve', '/revise', '/cancel', '/status']) expect(lastReply(world)).toContain(name);
    const guessed = await helpFlow(world.ctx, { kind: 'help', unknown: 'aprove', ...commandOn(world, '/aprove') });
    expect(guessed.outcome).toBe('refused');
    expect(lastReply(world)).toContain('/aprove');
  });
});
