import { describe, expect, it } from 'vitest';
import {
  deriveScope,
  minTokensPerStep,
  namedCommands,
  scopeDelta,
  unplannedScope,
} from '../../src/checks/scope-derivation.js';
import type { CostEstimate } from '../../src/checks/cost-estimate.js';
import {
  approvedScopeSchema,
  inScope,
  scopeEntryFor,
  widenScope,
  type ApprovedScope,
} from '../../src/scope/approved-scope.js';
import type { Plan } from '../../src/machine/fields.js';
import { renderScope } from '../../src/render/scope.js';
import { runBudget } from '../../src/run/run-budget.js';

const plan: Plan = {
  steps: [
    { title: 'Edit the report', files: ['./src/report.ts', 'test/'], verify: 'npm test' },
    { title: 'Lint it with `npm run lint` and `rm -rf /`', detail: 'Then `npx tsc --noEmit`.', files: ['docs/*.md'] },
  ],
};
const unknown: CostEstimate = { kind: 'unknown', model: 'x', steps: 2, reason: 'no price' };
const noUsage = { promptTokens: 0, cachedTokens: 0, completionTokens: 0 };

describe('deriveScope', () => {
  it('allows the paths the steps name and the commands they name that allowed-commands allows', () => {
    const scope = deriveScope({
      plan,
      allowedCommands: ['npm test', 'npm run *'],
      planning: noUsage,
      estimate: unknown,
      maxIterations: 10,
    });
    expect(scope.paths).toEqual(['src/report.ts', 'test', 'docs/*.md']);
    // `rm -rf /` and `npx tsc --noEmit` are named, but not allowed: not in the scope.
    expect(scope.commands).toEqual(['npm test', 'npm run lint']);
  });

  it('budgets twice the estimate: tokens from planning (at least a floor a step), cycles, and dollars capped by max-cost-usd', () => {
    const planning = { promptTokens: 20_000, cachedTokens: 0, completionTokens: 1_000 };
    const range: CostEstimate = { kind: 'range', model: 'x', steps: 2, lowUsd: 0.01, highUsd: 0.1 };
    const scope = deriveScope({ plan, allowedCommands: [], planning, estimate: range, maxIterations: 3 });
    // Three planning sessions a step (the executor's two and the planner's one), twice over.
    expect(scope.budget).toEqual({ tokens: 2 * 6 * 21_000, cycles: 3, costUsd: 0.1 * 3 });
    const capped = deriveScope({
      plan,
      allowedCommands: [],
      planning,
      estimate: range,
      maxIterations: 8,
      maxCostUsd: 0.2,
    });
    expect(capped.budget).toEqual({ tokens: 2 * 6 * 21_000, cycles: 4, costUsd: 0.2 });
    const small = deriveScope({ plan, allowedCommands: [], planning: noUsage, estimate: unknown, maxIterations: 8 });
    expect(small.budget).toEqual({ tokens: 2 * minTokensPerStep, cycles: 4 });
    // A one-step plan still has room for a retry and a revision: at least four cycles, up to max-iterations.
    const oneStep = { steps: [plan.steps[0]!] };
    const short = deriveScope({
      plan: oneStep,
      allowedCommands: [],
      planning: noUsage,
      estimate: unknown,
      maxIterations: 8,
    });
    expect(short.budget).toEqual({ tokens: minTokensPerStep, cycles: 4 });
    const bounded = deriveScope({
      plan: oneStep,
      allowedCommands: [],
      planning: noUsage,
      estimate: unknown,
      maxIterations: 2,
    });
    expect(bounded.budget.cycles).toBe(2);
  });

  it('carries the time limit a job of the run may take, shown in the plan comment, and keeps it through an amendment', () => {
    const input = { plan, allowedCommands: [], planning: noUsage, estimate: unknown, maxIterations: 10 };
    expect(deriveScope(input).budget.minutes).toBeUndefined();
    const timed = deriveScope({ ...input, timeoutMinutes: 45 });
    expect(timed.budget.minutes).toBe(45);
    expect(renderScope(timed)).toContain('- Time: at most 45 minutes a job (`timeout-minutes`)');
    expect(widenScope(timed, { budget: { tokens: 1, cycles: 1 } }).budget.minutes).toBe(45);
  });

  it('grants parallel-steps only to a plan that says which steps need which, and keeps it through an amendment', () => {
    const input = { plan, allowedCommands: [], planning: noUsage, estimate: unknown, maxIterations: 10 };
    // A plan without after runs a step after another: the setting is no part of what it is granted.
    const sequential = deriveScope({ ...input, parallelSteps: 3 });
    expect('parallelSteps' in sequential).toBe(false);
    expect(renderScope(sequential)).not.toContain('Steps at once');
    const graph: Plan = {
      steps: [
        { ...plan.steps[0]!, after: [] },
        { ...plan.steps[1]!, after: [] },
      ],
    };
    const together = deriveScope({ ...input, plan: graph, parallelSteps: 3 });
    expect(together.parallelSteps).toBe(3);
    expect(renderScope(together)).toContain('- Steps at once: at most 3 (`parallel-steps`)');
    expect(renderScope(deriveScope({ ...input, plan: graph, parallelSteps: 1 }))).toContain(
      '- Steps at once: one at a time (`parallel-steps`)',
    );
    // Unset by the caller: nothing is granted, and the run takes one step at a time.
    expect('parallelSteps' in deriveScope({ ...input, plan: graph })).toBe(false);
    const widened = widenScope(together, { paths: ['lib'], budget: { tokens: 1, cycles: 1 } });
    expect(widened.parallelSteps).toBe(3);
    expect('parallelSteps' in widenScope(sequential, { paths: ['lib'] })).toBe(false);
  });

  it('never records more steps at once than plangate allows, nor none', () => {
    const base = { paths: [], commands: [], budget: { tokens: 1, cycles: 1 } };
    expect(approvedScopeSchema.safeParse({ ...base, parallelSteps: 8 }).success).toBe(true);
    for (const parallelSteps of [0, 9, 2.5]) {
      expect(approvedScopeSchema.safeParse({ ...base, parallelSteps }).success, String(parallelSteps)).toBe(false);
    }
  });

  it('holds a run to the shorter of the approved time limit and the workflow’s', () => {
    let now = 0;
    const approved = {
      budget: { tokens: 1_000_000, cycles: 9, minutes: 10 },
      ledger: () => ({ entries: [] }),
      atApproval: { entries: [] },
      prices: {},
    };
    const budget = runBudget(
      { timeoutMinutes: 30 },
      () => 0,
      () => now,
      approved,
    );
    now = 9 * 60_000;
    expect(budget.check()).toBeUndefined();
    now = 10 * 60_000;
    expect(budget.check()).toBe('reached timeout-minutes (10)');
  });

  it('reads the commands a step quotes as well as its verify', () => {
    expect(namedCommands(plan.steps[1]!)).toEqual(['npm run lint', 'rm -rf /', 'npx tsc --noEmit']);
  });

  it('gives a run without a plan the configuration’s bounds', () => {
    expect(unplannedScope({ allowedCommands: ['npm test'], maxIterations: 4, maxCostUsd: 1 })).toEqual({
      paths: ['.'],
      commands: ['npm test'],
      budget: { tokens: 4 * minTokensPerStep, cycles: 4, costUsd: 1 },
    });
  });
});

describe('what a scope allows', () => {
  const scope: ApprovedScope = {
    paths: ['src/report.ts', 'test', 'docs/*.md', 'notes/a.md/index|package.json', 'app/[id]'],
    commands: ['npm test'],
    budget: { tokens: 1, cycles: 1 },
  };

  it.each([
    ['src/report.ts', true],
    ['./src/report.ts', true],
    ['test/a/b.test.ts', true],
    ['app/[id]/page.tsx', true],
    // Entries are literal: pattern characters in one stand for themselves.
    ['docs/*.md', true],
    ['docs/guide.md', false],
    ['notes/a.md/index|package.json', true],
    ['package.json', false],
    ['notes/a.md', false],
    ['app/i/page.tsx', false],
    ['src/report.ts.bak', false],
    ['testing/x', false],
    ['.github/workflows/ci.yml', false],
  ])('%s → %s', (path, allowed) => {
    expect(inScope(path, scope)).toBe(allowed);
  });

  it('reads `.` as the whole repository', () => {
    expect(inScope('package.json', { paths: ['.'] })).toBe(true);
    expect(inScope('a/b/c.ts', { paths: ['.'] })).toBe(true);
  });

  it('names the entry that allows a path', () => {
    expect(scopeEntryFor('test/x.ts', scope)).toBe('test');
  });

  it('needs an amendment only for what a revision adds beyond the scope', () => {
    const revised: Plan = {
      steps: [
        ...plan.steps,
        {
          title: 'Also the changelog',
          files: ['CHANGELOG.md', 'test/new.test.ts', 'app/[id]/page.tsx', 'src'],
          verify: 'npm run lint',
        },
      ],
    };
    expect(scopeDelta(scope, revised, ['npm test', 'npm run *'])).toEqual({
      paths: ['CHANGELOG.md', 'src'],
      commands: ['npm run lint'],
    });
    expect(
      scopeDelta(scope, { steps: [{ title: 'Fix the test', files: ['test/x.ts'], verify: 'npm test' }] }, ['npm test']),
    ).toEqual({});
  });

  it('widens by an approved amendment: paths and commands joined, budgets added', () => {
    expect(
      widenScope(scope, { paths: ['CHANGELOG.md'], commands: ['npm run lint'], budget: { tokens: 2, cycles: 3 } }),
    ).toEqual({
      paths: [...scope.paths, 'CHANGELOG.md'],
      commands: ['npm test', 'npm run lint'],
      budget: { tokens: 3, cycles: 4 },
    });
  });
});
