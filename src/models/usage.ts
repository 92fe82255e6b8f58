import { z } from 'zod';
import { stageableBy } from '../machine/fields.js';
import type { Role } from '../machine/fields.js';
import { defaultPrices, priceFor } from '../config/prices.js';
import type { PriceTable } from '../config/prices.js';

/**
 * Token usage and cost, attributed per role. The ledger is plain data so it rides along in the run
 * record between workflow runs; everything else here is a pure function over it.
 */

/** What one model turn consumed, as the provider reported it. */
export interface TokenUsage {
  promptTokens: number;
  /** The part of `promptTokens` served from the provider's prompt cache. */
  cachedTokens: number;
  completionTokens: number;
}

/** Totals for one role on one model; a role that changed model mid-run has one entry per model. */
export interface UsageEntry extends TokenUsage {
  role: Role;
  model: string;
  requests: number;
}

/** Every entry of a run, in the order each role/model pair first spoke. */
export interface UsageLedger {
  entries: UsageEntry[];
}

/** A role's usage for reports: summed over its models, with cost and cache effectiveness. */
export interface RoleUsageSummary extends TokenUsage {
  role: Role;
  models: string[];
  requests: number;
  /** USD, or null when any of the role's models has no known price. */
  costUsd: number | null;
  cacheHitRatio: number;
}

const roles = Object.keys(stageableBy) as [Role, ...Role[]];
const count = z.number().int().nonnegative();

/** Validates a ledger read back from a run record, which crossed a process boundary as JSON. */
export const usageLedgerSchema = z
  .object({
    entries: z.array(
      z
        .object({
          role: z.enum(roles),
          model: z.string(),
          requests: count,
          promptTokens: count,
          cachedTokens: count,
          completionTokens: count,
        })
        .strict(),
    ),
  })
  .strict();

/** A ledger with nothing spent yet. */
export function emptyUsage(): UsageLedger {
  return { entries: [] };
}

/** The ledger after one more turn; the input is left untouched so snapshots stay immutable. */
export function addTurn(ledger: UsageLedger, role: Role, model: string, tokens: TokenUsage): UsageLedger {
  const found = ledger.entries.some((entry) => entry.role === role && entry.model === model);
  const base: UsageEntry[] = found
    ? ledger.entries
    : [...ledger.entries, { role, model, requests: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0 }];
  return {
    entries: base.map((entry) =>
      entry.role === role && entry.model === model
        ? {
            ...entry,
            requests: entry.requests + 1,
            promptTokens: entry.promptTokens + tokens.promptTokens,
            cachedTokens: entry.cachedTokens + tokens.cachedTokens,
            completionTokens: entry.completionTokens + tokens.completionTokens,
          }
        : entry,
    ),
  };
}

/**
 * USD for tokens spent on one model, or null when the model has no price. Cached prompt tokens are
 * billed at the cached rate, the rest of the prompt at the input rate.
 */
export function costOf(model: string, tokens: TokenUsage, prices: PriceTable = defaultPrices): number | null {
  const price = priceFor(model, prices);
  if (price === null) return null;
  const cached = Math.min(tokens.cachedTokens, tokens.promptTokens);
  const uncached = tokens.promptTokens - cached;
  const micro =
    uncached * price.input + cached * (price.cachedInput ?? price.input) + tokens.completionTokens * price.output;
  return micro / 1_000_000;
}

/** Share of prompt tokens the provider served from cache; 0 when nothing was sent. */
export function cacheHitRatio(tokens: TokenUsage): number {
  return tokens.promptTokens === 0 ? 0 : tokens.cachedTokens / tokens.promptTokens;
}

/** One summary per role that spoke, planner before executor, for the pull request and job summary. */
export function summarizeUsage(ledger: UsageLedger, prices: PriceTable = defaultPrices): RoleUsageSummary[] {
  return roles.flatMap((role) => {
    const entries = ledger.entries.filter((entry) => entry.role === role);
    if (entries.length === 0) return [];
    const totals = sumTokens(entries);
    return [
      {
        role,
        models: entries.map((entry) => entry.model),
        requests: entries.reduce((sum, entry) => sum + entry.requests, 0),
        ...totals,
        costUsd: sumCosts(entries, prices),
        cacheHitRatio: cacheHitRatio(totals),
      },
    ];
  });
}

/** Cost of the whole run, or null when any part of it has no known price. */
export function totalCost(ledger: UsageLedger, prices: PriceTable = defaultPrices): number | null {
  return sumCosts(ledger.entries, prices);
}

/** Tokens of the whole run, for the overall cache-hit ratio. */
export function totalTokens(ledger: UsageLedger): TokenUsage {
  return sumTokens(ledger.entries);
}

function sumTokens(entries: readonly TokenUsage[]): TokenUsage {
  return entries.reduce<TokenUsage>(
    (sum, entry) => ({
      promptTokens: sum.promptTokens + entry.promptTokens,
      cachedTokens: sum.cachedTokens + entry.cachedTokens,
      completionTokens: sum.completionTokens + entry.completionTokens,
    }),
    { promptTokens: 0, cachedTokens: 0, completionTokens: 0 },
  );
}

function sumCosts(entries: readonly UsageEntry[], prices: PriceTable): number | null {
  let total = 0;
  for (const entry of entries) {
    const cost = costOf(entry.model, entry, prices);
    // A partial sum would understate the spend, so one unknown price makes the total unknown.
    if (cost === null) return null;
    total += cost;
  }
  return total;
}

/** How a cost reads in reports; an unknown price says so instead of printing a made-up figure. */
export function formatCost(costUsd: number | null): string {
  if (costUsd === null) return 'unknown price';
  // Small runs cost fractions of a cent; four decimals keep them visible without noise.
  return `$${costUsd.toFixed(costUsd < 1 ? 4 : 2)}`;
}
