import { describe, expect, it, vi } from 'vitest';
import { createBudget, enforceBudget } from '../../src/agents/budget.js';
import { RunState } from '../../src/agents/run-state.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../../src/machine/planner-executor.js';

vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

describe('the approved budget', () => {
  const budgetFor = (spentTokens: number, spentUsd: number | null, costUsd?: number) =>
    createBudget({
      now: () => 0,
      startedAt: 0,
      spentUsd: () => spentUsd,
      approved: {
        tokens: 10_000,
        ...(costUsd !== undefined ? { costUsd } : {}),
        spentTokens: () => spentTokens,
        spentUsd: () => spentUsd,
      },
    });

  it('holds back the request that would go past the tokens, not only one after they are spent', () => {
    expect(budgetFor(6_000, null).check(3_000)).toBeUndefined();
    const budget = budgetFor(6_000, null);
    expect(budget.check(5_000)).toMatch(
      /the approved budget of 10,000 tokens is spent: 6,000 used, and the next request would take about 5,000 more/,
    );
    expect(budget.spent).toBeDefined();
  });

  it('prices the next request at what a token has cost so far', () => {
    // 6,000 tokens cost $0.06: the next 3,000 would take it to $0.09, past $0.08.
    expect(budgetFor(6_000, 0.06, 0.08).check(3_000)).toMatch(/the approved budget of \$0\.08\d* is spent/);
    expect(budgetFor(6_000, 0.06, 0.1).check(3_000)).toBeUndefined();
  });

  it('counts the requests other sessions have on the way, and lets them go once answered', () => {
    // Three steps at once, each about to send 3,000 tokens with 2,000 used: only two fit in 10,000.
    const budget = budgetFor(2_000, null);
    expect(budget.check(3_000)).toBeUndefined();
    const first = budget.reserve(3_000);
    expect(budget.check(3_000)).toBeUndefined();
    const second = budget.reserve(3_000);
    expect(budget.check(3_000)).toMatch(
      /10,000 tokens is spent: 2,000 used, about 6,000 on the way in requests of steps running beside this one, and the next request would take about 3,000 more/,
    );
    // Released twice, counted once: a release runs in a finally after the usage is in the ledger.
    first();
    first();
    second();
    expect(budget.check(3_000)).toBeUndefined();
    const fresh = budgetFor(1_000, null);
    fresh.reserve(3_000)();
    expect(fresh.check(9_000)).toBeUndefined();
  });

  it('prices what is on the way too, where a price is known', () => {
    // $0.01 a thousand tokens: 6,000 used ($0.06), 1,000 on the way and 1,000 next make $0.08, past $0.075.
    const budget = budgetFor(6_000, 0.06, 0.075);
    expect(budget.check(1_000)).toBeUndefined();
    budget.reserve(1_000);
    expect(budget.check(1_000)).toMatch(/the approved budget of \$0\.075\d* is spent/);
  });

  it('stops the run without aborting it when spent: the host asks for more', () => {
    const run = new RunState(plannerExecutorMachine, initialSnapshot('x', defaultPolicy));
    const reason = enforceBudget(budgetFor(9_500, null), run, 1_000);
    expect(reason).toMatch(/is spent/);
    expect(run.snapshot.state).toBe('plan');
    expect(run.snapshot.abortReason).toBeUndefined();
  });
});
