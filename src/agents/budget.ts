import * as core from '@actions/core';
import type { StateName } from '../machine/types.js';
import { formatCost } from '../models/usage.js';
import { formatCount } from '../text/count.js';
import type { RunState } from './run-state.js';

/**
 * Run budgets: the wall-clock and spending limits a repository sets, checked by the host loop so a
 * run stops cleanly (work committed, a summary written, a pull request opened) instead of being
 * killed by the job's own timeout or running up a bill.
 */
export interface Budget {
  /**
   * The reason the run must stop now, or undefined while it may go on. `nextTokens`: what the request
   * about to be sent will cost, so one that would go past the approved tokens is never sent.
   */
  check(nextTokens?: number): string | undefined;
  /**
   * Holds `tokens` for a request on its way, until the returned function is called (its usage is in
   * the ledger then): sessions that run together each check against what the others have in flight,
   * so together they never send more than the approval allows.
   */
  reserve(tokens: number): () => void;
  /**
   * Set once the approved scope's budget is spent: the run is not aborted but stops where it is, and
   * asks for more with an amendment. The configured limits (`timeout-minutes`, `max-cost-usd`) abort.
   */
  readonly spent?: string;
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
  /**
   * The approved scope's budget: tokens (always), and dollars where prices are known. Reaching it
   * stops the run for an amendment instead of aborting it.
   */
  approved?: {
    tokens: number;
    costUsd?: number;
    /** Tokens and dollars (null: a price is unknown) the run spent since the approval. */
    spentTokens: () => number;
    spentUsd: () => number | null;
  };
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
  const { now, startedAt, timeoutMinutes, maxCostUsd, spentUsd, approved, warn = core.warning } = options;
  let warnedUnknown = false;
  let spent: string | undefined;
  // Tokens of requests sent and not answered yet, in every session that shares this budget.
  let inFlight = 0;
  const approvedLimit = (nextTokens: number): string | undefined => {
    if (!approved) return undefined;
    const used = approved.spentTokens();
    if (used + inFlight + nextTokens > approved.tokens)
      return `the approved budget of ${formatCount(approved.tokens)} tokens is spent: ${formatCount(used)} used${
        inFlight > 0 ? `, about ${formatCount(inFlight)} on the way in requests of steps running beside this one` : ''
      }, and the next request would take about ${formatCount(nextTokens)} more`;
    const usd = approved.spentUsd();
    // At the configured max-cost-usd the run aborts (below); the scope's own, lower figure asks for more.
    if (approved.costUsd === undefined || usd === null || approved.costUsd === maxCostUsd) return undefined;
    // The next request, and those on the way, priced at what a token has cost the run so far.
    const next = used > 0 ? (usd / used) * (nextTokens + inFlight) : 0;
    if (usd + next > approved.costUsd)
      return `the approved budget of ${formatCost(approved.costUsd)} is spent: ${formatCost(usd)} used, and the next request would cost about ${formatCost(next)} more`;
    return undefined;
  };
  return {
    get spent() {
      return spent;
    },
    reserve(tokens) {
      inFlight += tokens;
      let held = true;
      return () => {
        if (held) inFlight -= tokens;
        held = false;
      };
    },
    check(nextTokens = 0) {
      if (timeoutMinutes !== undefined && now() - startedAt >= timeoutMinutes * 60_000) {
        return `reached timeout-minutes (${timeoutMinutes})`;
      }
      const scope = approvedLimit(nextTokens);
      if (scope !== undefined) {
        spent = scope;
        return scope;
      }
      if (maxCostUsd === undefined) return undefined;
      const spentNow = spentUsd();
      if (spentNow === null) {
        if (!warnedUnknown) {
          warnedUnknown = true;
          warn(
            `max-cost-usd ($${maxCostUsd}) cannot be enforced: a model's price is unknown. Give it one under \`prices\` in the configuration file to enforce the limit.`,
          );
        }
        return undefined;
      }
      return spentNow >= maxCostUsd
        ? `reached max-cost-usd ($${maxCostUsd}; spent ${formatCost(spentNow)})`
        : undefined;
    },
  };
}

/**
 * Checks the budget where it applies and stops the run through the machine when it is spent, the
 * way every host stop is made: an abort with its reason. Returns the reason when it stopped the run.
 */
export function enforceBudget(budget: Budget | undefined, run: RunState, nextTokens = 0): string | undefined {
  if (!budget || !isBudgeted(run.snapshot.state)) return undefined;
  const reason = budget.check(nextTokens);
  if (reason === undefined) return undefined;
  // The approved budget spent: the run stops where it is (nothing is sent) and the host asks for more.
  if (budget.spent !== undefined) {
    core.warning(`Stopping the run for an amendment: ${reason}.`);
    return reason;
  }
  core.warning(`Stopping the run: ${reason}.`);
  run.dispatch({ type: 'abort', reason });
  return reason;
}
