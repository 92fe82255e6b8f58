import { isDeepStrictEqual } from 'node:util';
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Role } from '../machine/fields.js';
import { hashPrefix } from './prefix-hash.js';

/**
 * Why a prompt cache missed. Sessions are built so every request extends the previous one, which
 * is what keeps the provider's cache warm; these checks prove that on every request and, when the
 * provider still reports fewer cached tokens than that proof promises, say whose side the miss is
 * on. Pure functions: summon does the logging.
 */

/** The shortest prefix providers cache at all (OpenAI's threshold; others are similar or lower). */
export const MIN_CACHEABLE_TOKENS = 1024;
/** Providers report cache hits in whole blocks of this many tokens. */
export const CACHE_BLOCK_TOKENS = 128;

/** What a session promised never to change. `Session` satisfies it. */
export interface FrozenPrefix {
  readonly prefixHash: string;
  readonly systemPrompt: string;
  readonly tools: readonly ChatCompletionFunctionTool[];
}

/** The parts of a request the prompt cache sees. */
export interface OutgoingRequest {
  readonly messages: readonly ChatCompletionMessageParam[];
  readonly tools: readonly ChatCompletionFunctionTool[];
}

/** One way a request fails to extend what came before; several can hold at once. */
export type PrefixBreak =
  | { part: 'system' }
  /** `names`: tools added, removed or changed; empty when only their order differs. */
  | { part: 'tools'; names: string[] }
  /** The first message that differs from the previous request's; `missing` when the request is shorter. */
  | { part: 'message'; index: number; missing: boolean };

/**
 * Checks a request before it is sent: its first message is the session's system prompt and its
 * tools are the frozen ones (by hash, then part by part to name the culprit), and its messages
 * start with every message of the previous request, unchanged.
 */
export function checkPrefix(
  request: OutgoingRequest,
  frozen: FrozenPrefix,
  previous?: readonly ChatCompletionMessageParam[],
): PrefixBreak[] {
  const breaks: PrefixBreak[] = [];
  const first = request.messages[0];
  const system = first?.role === 'system' && typeof first.content === 'string' ? first.content : undefined;
  // The hash is the cheap test; only a mismatch pays for naming the part that differs.
  if (system === undefined || hashPrefix(system, request.tools) !== frozen.prefixHash) {
    if (system !== frozen.systemPrompt) breaks.push({ part: 'system' });
    if (JSON.stringify(request.tools) !== JSON.stringify(frozen.tools)) {
      breaks.push({ part: 'tools', names: changedTools(request.tools, frozen.tools) });
    }
  }
  if (previous !== undefined) {
    const index = previous.findIndex((message, i) => !isDeepStrictEqual(request.messages[i], message));
    if (index >= 0) breaks.push({ part: 'message', index, missing: index >= request.messages.length });
  }
  return breaks;
}

/** Names of tools that were added, removed or whose schema changed. */
function changedTools(
  sent: readonly ChatCompletionFunctionTool[],
  frozen: readonly ChatCompletionFunctionTool[],
): string[] {
  const byName = (tools: readonly ChatCompletionFunctionTool[]) =>
    new Map(tools.map((tool) => [tool.function.name, JSON.stringify(tool)] as const));
  const a = byName(sent);
  const b = byName(frozen);
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((name) => a.get(name) !== b.get(name)).sort();
}

/** One warning line naming what differed; never message content, which may hold anything. */
export function describePrefixBreaks(role: Role, prefixHash: string, breaks: readonly PrefixBreak[]): string {
  const parts = breaks.map((b) => {
    switch (b.part) {
      case 'system':
        return 'the system prompt differs from the session’s';
      case 'tools':
        return b.names.length > 0 ? `the tools differ (${b.names.join(', ')})` : 'the tools are in a different order';
      case 'message':
        return b.missing
          ? `message ${b.index} of the previous request is missing`
          : `message ${b.index} differs from the previous request’s`;
    }
  });
  return `${role} prefix broken (session ${prefixHash}): ${parts.join('; ')}. The provider's prompt cache cannot hit past that point.`;
}

/** Cached tokens the provider reported, against what an intact prefix should have earned. */
export interface CacheShortfall {
  expected: number;
  cached: number;
}

/**
 * After a response: when the previous request of the same session was long enough to be cached,
 * the provider should now report about that many tokens cached (whole blocks). A miss of more than
 * one block is a shortfall; below the threshold nothing is expected, so nothing is diagnosed.
 */
export function cacheShortfall(previousPromptTokens: number | undefined, cachedTokens: number): CacheShortfall | null {
  if (previousPromptTokens === undefined || previousPromptTokens < MIN_CACHEABLE_TOKENS) return null;
  const expected = Math.floor(previousPromptTokens / CACHE_BLOCK_TOKENS) * CACHE_BLOCK_TOKENS;
  return expected - cachedTokens > CACHE_BLOCK_TOKENS ? { expected, cached: cachedTokens } : null;
}

/**
 * One info line. It does not blame the prefix: it is only logged after `checkPrefix` found the
 * prefix intact, so the miss lies with the provider's cache.
 */
export function describeCacheShortfall(role: Role, shortfall: CacheShortfall): string {
  return `${role}: provider cached ${shortfall.cached} of ~${shortfall.expected} expected tokens: the prefix was evicted or the provider does not cache this model (the prefix was checked intact).`;
}
