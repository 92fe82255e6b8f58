import { createBudget, type Budget } from '../agents/budget.js';

/**
 * The wall-clock and spending limits of one execution, as both hosts set them: time counts from
 * this job's start (a resumed run gets the full time again), cost from the team's ledger, which
 * includes planning. The action sets both limits from its inputs; the CLI only `--max-cost-usd`.
 */
export interface RunLimits {
  timeoutMinutes?: number;
  maxCostUsd?: number;
}

/** `now` is injected so tests move time instead of waiting for it. */
export function runBudget(limits: RunLimits, spentUsd: () => number | null, now: () => number = Date.now): Budget {
  return createBudget({
    now,
    startedAt: now(),
    timeoutMinutes: limits.timeoutMinutes,
    maxCostUsd: limits.maxCostUsd,
    spentUsd,
  });
}
