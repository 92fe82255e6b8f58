import { z } from 'zod';

/**
 * What tokens cost, so a run can report its spend per role. Figures are USD per 1,000,000 tokens.
 * A model with no entry has no cost: plangate prints "unknown price" rather than guess a figure.
 */

/** One model's prices; `cachedInput` defaults to `input` for providers without a cache discount. */
export const modelPriceSchema = z
  .object({
    input: z.number().finite().nonnegative(),
    cachedInput: z.number().finite().nonnegative().optional(),
    output: z.number().finite().nonnegative(),
  })
  .strict();

/** The shape users write in the config file to add models or correct prices that moved. */
export const priceOverridesSchema = z.record(z.string().trim().min(1), modelPriceSchema);

export type ModelPrice = z.infer<typeof modelPriceSchema>;
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * List prices as the providers published them in 2025. Prices change and this table will age;
 * users override or extend it from the config file, and overrides always win.
 */
export const defaultPrices: PriceTable = Object.freeze({
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  'deepseek-chat': { input: 0.28, cachedInput: 0.028, output: 0.42 },
  'deepseek-reasoner': { input: 0.28, cachedInput: 0.028, output: 0.42 },
});

/** Defaults with the user's overrides on top; an override replaces a model's whole entry. */
export function withOverrides(
  overrides: z.infer<typeof priceOverridesSchema>,
  base: PriceTable = defaultPrices,
): PriceTable {
  return Object.freeze({ ...base, ...overrides });
}

/** A dated snapshot name such as `gpt-4.1-2025-04-14` is priced like its alias. */
const SNAPSHOT_SUFFIX = /-\d{4}-\d{2}-\d{2}$/;

/**
 * The price of a model, or null when the table does not know it. Only an exact name or a dated
 * snapshot of a known alias matches: a near miss (another provider's routing prefix, a fine-tune)
 * may be priced differently, and an unknown price is better than a wrong one.
 */
export function priceFor(model: string, table: PriceTable = defaultPrices): ModelPrice | null {
  if (Object.hasOwn(table, model)) return table[model] ?? null;
  const alias = model.replace(SNAPSHOT_SUFFIX, '');
  if (alias !== model && Object.hasOwn(table, alias)) return table[alias] ?? null;
  return null;
}
