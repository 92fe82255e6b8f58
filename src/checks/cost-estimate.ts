import { z } from 'zod';
import { priceFor, type PriceTable } from '../config/prices.js';
import { costOf, formatCost, type TokenUsage, type UsageLedger } from '../models/usage.js';

/**
 * What executing a plan will roughly cost, shown before approval so a maintainer can weigh it and a
 * configured ceiling (`max-estimated-cost-usd`) can hold it back. It is an estimate, never a quote:
 * the only measurement available before execution is what planning itself consumed.
 *
 * Formula (executor only; the planner's replan and summary visits come on top and show in the actual):
 * carrying out one step takes about as much reading and writing as the planner's whole session took,
 * since the planner read the code every step touches, and the executor resends its growing session
 * with every request. With P prompt tokens, K of them cached, and C completion tokens measured while
 * planning, N steps and the executor's price:
 *   low  = N × 0.5 × cost(P prompt, K cached, C completion)  (as focused as planning, with its cache hits)
 *   high = N × 2   × cost(P prompt, 0 cached, C completion)  (twice the work, no cache hit at all)
 */

/** How much of the planning session one step is taken to cost, at the low and the high end. */
export const lowFactor = 0.5;
export const highFactor = 2;

const usd = z.number().finite().nonnegative();

/** The estimate as the plan record keeps it: a range, or why there is none. */
export const costEstimateSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('range'),
      model: z.string(),
      steps: z.number().int().nonnegative(),
      lowUsd: usd,
      highUsd: usd,
    })
    .strict(),
  z
    .object({
      kind: z.literal('unknown'),
      model: z.string(),
      steps: z.number().int().nonnegative(),
      reason: z.string().max(300),
    })
    .strict(),
]);

export type CostEstimate = z.infer<typeof costEstimateSchema>;

export interface EstimateInput {
  /** Tokens the planner used to make this plan (not earlier plans of the thread). */
  planning: TokenUsage;
  steps: number;
  executorModel: string;
  prices: PriceTable;
}

/** The executor's cost range for a plan; without a price or a measurement it says so instead of a number. */
export function estimateExecutionCost({ planning, steps, executorModel, prices }: EstimateInput): CostEstimate {
  const base = { model: executorModel, steps };
  if (priceFor(executorModel, prices) === null)
    return { kind: 'unknown', ...base, reason: `no price for model ${executorModel}` };
  if (planning.promptTokens === 0 && planning.completionTokens === 0) {
    return { kind: 'unknown', ...base, reason: 'planning reported no token usage to estimate from' };
  }
  const focused = costOf(executorModel, planning, prices) ?? 0;
  const uncached = costOf(executorModel, { ...planning, cachedTokens: 0 }, prices) ?? 0;
  return { kind: 'range', ...base, lowUsd: steps * lowFactor * focused, highUsd: steps * highFactor * uncached };
}

/**
 * The planner's usage added since `before`: a revised plan's ledger carries the earlier plans'
 * planning too, and only this plan's planning measures this plan.
 */
export function plannerUsageSince(ledger: UsageLedger, before: UsageLedger): TokenUsage {
  const sum = (l: UsageLedger): TokenUsage =>
    l.entries
      .filter((e) => e.role === 'planner')
      .reduce<TokenUsage>(
        (acc, e) => ({
          promptTokens: acc.promptTokens + e.promptTokens,
          cachedTokens: acc.cachedTokens + e.cachedTokens,
          completionTokens: acc.completionTokens + e.completionTokens,
        }),
        { promptTokens: 0, cachedTokens: 0, completionTokens: 0 },
      );
  const now = sum(ledger);
  const then = sum(before);
  const since = (pick: (t: TokenUsage) => number) => Math.max(0, pick(now) - pick(then));
  return {
    promptTokens: since((t) => t.promptTokens),
    cachedTokens: since((t) => t.cachedTokens),
    completionTokens: since((t) => t.completionTokens),
  };
}

/** The top of the range a ceiling is held against; null when there is no number to hold. */
export function estimateHigh(estimate: CostEstimate): number | null {
  return estimate.kind === 'range' ? estimate.highUsd : null;
}

/** The estimate in words, always labelled as one: "$0.0120–$0.0480 (estimate)" or why there is none. */
export function formatEstimate(estimate: CostEstimate): string {
  if (estimate.kind === 'unknown') return `no estimate: ${estimate.reason}`;
  return `${formatCost(estimate.lowUsd)}–${formatCost(estimate.highUsd)} (estimate)`;
}
