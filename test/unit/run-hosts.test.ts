import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { executeLocally } from '../../src/cli/local-execution.js';
import { planLocally } from '../../src/cli/local-planning.js';
import type { LocalTeamSetup } from '../../src/cli/local-team.js';
import { withOverrides } from '../../src/config/prices.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../../src/machine/planner-executor.js';
import { reduce } from '../../src/machine/reducer.js';
import type { Snapshot } from '../../src/machine/types.js';
import { noCapabilities } from '../../src/mcp/hub.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';
import { cycleCommitMessage } from '../../src/run/cycle-commit.js';
import { execute } from '../../src/run/execution.js';
import { planAndPublish } from '../../src/run/planning.js';
import { planningOutcome } from '../../src/run/planning-outcome.js';
import { abortFallbackReason, runEnding } from '../../src/run/run-ending.js';
import {
  approvedExecution,
  baseSha,
  commandOn,
  createFakeRepo,
  fakeExecutor,
  fakeModel,
  fakePlanner,
  fakeWorld,
  type FakeRepo,
  type Turn,
} from './run-fixture.js';
import { samplePlan } from './record-fixture.js';

/**
 * The fixture planner, but staging the plan the action's fixture record carries (record-fixture.ts),
 * so both hosts run under the same plan and the same approved scope.
 */
function samePlanner() {
  const planner = fakePlanner();
  return fakeModel('planner', planner.model, (asked) =>
    asked.includes('plan') && !asked.includes('summary')
      ? { fields: { plan: samplePlan, directive: 'Create CHANGELOG.md.' } }
      : asked.includes('summary')
        ? { fields: { summary: 'The run is over; see the history.' } }
        : { fields: { directive: 'Carry on with the next step.' } },
  );
}

// Quiet: what the code under test logs is recorded in core-mock's coreLog instead of printed.
vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

// The pieces of the engine both hosts use (run/), and the two hosts agreeing because of them.

const plan = { steps: [{ title: 'Add CHANGELOG.md' }] };
const planned = (): Snapshot =>
  reduce(plannerExecutorMachine, initialSnapshot('Add a CHANGELOG', defaultPolicy), {
    type: 'stage',
    agent: 'planner',
    fields: { plan, directive: 'Create CHANGELOG.md.\nUse Keep a Changelog.' },
  });
const cycle = (s: Snapshot, result: string, outcome: 'done' | 'replan' | 'abort') =>
  reduce(plannerExecutorMachine, s, { type: 'stage', agent: 'executor', fields: { result, outcome } });

describe('planningOutcome', () => {
  it('reads a plan, a question, a no-change answer, and anything else as a failure with its reason', () => {
    expect(planningOutcome(planned())).toEqual({ kind: 'planned', plan });
    const start = initialSnapshot('Add a CHANGELOG', defaultPolicy);
    const asked = reduce(plannerExecutorMachine, start, {
      type: 'stage',
      agent: 'planner',
      fields: { question: 'Which format?' },
    });
    expect(planningOutcome(asked)).toEqual({ kind: 'asked', question: 'Which format?' });
    const answered = reduce(plannerExecutorMachine, start, {
      type: 'stage',
      agent: 'planner',
      fields: { summary: 'It exists already.' },
    });
    expect(planningOutcome(answered)).toEqual({ kind: 'answered', summary: 'It exists already.' });
    expect(planningOutcome(start)).toEqual({ kind: 'failed', reason: 'the planner stopped without staging a plan' });
    const aborted = reduce(plannerExecutorMachine, start, {
      type: 'abort',
      reason: 'planner failed in state plan: 503',
    });
    expect(planningOutcome(aborted)).toMatchObject({ kind: 'failed', reason: 'planner failed in state plan: 503' });
  });
});

describe('runEnding', () => {
  it('is done unless the machine or the executor aborted, and always gives an abort its reason', () => {
    expect(runEnding(cycle(planned(), 'Wrote it.', 'done'))).toEqual({ outcome: 'done' });
    expect(runEnding(cycle(planned(), 'The tests cannot run here.', 'abort'))).toEqual({
      outcome: 'aborted',
      reason: 'The tests cannot run here.',
    });
    const stopped = reduce(plannerExecutorMachine, planned(), { type: 'abort', reason: 'reached max-cost-usd ($1)' });
    expect(runEnding(stopped)).toEqual({ outcome: 'aborted', reason: 'reached max-cost-usd ($1)' });
    const bare = {
      ...planned(),
      context: {
        ...planned().context,
        history: [{ directive: 'x', result: undefined as unknown as string, outcome: 'abort' as const }],
      },
    };
    expect(runEnding(bare)).toEqual({ outcome: 'aborted', reason: abortFallbackReason });
  });
});

describe('cycleCommitMessage', () => {
  it('names the cycle, the plan and the directive’s first line, cut at 60 characters; the action adds the issue', () => {
    const s = cycle(planned(), 'Wrote it.', 'replan');
    expect(cycleCommitMessage(s, '0a1b2c3d')).toBe('plangate: cycle 1 of plan 0a1b2c3d: Create CHANGELOG.md.');
    expect(cycleCommitMessage(s, '0a1b2c3d', 7)).toBe(
      'plangate: cycle 1 of plan 0a1b2c3d: Create CHANGELOG.md.\n\nRefs #7',
    );
    const long = reduce(plannerExecutorMachine, initialSnapshot('x', defaultPolicy), {
      type: 'stage',
      agent: 'planner',
      fields: { plan, directive: 'y'.repeat(80) },
    });
    expect(cycleCommitMessage(cycle(long, 'ok', 'done'), '0a1b2c3d')).toBe(
      `plangate: cycle 1 of plan 0a1b2c3d: ${'y'.repeat(60)}`,
    );
  });
});

describe('one engine, two hosts', () => {
  let gitDir: string;
  beforeEach(() => {
    gitDir = mkdtempSync(path.join(tmpdir(), 'plangate-hosts-'));
  });
  afterEach(() => rmSync(gitDir, { recursive: true, force: true }));

  /** The CLI's team setup over the same in-memory repository model the action's tests use. */
  function localSetup(repo: FakeRepo, executorTurns: Turn[]): LocalTeamSetup {
    return {
      repo: { root: gitDir, gitDir, git: repo.git },
      planner: samePlanner(),
      executor: fakeExecutor(executorTurns),
      allowedCommands: [],
      protectedPaths: ['.github/workflows/**'],
      prices: withOverrides({}),
      secrets: [],
      capabilities: noCapabilities,
      sandbox: createSandbox({ isolation: 'none', workTree: gitDir }),
    };
  }

  it('commit each cycle under the same subject and end an executor abort with the same reason', async () => {
    const turns = (repo: FakeRepo): Turn[] => [
      { fields: { result: 'Wrote CHANGELOG.md.', outcome: 'replan' }, meanwhile: () => repo.write('CHANGELOG.md') },
      {
        fields: { result: 'The README is generated; I cannot link it.', outcome: 'abort' },
        meanwhile: () => repo.write('README.md'),
      },
    ];

    const world = fakeWorld();
    world.ctx.executor = fakeExecutor(turns(world.repo));
    const execution = await approvedExecution(world);
    const action = await execute(world.ctx, execution);

    const local = createFakeRepo();
    const setup = localSetup(local, turns(local));
    const planning = await planLocally({
      setup,
      objective: 'Add a CHANGELOG',
      base: { ref: 'main', sha: baseSha },
      requestedBy: 'me',
      maxIterations: 8,
    });
    if (planning.kind !== 'planned') throw new Error(`the local planner did not plan: ${planning.kind}`);
    // The same plan id on both sides, so the subjects can be compared whole.
    const localPlan = { ...planning.plan, planId: execution.record.planId, approvedBy: 'me' };
    const outcome = await executeLocally({
      setup,
      plan: localPlan,
      branch: 'plangate/local',
      author: { name: 'Me', email: 'me@example.com' },
    });

    const subjects = (messages: string[]) => messages.map((m) => m.split('\n')[0]);
    const [start, ...actionCommits] = world.repo.branchLog(execution.record.branch).map((c) => c.message);
    // The action's branch starts with the empty commit its draft pull request needed; the CLI opens none.
    expect(start?.split('\n')[0]).toBe(`plangate: start plan ${execution.record.planId}`);
    const localCommits = [...local.commits.values()]
      .filter((c) => c.message.startsWith('plangate:'))
      .map((c) => c.message);
    expect(subjects(localCommits)).toEqual(subjects(actionCommits));
    expect(subjects(actionCommits)).toEqual([
      `plangate: cycle 1 of plan ${execution.record.planId}: Create CHANGELOG.md.`,
      `plangate: cycle 2 of plan ${execution.record.planId}: Carry on with the next step.`,
    ]);
    // Only the action's commits link the thread.
    expect(actionCommits.every((m) => m.includes('Refs #7'))).toBe(true);
    expect(localCommits.some((m) => m.includes('Refs #'))).toBe(false);

    expect(action.outcome).toBe('aborted');
    expect(outcome.abortReason).toBe('The README is generated; I cannot link it.');
    expect(world.thread.pulls[0]?.body).toContain('The README is generated; I cannot link it.');
    expect(outcome.plan.status).toBe('aborted');
  });

  it('say the same failure for a planner that stopped without a plan', async () => {
    const silent = () =>
      fakeModel('planner', 'gpt-4.1', () => ({ fields: {}, error: new Error('503 Service Unavailable') }));
    const setup = { ...localSetup(createFakeRepo(), []), planner: silent() };
    const local = await planLocally({
      setup,
      objective: 'Add a CHANGELOG',
      base: { ref: 'main', sha: baseSha },
      requestedBy: 'me',
      maxIterations: 8,
    });
    expect(local).toMatchObject({ kind: 'failed', reason: 'planner failed in state plan: 503 Service Unavailable' });

    const world = fakeWorld({ planner: silent() });
    const source = commandOn(world, '/plan add a CHANGELOG');
    const result = await planAndPublish(world.ctx, {
      source,
      requestedBy: 'maintainer',
      snapshot: initialSnapshot('Add a CHANGELOG', defaultPolicy),
      base: { ref: 'main', sha: baseSha },
      comments: [],
    });
    expect(result.outcome).toBe('failed');
    expect(world.thread.botComments(7).at(-1)?.body).toContain(
      'planning failed: planner failed in state plan: 503 Service Unavailable',
    );
  });
});
