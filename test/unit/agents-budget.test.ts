import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBudget, enforceBudget, isBudgeted, type Budget } from '../../src/agents/budget.js';
import { drive } from '../../src/agents/drive.js';
import { RunState } from '../../src/agents/run-state.js';
import type { Team } from '../../src/agents/team.js';
import type { Plan, Role } from '../../src/machine/fields.js';
import { executorOnlyMachine, executorOnlySnapshot } from '../../src/machine/executor-only.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../../src/machine/planner-executor.js';
import { createReadTools } from '../../src/tools/read-tools.js';
import { createToolbox, type Toolbox } from '../../src/tools/toolbox.js';
import { makeRepo, removeDir } from './tools-git-fixture.js';
import { coreLog, resetCoreLog } from '../helpers/core-mock.js';
import {
  executingRun,
  expectWellFormed,
  look,
  openTurn,
  stage,
  stagingTool,
  stubClient,
  stubTeam,
  summonTurn,
  type AgentTurn,
  type StubClient,
} from './agent-fixture.js';

// The budget warns through @actions/core when it stops a run; collected so tests can read them.
vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

const minute = 60_000;
const plan: Plan = { steps: [{ title: 'Add CHANGELOG.md' }, { title: 'Link it from the README' }] };
const facts = { executorTools: ['list_files', 'read_file', 'search', 'update_context'] };

/** A fake clock and a spend meter the tests move by hand. */
function meters() {
  const state = { now: 1_000_000, spent: 0 as number | null };
  return {
    state,
    budget: (limits: { timeoutMinutes?: number; maxCostUsd?: number }, warn?: (m: string) => void): Budget =>
      createBudget({
        now: () => state.now,
        startedAt: 1_000_000,
        spentUsd: () => state.spent,
        ...limits,
        ...(warn ? { warn } : {}),
      }),
  };
}

let repo: string;
beforeEach(() => {
  resetCoreLog();
  repo = makeRepo({ 'README.md': '# widgets\n' });
});
afterEach(() => removeDir(repo));

function toolbox(run: RunState, role: Role): Toolbox {
  return createToolbox([...createReadTools(repo), stagingTool(run, role)]);
}

const executing = () => executingRun(plan);

/** The executor about to be summoned for the first cycle. */
function executorTurn(): AgentTurn {
  const run = executing();
  return openTurn('executor', run, toolbox(run, 'executor'));
}

/** An executor that only looks around, six times; `onRequest` as in stubClient. */
const idleExecutor = (onRequest?: () => void) =>
  stubClient(
    'executor',
    Array.from({ length: 6 }, () => ({ calls: [look] })),
    onRequest ? { onRequest } : {},
  );

describe('createBudget', () => {
  it('trips on time exactly at the limit, not before', () => {
    const { state, budget } = meters();
    const b = budget({ timeoutMinutes: 30 });
    state.now += 30 * minute - 1;
    expect(b.check()).toBeUndefined();
    state.now += 1;
    expect(b.check()).toBe('reached timeout-minutes (30)');
  });

  it('trips on cost once the spend reaches the limit, naming both', () => {
    const { state, budget } = meters();
    const b = budget({ maxCostUsd: 2.5 });
    state.spent = 2.4999;
    expect(b.check()).toBeUndefined();
    state.spent = 2.61;
    expect(b.check()).toBe('reached max-cost-usd ($2.5; spent $2.61)');
    state.spent = 0.75;
    expect(budget({ maxCostUsd: 0.5 }).check()).toBe('reached max-cost-usd ($0.5; spent $0.7500)');
  });

  it('names the time limit first when both are spent', () => {
    const { state, budget } = meters();
    state.now += 11 * minute;
    state.spent = 9;
    expect(budget({ timeoutMinutes: 10, maxCostUsd: 1 }).check()).toBe('reached timeout-minutes (10)');
  });

  it('never trips on an unknown price, and says so once', () => {
    const { state, budget } = meters();
    const warnings: string[] = [];
    const b = budget({ maxCostUsd: 0.01 }, (m) => warnings.push(m));
    state.spent = null;
    for (let i = 0; i < 5; i++) expect(b.check()).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('max-cost-usd ($0.01) cannot be enforced');
    // Without a cost limit an unknown price is nothing to warn about.
    const quiet: string[] = [];
    expect(budget({}, (m) => quiet.push(m)).check()).toBeUndefined();
    expect(quiet).toEqual([]);
  });

  it('without limits never trips, however long and costly the run', () => {
    const { state, budget } = meters();
    state.now += 10_000 * minute;
    state.spent = 1e6;
    expect(budget({}).check()).toBeUndefined();
  });
});

describe('enforceBudget', () => {
  it('applies to the working states only', () => {
    expect(['plan', 'execute', 'replan'].every((s) => isBudgeted(s as never))).toBe(true);
    expect(['finish', 'abort', 'done', 'ask'].some((s) => isBudgeted(s as never))).toBe(false);
  });

  it('aborts a working state with the reason, and leaves a wrap-up state alone', () => {
    const spent: Budget = { check: () => 'reached timeout-minutes (1)', reserve: () => () => undefined };
    const run = executing();
    expect(enforceBudget(spent, run)).toBe('reached timeout-minutes (1)');
    expect(run.snapshot.state).toBe('abort');
    expect(run.snapshot.abortReason).toBe('reached timeout-minutes (1)');
    // The interrupted cycle is kept, as for any forced abort.
    expect(run.snapshot.context.history).toEqual([
      { directive: 'Create CHANGELOG.md.', result: '(no result reported)', outcome: 'abort' },
    ]);
    const trail = run.snapshot.trail.length;
    expect(enforceBudget(spent, run)).toBeUndefined();
    expect(run.snapshot.trail).toHaveLength(trail);
    expect(enforceBudget(undefined, executing())).toBeUndefined();
  });
});

describe('summon with a budget', () => {
  it('stops on time before the next request, never during one', async () => {
    const { state, budget } = meters();
    const turn = executorTurn();
    const { run } = turn;
    // Each request takes 4 minutes of the 10 allowed: the fourth would start at minute 12.
    const client = idleExecutor(() => void (state.now += 4 * minute));
    await summonTurn(turn, client, facts, { budget: budget({ timeoutMinutes: 10 }) });
    expect(client.requests).toHaveLength(3);
    expect(run.snapshot.state).toBe('abort');
    expect(run.snapshot.abortReason).toBe('reached timeout-minutes (10)');
    // The last response's calls ran and were answered: the session stays well-formed for the record.
    expect(turn.session.messages.at(-1)).toMatchObject({ role: 'tool' });
    expect(String(turn.session.messages.at(-1)?.content)).toContain('README.md');
    expectWellFormed(turn.session.messages);
    expect(coreLog.warnings).toEqual(['Stopping the run: reached timeout-minutes (10).']);
  });

  it('stops on cost after the response that crossed the limit', async () => {
    const { state, budget } = meters();
    const turn = executorTurn();
    const { run } = turn;
    const client = idleExecutor();
    // $0.40 a response against $1: the third response crosses it, and no fourth request is made.
    const onUsage = () => void (state.spent = (state.spent ?? 0) + 0.4);
    await summonTurn(turn, client, facts, { onUsage, budget: budget({ maxCostUsd: 1 }) });
    expect(client.requests).toHaveLength(3);
    expect(run.snapshot.abortReason).toBe('reached max-cost-usd ($1; spent $1.20)');
    expect(run.snapshot.context.history.at(-1)).toEqual({
      directive: 'Create CHANGELOG.md.',
      result: '(no result reported)',
      outcome: 'abort',
    });
    expectWellFormed(turn.session.messages);
  });

  it('lets a paid response finish its stage before the budget is looked at again', async () => {
    const { state, budget } = meters();
    const turn = executorTurn();
    const { run } = turn;
    const client = stubClient('executor', [
      { calls: [look] },
      { calls: [stage({ result: 'Wrote it.', outcome: 'done' })] },
    ]);
    const onUsage = () => void (state.spent = (state.spent ?? 0) + 0.6);
    await summonTurn(turn, client, facts, { onUsage, budget: budget({ maxCostUsd: 1 }) });
    expect(run.snapshot.state).toBe('finish');
    expect(run.snapshot.abortReason).toBeUndefined();
    expect(run.snapshot.context.history).toEqual([
      { directive: 'Create CHANGELOG.md.', result: 'Wrote it.', outcome: 'done' },
    ]);
  });

  it('never stops the wrap-up: a spent budget still lets the planner write the summary', async () => {
    const run = executing();
    run.dispatch({ type: 'abort', reason: 'reached timeout-minutes (5)' });
    expect(run.snapshot.state).toBe('abort');
    const turn = openTurn('planner', run, toolbox(run, 'planner'));
    const client = stubClient('planner', [
      { calls: [look] },
      { calls: [stage({ summary: 'Stopped at the time limit.' })] },
    ]);
    let checks = 0;
    const spent: Budget = { check: () => (checks++, 'reached timeout-minutes (5)'), reserve: () => () => undefined };
    await summonTurn(turn, client, facts, { budget: spent });
    expect(run.snapshot.state).toBe('done');
    expect(run.snapshot.context.summary).toBe('Stopped at the time limit.');
    expect(client.requests).toHaveLength(2);
    expect(checks).toBe(0);
  });

  it('never stops a run whose price is unknown', async () => {
    const { state, budget } = meters();
    state.spent = null;
    const turn = executorTurn();
    const { run } = turn;
    const client = stubClient('executor', [
      { calls: [look] },
      { calls: [look] },
      { calls: [stage({ result: 'Done.', outcome: 'done' })] },
    ]);
    const warnings: string[] = [];
    await summonTurn(turn, client, facts, { budget: budget({ maxCostUsd: 0.0001 }, (m) => warnings.push(m)) });
    expect(run.snapshot.state).toBe('finish');
    expect(client.requests).toHaveLength(3);
    expect(warnings).toHaveLength(1);
  });
});

describe('drive with a budget', () => {
  function team(planner: StubClient, executor: StubClient, run: RunState, onUsage: () => void = () => undefined) {
    return stubTeam(run, planner, executor, repo, { onUsage });
  }

  it('ends in done with the reason and the history kept when the cost limit trips mid-cycle', async () => {
    const { state, budget } = meters();
    const planner = stubClient('planner', [
      { calls: [stage({ plan, directive: 'Create CHANGELOG.md.' })] },
      { calls: [stage({ directive: 'Link it from the README.' })] },
      { calls: [stage({ summary: 'Stopped at the cost limit after one cycle.' })] },
    ]);
    const executor = stubClient('executor', [
      { calls: [look] },
      { calls: [stage({ result: 'Wrote CHANGELOG.md.', outcome: 'replan' })] },
      { calls: [look] },
      { calls: [look] },
      { calls: [stage({ result: 'never sent', outcome: 'done' })] },
    ]);
    const run = new RunState(plannerExecutorMachine, initialSnapshot('Add a CHANGELOG', defaultPolicy));
    // $0.25 a request, $1.25 allowed: the planner's two and the executor's three reach it.
    const t = team(planner, executor, run, () => void (state.spent = (state.spent ?? 0) + 0.25));
    const cycles: string[] = [];
    const final = await drive(run, t, {
      budget: budget({ maxCostUsd: 1.25 }),
      onCycle: async (s) => void cycles.push(s.state),
    });

    expect(final.state).toBe('done');
    expect(final.abortReason).toBe('reached max-cost-usd ($1.25; spent $1.25)');
    expect(executor.requests).toHaveLength(3);
    expect(final.context.history).toEqual([
      { directive: 'Create CHANGELOG.md.', result: 'Wrote CHANGELOG.md.', outcome: 'replan' },
      { directive: 'Link it from the README.', result: '(no result reported)', outcome: 'abort' },
    ]);
    expect(final.context.summary).toBe('Stopped at the cost limit after one cycle.');
    // The abort summary is written past the limit, and its message gives the reason.
    expect(planner.requests).toHaveLength(3);
    expect(String(planner.requests[2]?.messages.at(-1)?.content)).toContain(
      'Reason: reached max-cost-usd ($1.25; spent $1.25).',
    );
    expect(cycles).toEqual(['replan', 'abort']);
    expect(final.trail.map((s) => `${s.from}->${s.to}`)).toEqual([
      'plan->execute',
      'execute->replan',
      'replan->execute',
      'execute->abort',
      'abort->done',
    ]);
  });

  it('checks before each summons: a run past its time never calls the next agent', async () => {
    const { state, budget } = meters();
    const planner = stubClient(
      'planner',
      [
        { calls: [stage({ plan, directive: 'Create CHANGELOG.md.' })] },
        { calls: [stage({ summary: 'Out of time before any work.' })] },
      ],
      { onRequest: () => void (state.now += 20 * minute) },
    );
    const executor = stubClient('executor', []);
    const run = new RunState(plannerExecutorMachine, initialSnapshot('Add a CHANGELOG', defaultPolicy));
    const final = await drive(run, team(planner, executor, run), { budget: budget({ timeoutMinutes: 15 }) });
    expect(final.state).toBe('done');
    expect(final.abortReason).toBe('reached timeout-minutes (15)');
    expect(executor.requests).toHaveLength(0);
    expect(final.context.summary).toBe('Out of time before any work.');
  });

  it('ends an executor-only run straight in done, with no summary to write', async () => {
    const { state, budget } = meters();
    state.now += 60 * minute;
    const run = new RunState(executorOnlyMachine, executorOnlySnapshot('Add a CHANGELOG', defaultPolicy));
    let summoned = 0;
    const t: Pick<Team, 'summonCurrent'> = { summonCurrent: async () => void summoned++ };
    const final = await drive(run, t, { budget: budget({ timeoutMinutes: 60 }) });
    expect(final.state).toBe('done');
    expect(final.abortReason).toBe('reached timeout-minutes (60)');
    expect(summoned).toBe(0);
    expect(final.context.history).toEqual([
      { directive: 'Add a CHANGELOG', result: '(no result reported)', outcome: 'abort' },
    ]);
  });
});
