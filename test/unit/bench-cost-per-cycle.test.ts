import { describe, expect, it, vi } from 'vitest';
import {
  billedTokens,
  CACHE_DISCOUNTS,
  flatVerdicts,
  measureCostPerCycle,
  type CyclePoint,
} from '../../bench/cost-per-cycle.js';
import type { Role } from '../../src/machine/fields.js';
import { cacheEfficiency, groupSessions } from '../fakes/prefix-efficiency.js';
import { PromptCache, countTokens, serializePrompt } from '../fakes/prompt-cache.js';
import type { RecordedRequest } from '../fakes/scripted-model.js';

/**
 * The benchmark's cost arithmetic (billed-equivalent tokens, the published discounts, the flat
 * verdict, prefix efficiency) and the figures it reports for the cycle scenarios at 1, 3, 6 and 12
 * cycles, played in process.
 */

vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

describe('billed-equivalent tokens', () => {
  it('prices uncached tokens in full and cached ones at the cached share', () => {
    expect(billedTokens(10_000, 8_000, 0.25)).toBe(2_000 + 2_000);
    expect(billedTokens(10_000, 0, 0.1)).toBe(10_000);
  });

  it('takes the discounts from the price table, one row per published tier', () => {
    expect(CACHE_DISCOUNTS.map((d) => [d.provider, d.model])).toEqual([
      ['OpenAI', 'gpt-4o'],
      ['OpenAI', 'gpt-4.1'],
      ['OpenAI', 'gpt-5'],
      ['DeepSeek', 'deepseek-chat'],
    ]);
    CACHE_DISCOUNTS.forEach((d, i) => expect(d.cachedShare).toBeCloseTo([0.5, 0.25, 0.1, 0.1][i] as number, 9));
    for (const d of CACHE_DISCOUNTS) expect(d.source).toMatch(/^https:\/\//);
  });

  it('calls a cost flat within 10 % of the 3-cycle figure and rising beyond it', () => {
    const point = (cycles: number, cost: number): CyclePoint => ({
      cycles,
      requests: 0,
      promptTokens: 0,
      cachedTokens: 0,
      cacheHitRatio: 0,
      billedPerCycle: { flat: 1000, rising: cost },
      matchesBundled: null,
    });
    const discounts = [
      { provider: 'a', model: 'flat', cachedShare: 0.1, source: '' },
      { provider: 'b', model: 'rising', cachedShare: 0.5, source: '' },
    ];
    const verdicts = flatVerdicts([point(1, 3000), point(3, 1000), point(6, 1050), point(12, 1150)], discounts);
    expect(verdicts.map((v) => [v.model, v.flat])).toEqual([
      ['flat', true],
      ['rising', false],
    ]);
    expect(verdicts[1]?.ratios[12]).toBeCloseTo(1.15);
  });
});

/** A request as the scripted model records it, with the cached tokens its emulated cache reports. */
function recorder() {
  const cache = new PromptCache();
  let index = 0;
  return (model: string, contents: string[]): RecordedRequest => {
    const messages = contents.map((content, i) => ({
      role: i === 0 ? ('system' as const) : i % 2 === 1 ? ('user' as const) : ('assistant' as const),
      content,
    }));
    const chunks = serializePrompt([], messages);
    const cached = cache.lookup(model, chunks);
    cache.remember(model, chunks);
    const prompt = countTokens(chunks);
    return {
      index: ++index,
      model,
      messages,
      tools: [],
      body: {},
      headers: {},
      authMatched: null,
      status: 200,
      receivedAtMs: index,
      answeredAtMs: index,
      usage: {
        prompt_tokens: prompt,
        completion_tokens: 1,
        total_tokens: prompt + 1,
        prompt_tokens_details: { cached_tokens: cached },
      },
    };
  };
}

describe('prefix efficiency', () => {
  const system = 'S'.repeat(6000);
  const head = 'H'.repeat(3000);
  const roleOf = (r: RecordedRequest): Role => (r.model === 'p' ? 'planner' : 'executor');

  it('stays at 1 when a fresh session shares more than the system prompt with an earlier one', () => {
    const send = recorder();
    const requests = [send('p', [system, `${head} first`]), send('p', [system, `${head} second`])];
    const sessions = groupSessions(requests, roleOf);
    expect(sessions).toHaveLength(1);
    // Two planner requests in a row are one session here; split them as two fresh sessions.
    const fresh = requests.map((r) => ({ role: 'planner' as const, requests: [r] }));
    const { reported, achievable } = cacheEfficiency(fresh);
    expect(reported).toBeGreaterThan(countTokens(serializePrompt([], [{ role: 'system', content: system }])));
    expect(reported).toBe(achievable);
  });

  it('falls below 1 when a session rewrites what it sent', () => {
    const send = recorder();
    const work = 'W'.repeat(4000);
    const first = send('e', [system, `directive one ${work}`, 'answer']);
    const rewritten = send('e', [system, `directive ONE ${work}`, 'answer', 'more']);
    const { reported, achievable } = cacheEfficiency([{ role: 'executor', requests: [first, rewritten] }]);
    expect(achievable).toBeGreaterThan(reported);
    expect(reported / achievable).toBeLessThan(1);
  });
});

describe('cost per cycle of the cycle scenarios, in process', () => {
  it('keeps billed tokens per cycle flat from 3 to 12 cycles at every discount', async ({ annotate }) => {
    const cost = await measureCostPerCycle();
    const line = cost.points
      .map(
        (p) =>
          `${p.cycles}: hit ${(100 * p.cacheHitRatio).toFixed(1)} %, billed/cycle ${Object.entries(p.billedPerCycle)
            .map(([m, b]) => `${m} ${Math.round(b)}`)
            .join(' ')}`,
      )
      .join(' | ');
    await annotate(line);
    expect(cost.points.map((p) => p.cycles)).toEqual([1, 3, 6, 12]);
    expect(
      cost.verdicts.filter((v) => !v.flat),
      line,
    ).toEqual([]);
    // A longer run is served from the cache more, not less, for all the compaction.
    const ratios = cost.points.map((p) => p.cacheHitRatio);
    for (let i = 1; i < ratios.length; i++) expect(ratios[i], line).toBeGreaterThan(ratios[i - 1] as number);
    expect(cost.points.at(-1)?.cacheHitRatio, line).toBeGreaterThanOrEqual(0.9);
  });
});
