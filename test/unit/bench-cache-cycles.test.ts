import { describe, expect, it, vi } from 'vitest';
import { playCyclesInProcess } from '../../bench/in-process-cycles.js';
import { modelCost, type ModelCost } from '../../bench/model-cost.js';

/**
 * The benchmark's cycle scenarios played in process (no bundle), judged by the benchmark's own
 * model-cost arithmetic: the cache-hit ratio plangate's message layout earns under the emulated
 * provider cache, per role, at 1, 3 and 6 cycles.
 */

vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

/**
 * The 3-cycle figures the planner's cache-friendly message layout earns (85.3 % in all, planner
 * 82.0 %), less a little room; the layout before it, with each planning state's own order, earned
 * 84.5 % and 79.8 %. The emulated cache is deterministic, so a drop means the layout regressed.
 */
const floors: Partial<Record<number, { total: number; planner: number }>> = { 3: { total: 0.85, planner: 0.81 } };

const percent = (x: number) => `${(100 * x).toFixed(1)} %`;

function figures(cycles: number, cost: ModelCost): string {
  const role = (name: 'planner' | 'executor') => {
    const usage = cost.roles[name];
    return usage
      ? `${name} ${percent(usage.cacheHitRatio)} (${usage.cachedTokens}/${usage.promptTokens})`
      : `${name} -`;
  };
  return `${cycles} cycle(s): total ${percent(cost.total.cacheHitRatio)} (${cost.total.cachedTokens}/${cost.total.promptTokens}); ${role('planner')}; ${role('executor')}; prefix efficiency ${cost.prefixEfficiency?.toFixed(3)}`;
}

describe('cache-hit ratio of the cycle scenarios, in process', () => {
  it.for([1, 3, 6])(
    'plays plan + %i cycle(s) at full prefix efficiency and the hit ratio the layout earns',
    async (cycles, { annotate }) => {
      const cost = modelCost(await playCyclesInProcess(cycles));
      const line = figures(cycles, cost);
      await annotate(line);
      expect(cost.total.requests, line).toBeGreaterThan(4);
      for (const session of cost.sessions)
        if (session.prefixEfficiency !== null) expect(session.prefixEfficiency, line).toBeGreaterThanOrEqual(0.99);
      const floor = floors[cycles];
      if (floor) {
        expect(cost.total.cacheHitRatio, line).toBeGreaterThanOrEqual(floor.total);
        expect(cost.roles.planner?.cacheHitRatio, line).toBeGreaterThanOrEqual(floor.planner);
      }
    },
  );
});
