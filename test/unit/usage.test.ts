import { describe, expect, it } from 'vitest';
import { defaultPrices, priceFor, priceOverridesSchema, withOverrides } from '../../src/config/prices.js';
import {
  addTurn,
  cacheHitRatio,
  costOf,
  emptyUsage,
  formatCost,
  summarizeUsage,
  totalCost,
  totalTokens,
  usageLedgerSchema,
} from '../../src/models/usage.js';
import type { TokenUsage, UsageLedger } from '../../src/models/usage.js';

const tokens = (promptTokens: number, cachedTokens: number, completionTokens: number): TokenUsage => ({
  promptTokens,
  cachedTokens,
  completionTokens,
});

describe('usage ledger', () => {
  it('starts empty and accumulates per role and model without touching its input', () => {
    const empty = emptyUsage();
    const one = addTurn(empty, 'planner', 'gpt-4.1', tokens(1000, 0, 50));
    const two = addTurn(one, 'planner', 'gpt-4.1', tokens(1200, 1024, 30));
    const three = addTurn(two, 'executor', 'gpt-4.1-mini', tokens(500, 0, 20));

    expect(empty).toEqual({ entries: [] });
    expect(one.entries).toEqual([
      { role: 'planner', model: 'gpt-4.1', requests: 1, promptTokens: 1000, cachedTokens: 0, completionTokens: 50 },
    ]);
    expect(three.entries).toEqual([
      { role: 'planner', model: 'gpt-4.1', requests: 2, promptTokens: 2200, cachedTokens: 1024, completionTokens: 80 },
      {
        role: 'executor',
        model: 'gpt-4.1-mini',
        requests: 1,
        promptTokens: 500,
        cachedTokens: 0,
        completionTokens: 20,
      },
    ]);
    expect(totalTokens(three)).toEqual(tokens(2700, 1024, 100));
  });

  it('keeps a separate entry when a role changes model, so each is priced correctly', () => {
    let ledger = addTurn(emptyUsage(), 'executor', 'gpt-4.1', tokens(1_000_000, 0, 0));
    ledger = addTurn(ledger, 'executor', 'gpt-4.1-mini', tokens(1_000_000, 0, 0));
    const [executor] = summarizeUsage(ledger);
    expect(executor?.models).toEqual(['gpt-4.1', 'gpt-4.1-mini']);
    expect(executor?.requests).toBe(2);
    expect(executor?.costUsd).toBeCloseTo(2 + 0.4, 10);
  });

  it('survives a JSON round trip and rejects a tampered ledger', () => {
    const ledger = addTurn(
      addTurn(emptyUsage(), 'planner', 'o4-mini', tokens(10, 0, 1)),
      'executor',
      'x',
      tokens(5, 0, 2),
    );
    const restored: UsageLedger = usageLedgerSchema.parse(JSON.parse(JSON.stringify(ledger)));
    expect(restored).toEqual(ledger);
    const bad = (entry: Record<string, unknown>) => ({ entries: [{ ...ledger.entries[0], ...entry }] });
    expect(usageLedgerSchema.safeParse(bad({ role: 'reviewer' })).success).toBe(false);
    expect(usageLedgerSchema.safeParse(bad({ promptTokens: -1 })).success).toBe(false);
    expect(usageLedgerSchema.safeParse(bad({ requests: 1.5 })).success).toBe(false);
  });
});

describe('cost and cache ratio', () => {
  it('bills cached prompt tokens at the cached rate and the rest at the input rate', () => {
    // gpt-4.1: $2 input, $0.50 cached input, $8 output per 1M tokens.
    expect(costOf('gpt-4.1', tokens(1_000_000, 400_000, 100_000))).toBeCloseTo(
      600_000 * 2e-6 + 400_000 * 0.5e-6 + 100_000 * 8e-6,
      10,
    );
    expect(costOf('gpt-4.1', tokens(0, 0, 0))).toBe(0);
  });

  it('falls back to the input rate when a price has no cached rate', () => {
    const prices = withOverrides({ 'local-llm': { input: 1, output: 2 } });
    expect(costOf('local-llm', tokens(1_000_000, 500_000, 1_000_000), prices)).toBeCloseTo(1 + 2, 10);
  });

  it('gives no figure for an unknown model, and no total when any part is unknown', () => {
    expect(costOf('my-finetune', tokens(100, 0, 10))).toBeNull();
    let ledger = addTurn(emptyUsage(), 'planner', 'gpt-4o', tokens(1000, 0, 10));
    expect(totalCost(ledger)).not.toBeNull();
    ledger = addTurn(ledger, 'executor', 'my-finetune', tokens(1000, 0, 10));
    expect(totalCost(ledger)).toBeNull();
    expect(summarizeUsage(ledger).map((role) => role.costUsd === null)).toEqual([false, true]);
    expect(formatCost(totalCost(ledger))).toBe('unknown price');
  });

  it('formats known costs readably', () => {
    expect(formatCost(0.012345)).toBe('$0.0123');
    expect(formatCost(12.345)).toBe('$12.35');
    expect(formatCost(0)).toBe('$0.0000');
  });

  it('computes the cache-hit ratio as cached over prompt tokens, 0 without prompt tokens', () => {
    expect(cacheHitRatio(tokens(0, 0, 0))).toBe(0);
    expect(cacheHitRatio(tokens(2048, 1024, 5))).toBe(0.5);
    const ledger = addTurn(
      addTurn(emptyUsage(), 'executor', 'gpt-4o', tokens(1000, 0, 1)),
      'executor',
      'gpt-4o',
      tokens(3000, 2048, 1),
    );
    expect(summarizeUsage(ledger)[0]?.cacheHitRatio).toBeCloseTo(2048 / 4000, 10);
  });

  it('lists the planner before the executor whatever spoke first, and skips silent roles', () => {
    const executorOnly = addTurn(emptyUsage(), 'executor', 'gpt-4o', tokens(1, 0, 1));
    expect(summarizeUsage(executorOnly).map((role) => role.role)).toEqual(['executor']);
    const both = addTurn(executorOnly, 'planner', 'gpt-4o', tokens(1, 0, 1));
    expect(summarizeUsage(both).map((role) => role.role)).toEqual(['planner', 'executor']);
    expect(summarizeUsage(emptyUsage())).toEqual([]);
  });
});

describe('price table', () => {
  it('knows the common models and prices dated snapshots like their alias', () => {
    for (const model of ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini', 'o4-mini', 'deepseek-chat']) {
      expect(priceFor(model), model).not.toBeNull();
    }
    expect(priceFor('gpt-4.1-2025-04-14')).toEqual(defaultPrices['gpt-4.1']);
    expect(priceFor('openai/gpt-4.1')).toBeNull();
    expect(priceFor('gpt-4.1-turbo')).toBeNull();
    expect(priceFor('toString')).toBeNull();
  });

  it('lets overrides replace and extend the defaults', () => {
    const overrides = priceOverridesSchema.parse({
      'gpt-4o': { input: 1, output: 1 },
      'qwen3-coder': { input: 0.2, cachedInput: 0.1, output: 0.8 },
    });
    const prices = withOverrides(overrides);
    expect(priceFor('gpt-4o', prices)).toEqual({ input: 1, output: 1 });
    expect(priceFor('qwen3-coder', prices)).toEqual({ input: 0.2, cachedInput: 0.1, output: 0.8 });
    expect(priceFor('gpt-4.1', prices)).toEqual(defaultPrices['gpt-4.1']);
    expect(defaultPrices['gpt-4o']?.input).toBe(2.5);
  });

  it('rejects overrides that are not prices', () => {
    const rejects = (value: unknown) => expect(priceOverridesSchema.safeParse(value).success).toBe(false);
    rejects({ 'gpt-4o': { input: 1 } });
    rejects({ 'gpt-4o': { input: -1, output: 1 } });
    rejects({ 'gpt-4o': { input: '1', output: 1 } });
    rejects({ 'gpt-4o': { input: 1, output: 1, currency: 'EUR' } });
    rejects({ '': { input: 1, output: 1 } });
  });
});
