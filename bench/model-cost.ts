import type { Role } from '../src/machine/fields.js';
import {
  cacheEfficiency,
  groupSessions,
  type CacheEfficiency,
  type SessionCache,
} from '../test/fakes/prefix-efficiency.js';
import type { RecordedRequest } from '../test/fakes/scripted-model.js';
import { PLANNER } from './scenarios.js';

/**
 * Model cost of one scenario from what the scripted model received and reported: tokens per role,
 * the cache-hit ratio under the emulated provider cache, and prefix efficiency per session.
 */

export interface RoleUsage {
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  /** cached / prompt. */
  cacheHitRatio: number;
}

export interface SessionFigures extends SessionCache {
  /** reported / achievable; null when nothing in the session was cacheable at all. */
  prefixEfficiency: number | null;
}

export interface ModelCost {
  roles: Partial<Record<Role, RoleUsage>>;
  total: RoleUsage;
  /** Cached tokens reported over the achievable ones (test/fakes/prefix-efficiency.ts): at most 1. */
  prefixEfficiency: number | null;
  sessions: SessionFigures[];
  /** The largest single prompt sent, in tokens: how far a session grew. */
  largestPromptTokens: number;
  /** Where the uncached tokens of a perfectly append-only client would come from. */
  ceiling: CacheCeiling;
}

/**
 * Why a cache-hit ratio cannot reach 100 % even with an ideal provider cache: what each request
 * appends is new to the provider, and the provider reports hits only from 1,024 tokens and in
 * 128-token blocks.
 */
export interface CacheCeiling {
  /** Tokens each request added after the longest prefix it could share with an earlier one. */
  appendedTokens: number;
  /** Shareable tokens the provider's minimum and block rounding leave unreported. */
  roundingTokens: number;
  /** Achievable cached tokens / prompt tokens: the best hit ratio these prompts can earn. */
  bestHitRatio: number;
}

const roleOf = (request: RecordedRequest): Role => (request.model === PLANNER ? 'planner' : 'executor');

function usageOf(requests: readonly RecordedRequest[]): RoleUsage {
  const sum = (pick: (r: RecordedRequest) => number) => requests.reduce((total, r) => total + pick(r), 0);
  const promptTokens = sum((r) => r.usage?.prompt_tokens ?? 0);
  const cachedTokens = sum((r) => r.usage?.prompt_tokens_details.cached_tokens ?? 0);
  return {
    requests: requests.length,
    promptTokens,
    cachedTokens,
    completionTokens: sum((r) => r.usage?.completion_tokens ?? 0),
    cacheHitRatio: promptTokens > 0 ? cachedTokens / promptTokens : 0,
  };
}

function ceilingOf(efficiency: CacheEfficiency, promptTokens: number): CacheCeiling {
  return {
    appendedTokens: promptTokens - efficiency.shareable,
    roundingTokens: efficiency.shareable - efficiency.achievable,
    bestHitRatio: promptTokens > 0 ? efficiency.achievable / promptTokens : 0,
  };
}

export function modelCost(runs: readonly (readonly RecordedRequest[])[]): ModelCost {
  const all = runs.flat();
  const roles: Partial<Record<Role, RoleUsage>> = {};
  for (const role of ['planner', 'executor'] as const) {
    const mine = all.filter((r) => roleOf(r) === role);
    if (mine.length > 0) roles[role] = usageOf(mine);
  }
  const sessions = runs.flatMap((run) => groupSessions(run, roleOf));
  const efficiency = cacheEfficiency(sessions);
  const total = usageOf(all);
  return {
    roles,
    total,
    prefixEfficiency: efficiency.achievable > 0 ? efficiency.reported / efficiency.achievable : null,
    sessions: efficiency.sessions.map((s) => ({
      ...s,
      prefixEfficiency: s.achievable > 0 ? s.reported / s.achievable : null,
    })),
    largestPromptTokens: Math.max(0, ...all.map((r) => r.usage?.prompt_tokens ?? 0)),
    ceiling: ceilingOf(efficiency, total.promptTokens),
  };
}
