import { describe, expect, it, vi } from 'vitest';
import { decodeRunRecord } from '../../src/record/run-record.js';
import { progressMarker } from '../../src/render/progress-comment.js';
import { stopHooks } from '../../src/entry/stop-hooks.js';
import { execute } from '../../src/run/execution.js';
import { planFlow } from '../../src/commands/plan.js';
import { maintainFlow } from '../../src/commands/maintain.js';
import {
  approvedExecution,
  commandOn,
  fakeExecutor,
  fakeModel,
  fakePlanner,
  fakeWorld,
  type FakeModel,
  type World,
} from './run-fixture.js';

vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

/**
 * A job stopped while it executes or plans (cancelled in the Actions UI, or out of time): the
 * runner's signal reaches main.ts, which runs the hooks the flow registered. The progress comment
 * must then say the run stopped and where it resumes, not "Executing" until someone approves again;
 * a /plan must not be left with only its 👀 reaction.
 */

/** A world with main.ts's stop hooks; `stop` fires them as its stop handler does. */
function stoppable(): { world: World; stop: (signal: string) => Promise<void> } {
  const world = fakeWorld();
  const hooks = stopHooks();
  world.ctx.onStop = hooks.register;
  return { world, stop: hooks.run };
}

/** Cycle 1 writes CHANGELOG.md and hands back; cycle 2 writes README.md, then `inCycle2` happens, then it reports done. */
function twoCycles(world: World, inCycle2: () => Promise<void>): void {
  world.ctx.executor = fakeExecutor([
    {
      fields: { result: 'Wrote CHANGELOG.md.', outcome: 'replan' },
      meanwhile: () => world.repo.write('CHANGELOG.md'),
    },
    {
      fields: { result: 'Linked it from the README.', outcome: 'done' },
      meanwhile: async () => {
        world.repo.write('README.md');
        await inCycle2();
      },
    },
  ]);
}

function progressBody(world: World, planId: string): string {
  const [progress] = world.thread.botComments(7).filter((c) => c.body.includes(progressMarker(planId)));
  return progress?.body ?? '';
}

describe('a job stopped while it executes', () => {
  it('puts the progress comment back at the last finished cycle, says the job was stopped, and acts no more', async () => {
    const { world, stop } = stoppable();
    let planId = '';
    let seenWhileStopping = '';
    // The signal arrives while cycle 2's model request is out; its answer would finish the cycle.
    twoCycles(world, async () => {
      await stop('SIGINT');
      seenWhileStopping = progressBody(world, planId);
    });
    const execution = await approvedExecution(world);
    planId = execution.record.planId;
    const resume = `comment \`/approve ${planId}\`, to resume from the last finished cycle`;
    const result = await execute(world.ctx, execution);

    // Right after the signal: cycle 1's end, where a re-run resumes; the half-done cycle 2 is not in it.
    expect(seenWhileStopping).toMatch(/^### ⚠️ Plan `[^`]+` interrupted/);
    expect(seenWhileStopping).toContain(
      'the job was stopped by SIGINT (cancelled, or out of time) after 1 finished cycle\n',
    );
    expect(seenWhileStopping).toContain(resume);
    expect(decodeRunRecord(seenWhileStopping)?.snapshot.context.history.map((h) => h.result)).toEqual([
      'Wrote CHANGELOG.md.',
    ]);

    // The run goes on here (the real step exits once the stop is done), but acts no more: cycle 2's
    // answer is not acted on, no model is asked again, nothing is committed, pushed or opened: the
    // pull request is the draft opened before the first cycle, never filled in or marked ready.
    expect(result.outcome).toBe('failed');
    expect((world.ctx.executor as FakeModel).asked).toHaveLength(2);
    expect(world.repo.branchLog(execution.record.branch).map((c) => c.message.split('\n')[0])).toEqual([
      `plangate: start plan ${planId}`,
      `plangate: cycle 1 of plan ${planId}: Create CHANGELOG.md.`,
    ]);
    expect(world.thread.pulls).toHaveLength(1);
    expect(world.thread.pulls[0]?.draft).toBe(true);
    expect(world.thread.pulls[0]?.body).not.toContain('Wrote CHANGELOG.md.');
    const last = progressBody(world, planId);
    expect(last).toBe(seenWhileStopping);
    expect(decodeRunRecord(last)?.pushed).toBe(world.repo.origin.get(`refs/heads/${execution.record.branch}`));
  });

  it('writes the stop after a save already under way, so the stop is what stays', async () => {
    const { world, stop } = stoppable();
    let stopped: Promise<void> | undefined;
    const updateComment = world.thread.updateComment.bind(world.thread);
    // Cycle 1's save is on its way when the signal comes, and GitHub answers it after the stop's write was asked.
    world.thread.updateComment = async (id, body) => {
      if (!stopped && body.includes('· cycles: 1 ·') && !body.includes('interrupted')) {
        stopped = stop('SIGTERM');
        await new Promise(setImmediate);
      }
      return updateComment(id, body);
    };
    world.ctx.executor = fakeExecutor([
      {
        fields: { result: 'Wrote CHANGELOG.md.', outcome: 'done' },
        meanwhile: () => world.repo.write('CHANGELOG.md'),
      },
    ]);
    const execution = await approvedExecution(world);
    await execute(world.ctx, execution);
    expect(stopped, 'the signal came during the save').toBeDefined();
    await stopped;
    const body = progressBody(world, execution.record.planId);
    expect(body).toMatch(/^### ⚠️ Plan `[^`]+` interrupted/);
    expect(body).toContain('the job was stopped by SIGTERM (cancelled, or out of time) after 1 finished cycle\n');
  });

  it('keeps the checkpoint at what it pushed, and leaves alone a push someone made after the signal', async () => {
    const { world, stop } = stoppable();
    let branch = '';
    // The signal, and then someone else pushes to the branch: the stopped run must not push over it.
    twoCycles(world, async () => {
      await stop('SIGINT');
      world.repo.pushAs(branch, { name: 'Mallory', email: 'mallory@example.com' }, 'Sneak in');
    });
    const execution = await approvedExecution(world);
    branch = execution.record.branch;
    await execute(world.ctx, execution);
    const body = progressBody(world, execution.record.planId);
    expect(body).toMatch(/^### ⚠️ Plan `[^`]+` interrupted/);
    expect(body).toContain('after 1 finished cycle\n');
    // Cycle 2 never landed: a re-run must do it (and finds the foreign push), so the checkpoint may not count it as done.
    expect(decodeRunRecord(body)?.snapshot.context.history.map((h) => h.result)).toEqual(['Wrote CHANGELOG.md.']);
    expect(world.repo.branchLog(branch).map((c) => c.message.split('\n')[0])).toEqual([
      `plangate: start plan ${execution.record.planId}`,
      `plangate: cycle 1 of plan ${execution.record.planId}: Create CHANGELOG.md.`,
      'Sneak in',
    ]);
  });

  it.each([
    ['replies with nothing more when the failure comes after the signal', true],
    ['throws the failure on for its reply when no signal came', false],
  ])('for a run whose commit fails, %s', async (_, signalled) => {
    const { world, stop } = stoppable();
    // Cycle 1's commit is under way when the signal comes, and the signal ends it (the runner signals
    // the whole process group); unstopped, something else ends it.
    const { git } = world.ctx;
    world.ctx.git = async (args) => {
      if (!args.includes('commit')) return git(args);
      if (signalled) await stop('SIGINT');
      throw new Error('git commit failed: killed by SIGINT');
    };
    world.ctx.executor = fakeExecutor([
      { fields: { result: 'Wrote CHANGELOG.md.', outcome: 'done' }, meanwhile: () => world.repo.write('CHANGELOG.md') },
    ]);
    const execution = await approvedExecution(world);
    const said = () => world.thread.botComments(7).map((c) => c.body);
    const before = said().length;
    const ran = execute(world.ctx, execution);
    if (!signalled) {
      await expect(ran).rejects.toThrow('git commit failed: killed by SIGINT');
      return;
    }
    expect(await ran).toMatchObject({ outcome: 'failed', planId: execution.record.planId });
    // The plan comment and the progress comment, which still says the job stopped; no reply of the failure.
    expect(said()).toHaveLength(before + 1);
    const body = progressBody(world, execution.record.planId);
    expect(body).toContain('the job was stopped by SIGINT (cancelled, or out of time) after 0 finished cycles\n');
    expect(body).not.toContain('git commit failed');
  });

  it('leaves a run that ends without a stop untouched, and withdraws its hook: a signal after the end changes nothing', async () => {
    const { world, stop } = stoppable();
    world.ctx.executor = fakeExecutor([
      { fields: { result: 'Wrote CHANGELOG.md.', outcome: 'done' }, meanwhile: () => world.repo.write('CHANGELOG.md') },
    ]);
    const execution = await approvedExecution(world);
    const result = await execute(world.ctx, execution);
    expect(result.outcome).toBe('done');
    const finished = progressBody(world, execution.record.planId);
    expect(finished).toMatch(/### ✅ Plan `[^`]+` finished/);
    await stop('SIGTERM');
    expect(progressBody(world, execution.record.planId)).toBe(finished);
  });
});

describe('a job stopped while it plans', () => {
  const objective = 'add a CHANGELOG';
  const plan = (world: World) =>
    planFlow(world.ctx, { kind: 'plan', objective, ...commandOn(world, `/plan ${objective}`) });
  const stoppedText =
    '@maintainer planning stopped: the job was stopped by SIGTERM (cancelled, or out of time) while the planner worked.\n\n' +
    'No plan was posted, so there is nothing to approve. Re-run the job to plan again.';

  it('says on the thread that planning stopped, that there is nothing to approve and how to plan again', async () => {
    const { world, stop } = stoppable();
    const planner = fakePlanner();
    // The signal comes while the planner's request is out.
    world.ctx.planner = {
      ...planner,
      complete: async (request) => {
        await stop('SIGTERM');
        return planner.complete(request);
      },
    };
    let checked = 0;
    world.ctx.sandbox = { ...world.ctx.sandbox, refusal: async () => void checked++ };
    // The planner still comes back with a plan in the seconds before the process ends.
    const result = await plan(world);
    expect(world.thread.botComments(7).map((c) => c.body)).toEqual([stoppedText]);
    expect(result.outcome).toBe('failed');
    // Its answer is not acted on: the plan is neither staged nor checked, and the planner is asked nothing more.
    expect(checked).toBe(0);
    expect(planner.asked).toHaveLength(1);
  });

  it('asks the planner nothing more once the signal came, though its answer left the plan to stage', async () => {
    const { world, stop } = stoppable();
    // The first answer stages the directive only; unstopped, the planner would be asked again for the plan.
    const planner = fakeModel('planner', 'gpt-4.1', (_asked, index) =>
      index === 0
        ? { fields: { directive: 'Create CHANGELOG.md.' }, meanwhile: () => stop('SIGTERM') }
        : { fields: { plan: { steps: [{ title: 'Add CHANGELOG.md' }] } } },
    );
    world.ctx.planner = planner;
    expect((await plan(world)).outcome).toBe('failed');
    expect(planner.asked).toHaveLength(1);
    expect(world.thread.botComments(7).map((c) => c.body)).toEqual([stoppedText]);
  });

  it.each([
    ['posts no plan after it, when the job is stopped while the plan is checked', () => undefined],
    [
      // The stop ends the sandbox's processes; the checks that ask it then fail.
      'stays quiet when what the stop ended makes the plan checks fail',
      () => {
        throw new Error('the sandbox was closed');
      },
    ],
  ])('says so, and %s', async (_, afterStop: () => undefined) => {
    const { world, stop } = stoppable();
    world.ctx.sandbox = {
      ...world.ctx.sandbox,
      refusal: async () => {
        await stop('SIGTERM');
        return afterStop();
      },
    };
    const result = await plan(world);
    expect(world.thread.botComments(7).map((c) => c.body)).toEqual([stoppedText]);
    expect(result.outcome).toBe('failed');
  });

  it('says nothing when the job is stopped once the planner is done', async () => {
    const { world, stop } = stoppable();
    expect((await plan(world)).outcome).toBe('planned');
    const posted = world.thread.botComments(7).map((c) => c.body);
    await stop('SIGTERM');
    expect(world.thread.botComments(7).map((c) => c.body)).toEqual(posted);
    expect(posted.join('\n')).not.toContain('planning stopped');
  });
});

describe('a scheduled job stopped while it runs its tasks', () => {
  it('starts no further task: no issue is opened and no model asked for it, and the job summary says why', async () => {
    const { world, stop } = stoppable();
    const tasks = [
      { name: 'changelog', objective: 'add a CHANGELOG' },
      { name: 'readme', objective: 'tidy the README' },
    ];
    world.ctx.settings = { ...world.ctx.settings, config: { ...world.ctx.settings.config, tasks } };
    const planner = fakePlanner();
    // The signal comes while the first task's planner works.
    world.ctx.planner = {
      ...planner,
      complete: async (request) => {
        await stop('SIGTERM');
        return planner.complete(request);
      },
    };
    const result = await maintainFlow(world.ctx, { type: 'schedule', cron: '0 6 * * 1' });
    expect(result.outcome).toBe('failed');
    const opened = [...world.thread.issues.values()].map((i) => i.title).filter((t) => t.startsWith('plangate task:'));
    expect(opened).toEqual(['plangate task: changelog']);
    expect(planner.asked).toHaveLength(1);
    expect(world.summaries.at(-1)).toContain('not started: the job was stopped by SIGTERM');
  });
});
