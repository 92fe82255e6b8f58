import * as core from '@actions/core';
import type { StateName } from '../machine/types.js';
import { formatCost } from '../models/usage.js';
import type { RunState } from './run-state.js';

/**
 * Run budgets: the wall-clock and spending limits a repository sets, checked by the host loop so a
 * run stops cleanly (work committed, a summary written, a pull request opened) instead of being
 * killed by the job's own timeout or running up a bill.
 */
export interface Budget {
  /** The reason the run must stop now, or undefined while it may go on. */
  check(): string | undefined;
}

export interface BudgetOptions {
  /** Milliseconds since the epoch; injected so tests drive time instead of waiting for it. */
  now: () => number;
  /** When the run started, in the same clock as `now`. */
  startedAt: number;
  /** Undefined: no time limit. */
  timeoutMinutes?: number;
  /** Undefined: no spending limit. */
  maxCostUsd?: number;
  /** What the run has cost so far (planning included); null while some model's price is unknown. */
  spentUsd: () => number | null;
  /** Where the one warning about an unknown price goes; core.warning unless a test listens. */
  warn?: (message: string) => void;
}

/**
 * States where agents do the work a budget pays for. The wrap-up states (finish, abort) are left out
 * on purpose: once a run is stopping, the planner must still be able to write its summary, and the
 * machine's exchange bounds already keep that short.
 */
const budgetedStates: ReadonlySet<StateName> = new Set<StateName>(['plan', 'execute', 'replan']);

/** Whether a budget may stop the run in this state. */
export function isBudgeted(state: StateName): boolean {
  return budgetedStates.has(state);
}

/**
 * Builds the budget from the configured limits. An unknown price can never stop a run, since
 * stopping on a guess would be worse than not stopping; it is said once so the limit is not
 * silently believed to hold.
 */
export function createBudget(options: BudgetOptions): Budget {
  const { now, startedAt, timeoutMinutes, maxCostUsd, spentUsd, warn = core.warning } = options;
  let warnedUnknown = false;
  return {
    check() {
      if (timeoutMinutes !== undefined && now() - startedAt >= timeoutMinutes * 60_000) {
        return `reached timeout-minutes (${timeoutMinutes})`;
      }
      if (maxCostUsd === undefined) return undefined;
      const spent = spentUsd();
      if (spent === null) {
        if (!warnedUnknown) {
          warnedUnknown = true;
          warn(
            `max-cost-usd ($${maxCostUsd}) cannot be enforced: a model's price is unknown. Give it one under \`prices\` in the configuration file to enforce the limit.`,
          );
        }
        return undefined;
      }
      return spent >= maxCostUsd ? `reached max-cost-usd ($${maxCostUsd}; spent ${formatCost(spent)})` : undefined;
    },
  };
}

/**
 * Checks the budget where it applies and stops the run through the machine when it is spent, the
 * way every host stop is made: an abort with its reason. Returns the reason when it stopped the run.
 */
export function enforceBudget(budget: Budget | undefined, run: RunState): string | undefined {
  if (!budget || !isBudgeted(run.snapshot.state)) return undefined;
  const reason = budget.check();
  if (reason === undefined) return undefined;
  core.warning(`Stopping the run: ${reason}.`);
  run.dispatch({ type: 'abort', reason });
  return reason;
}
