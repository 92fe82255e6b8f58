import { createBudget, type Budget } from '../agents/budget.js';
import { totalCost, totalTokens, type UsageLedger } from '../models/usage.js';
import type { PriceTable } from '../config/prices.js';
import type { ScopeBudget } from '../scope/approved-scope.js';

/**
 * The wall-clock and spending limits of one execution, as both hosts set them: time counts from
 * this job's start (a resumed run gets the full time again), cost from the team's ledger, which
 * includes planning. The action sets both limits from its inputs; the CLI only `--max-cost-usd`.
 */
export interface RunLimits {
  timeoutMinutes?: number;
  maxCostUsd?: number;
}

/** The approved scope's budget and what the run has used of it (its ledger against the one approval began with). */
export interface ApprovedSpending {
  budget: ScopeBudget;
  ledger: () => UsageLedger;
  atApproval: UsageLedger;
  prices: PriceTable;
}

/** `now` is injected so tests move time instead of waiting for it. */
export function runBudget(
  limits: RunLimits,
  spentUsd: () => number | null,
  now: () => number = Date.now,
  approved?: ApprovedSpending,
): Budget {
  const used = (ledger: UsageLedger) => {
    const t = totalTokens(ledger);
    return t.promptTokens + t.completionTokens;
  };
  return createBudget({
    now,
    startedAt: now(),
    timeoutMinutes: shorter(limits.timeoutMinutes, approved?.budget.minutes),
    maxCostUsd: limits.maxCostUsd,
    spentUsd,
    ...(approved
      ? {
          approved: {
            tokens: approved.budget.tokens,
            ...(approved.budget.costUsd !== undefined ? { costUsd: approved.budget.costUsd } : {}),
            spentTokens: () => used(approved.ledger()) - used(approved.atApproval),
            spentUsd: () => {
              const now = totalCost(approved.ledger(), approved.prices);
              const then = totalCost(approved.atApproval, approved.prices);
              return now === null || then === null ? null : now - then;
            },
          },
        }
      : {}),
  });
}

/** The stricter of two optional limits: the workflow's now and the one the plan was approved with. */
function shorter(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
