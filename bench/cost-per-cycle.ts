import { priceFor } from '../src/config/prices.js';
import type { ScenarioFigures } from './aggregate.js';
import { playCyclesInProcess } from './in-process-cycles.js';
import { modelCost } from './model-cost.js';

/**
 * What a cycle costs as runs get longer: the cycle scenarios at 1, 3, 6 and 12 cycles played in
 * process (bench/in-process-cycles.ts: the action's own team, scripts and settings, deterministic
 * tokens), priced as billed-equivalent prompt tokens under each provider's published cache discount.
 * Billed-equivalent = uncached prompt tokens + cached ones at the provider's cached share of the
 * input price; completion tokens are the script's and the same in every layout, so they are left out.
 */

export const COST_CYCLES = [1, 3, 6, 12] as const;

/** Per-cycle cost may rise by this share from 3 to 12 cycles and still count as flat (exact tokens, no noise). */
export const FLAT_TOLERANCE = 0.1;

/** One published cache discount: whose, for which model, where it is published. */
export interface CacheDiscount {
  provider: string;
  model: string;
  /** Cached input price / uncached input price. */
  cachedShare: number;
  source: string;
}

/**
 * The discounts the benchmark prices with, one row per tier. The shares come from plangate's price
 * table (src/config/prices.ts, the providers' list prices), so the benchmark and the action's cost
 * report cannot disagree; the sources are the providers' pricing pages.
 */
export const CACHE_DISCOUNTS: readonly CacheDiscount[] = [
  ['OpenAI', 'gpt-4o', 'https://openai.com/api/pricing/ (GPT-4o family: cached input at half the input price)'],
  ['OpenAI', 'gpt-4.1', 'https://openai.com/api/pricing/ (GPT-4.1 family, the action’s default models: a quarter)'],
  ['OpenAI', 'gpt-5', 'https://openai.com/api/pricing/ (GPT-5 family: a tenth)'],
  [
    'DeepSeek',
    'deepseek-chat',
    'https://api-docs.deepseek.com/quick_start/pricing (input price, cache hit vs cache miss)',
  ],
].map(([provider, model, source]) => {
  const price = priceFor(model as string);
  if (!price || price.cachedInput === undefined) throw new Error(`no cached price for ${model}`);
  return {
    provider: provider as string,
    model: model as string,
    cachedShare: price.cachedInput / price.input,
    source: source as string,
  };
});

export interface CyclePoint {
  cycles: number;
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  cacheHitRatio: number;
  /** Billed-equivalent prompt tokens per cycle, by discount model (the whole scenario, /plan included, over its cycles). */
  billedPerCycle: Record<string, number>;
  /** Whether the bundled action's scenario of as many cycles sent the same tokens; null when there is none. */
  matchesBundled: boolean | null;
}

export interface FlatVerdict {
  model: string;
  /** Per-cycle cost at 6 and 12 cycles over that at 3. */
  ratios: Record<number, number>;
  flat: boolean;
}

export interface CostPerCycle {
  discounts: readonly CacheDiscount[];
  points: CyclePoint[];
  verdicts: FlatVerdict[];
}

/** Uncached tokens at full price, cached ones at `cachedShare` of it. */
export function billedTokens(promptTokens: number, cachedTokens: number, cachedShare: number): number {
  return promptTokens - cachedTokens + cachedShare * cachedTokens;
}

/** Flat or falling from 3 cycles on: no later point above the 3-cycle cost by more than FLAT_TOLERANCE. */
export function flatVerdicts(points: readonly CyclePoint[], discounts: readonly CacheDiscount[]): FlatVerdict[] {
  const base = points.find((p) => p.cycles === 3);
  if (!base) throw new Error('no 3-cycle point');
  return discounts.map(({ model }) => {
    const ratios: Record<number, number> = {};
    for (const p of points.filter((q) => q.cycles > 3))
      ratios[p.cycles] = (p.billedPerCycle[model] ?? Number.NaN) / (base.billedPerCycle[model] ?? Number.NaN);
    const values = Object.values(ratios);
    return { model, ratios, flat: values.length > 0 && values.every((r) => r <= 1 + FLAT_TOLERANCE) };
  });
}

/** Plays every cycle count and prices it; `bundled` are the action's scenarios, checked to agree. */
export async function measureCostPerCycle(bundled: readonly ScenarioFigures[] = []): Promise<CostPerCycle> {
  const points: CyclePoint[] = [];
  for (const cycles of COST_CYCLES) {
    const { total } = modelCost(await playCyclesInProcess(cycles));
    const twin = bundled.find((s) => s.name === `plan + ${cycles} cycle${cycles === 1 ? '' : 's'}`);
    points.push({
      cycles,
      requests: total.requests,
      promptTokens: total.promptTokens,
      cachedTokens: total.cachedTokens,
      cacheHitRatio: total.cacheHitRatio,
      billedPerCycle: Object.fromEntries(
        CACHE_DISCOUNTS.map((d) => [
          d.model,
          billedTokens(total.promptTokens, total.cachedTokens, d.cachedShare) / cycles,
        ]),
      ),
      matchesBundled: twin
        ? twin.model.total.promptTokens === total.promptTokens && twin.model.total.cachedTokens === total.cachedTokens
        : null,
    });
  }
  return { discounts: CACHE_DISCOUNTS, points, verdicts: flatVerdicts(points, CACHE_DISCOUNTS) };
}
