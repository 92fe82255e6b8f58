import { describe, expect, it } from 'vitest';
import {
  estimateExecutionCost,
  estimateHigh,
  formatEstimate,
  highFactor,
  lowFactor,
  plannerUsageSince,
} from '../../src/checks/cost-estimate.js';
import { renderCostComparison } from '../../src/render/checks.js';
import { withOverrides } from '../../src/config/prices.js';
import { addTurn, emptyUsage, summarizeUsage } from '../../src/models/usage.js';

// Round figures: $1 per million input, $0.10 cached, $4 output.
const prices = withOverrides({ exec: { input: 1, cachedInput: 0.1, output: 4 } });
const planning = { promptTokens: 100_000, cachedTokens: 60_000, completionTokens: 5_000 };

describe('estimateExecutionCost', () => {
  it('scales planning usage by the step count at the executor price, low with cache hits, high without', () => {
    const estimate = estimateExecutionCost({ planning, steps: 3, executorModel: 'exec', prices });
    // focused: 40k × $1 + 60k × $0.10 + 5k × $4 = $0.066 per step; uncached: 100k × $1 + 5k × $4 = $0.12.
    expect(estimate.kind).toBe('range');
    if (estimate.kind !== 'range') return;
    expect(estimate.lowUsd).toBeCloseTo(3 * lowFactor * 0.066, 10);
    expect(estimate.highUsd).toBeCloseTo(3 * highFactor * 0.12, 10);
    expect(estimate.lowUsd).toBeLessThan(estimate.highUsd);
    expect(estimateHigh(estimate)).toBe(estimate.highUsd);
    expect(formatEstimate(estimate)).toBe('$0.0990–$0.7200 (estimate)');
  });

  it('grows with the number of steps', () => {
    const one = estimateExecutionCost({ planning, steps: 1, executorModel: 'exec', prices });
    const five = estimateExecutionCost({ planning, steps: 5, executorModel: 'exec', prices });
    expect(estimateHigh(five)).toBeCloseTo(5 * (estimateHigh(one) ?? NaN), 10);
  });

  it('prices a dated snapshot like its alias, and says "no price for model X" for an unknown model', () => {
    expect(estimateExecutionCost({ planning, steps: 1, executorModel: 'gpt-4.1-mini-2025-04-14', prices }).kind).toBe(
      'range',
    );
    const unknown = estimateExecutionCost({ planning, steps: 2, executorModel: 'my-local-model', prices });
    expect(unknown).toEqual({
      kind: 'unknown',
      model: 'my-local-model',
      steps: 2,
      reason: 'no price for model my-local-model',
    });
    expect(estimateHigh(unknown)).toBeNull();
    expect(formatEstimate(unknown)).toBe('no estimate: no price for model my-local-model');
  });

  it('gives no number without measured planning usage rather than a zero', () => {
    const none = estimateExecutionCost({
      planning: { promptTokens: 0, cachedTokens: 0, completionTokens: 0 },
      steps: 2,
      executorModel: 'exec',
      prices,
    });
    expect(none.kind).toBe('unknown');
  });
});

describe('plannerUsageSince', () => {
  it('counts only the planner tokens added since the earlier ledger', () => {
    const before = addTurn(emptyUsage(), 'planner', 'p', {
      promptTokens: 1000,
      cachedTokens: 100,
      completionTokens: 50,
    });
    let after = addTurn(before, 'planner', 'p', { promptTokens: 3000, cachedTokens: 2000, completionTokens: 70 });
    after = addTurn(after, 'planner', 'q', { promptTokens: 500, cachedTokens: 0, completionTokens: 5 });
    after = addTurn(after, 'executor', 'e', { promptTokens: 9999, cachedTokens: 0, completionTokens: 9 });
    expect(plannerUsageSince(after, before)).toEqual({ promptTokens: 3500, cachedTokens: 2000, completionTokens: 75 });
    expect(plannerUsageSince(after, emptyUsage())).toEqual({
      promptTokens: 4500,
      cachedTokens: 2100,
      completionTokens: 125,
    });
  });
});

describe('renderCostComparison', () => {
  it('puts the estimate beside the executor’s actual cost', () => {
    const estimate = estimateExecutionCost({ planning, steps: 1, executorModel: 'exec', prices });
    const ledger = addTurn(addTurn(emptyUsage(), 'planner', 'exec', planning), 'executor', 'exec', {
      promptTokens: 50_000,
      cachedTokens: 0,
      completionTokens: 1_000,
    });
    const line = renderCostComparison(estimate, summarizeUsage(ledger, prices));
    expect(line).toBe('**Execution cost** (executor `exec`): $0.0330–$0.2400 (estimate) · actual $0.0540');
  });
});
