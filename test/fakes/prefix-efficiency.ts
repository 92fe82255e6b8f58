import type { Role } from '../../src/machine/fields.js';
import { reportableCachedTokens, serializePrompt, sharedPrefixTokens } from './prompt-cache.js';
import type { RecordedRequest } from './scripted-model.js';

/**
 * How close a run came to the cache a perfectly append-only client would earn. Shared by the
 * session-invariants test and the benchmark so both judge plangate's prompt cache by one rule.
 */

/** The requests of one session, in the order they were sent. */
export interface RecordedSession {
  role: Role;
  requests: RecordedRequest[];
}

/** What the emulated provider reported for one session against what was achievable. */
export interface SessionCache {
  role: Role;
  requests: number;
  /** Cached prompt tokens the server reported. */
  reported: number;
  /** Cached prompt tokens an ideal provider cache would report for what was sent (see cacheEfficiency). */
  achievable: number;
  /** The same before the provider's 1,024-token minimum and 128-token blocks: what could be shared at all. */
  shareable: number;
}

export interface CacheEfficiency {
  sessions: SessionCache[];
  reported: number;
  achievable: number;
  shareable: number;
}

/**
 * Requests of one run grouped by session: the executor's session carries over between cycles until
 * its window is spent, and a compacted session starts with its system prompt and opening message
 * alone (two messages; a continuing request always holds more); the planner gets a fresh session per
 * summons, so each unbroken run of planner requests is one session. Only valid within one run (one
 * process), since a new run starts a new executor session.
 */
export function groupSessions(
  requests: readonly RecordedRequest[],
  roleOf: (request: RecordedRequest) => Role,
): RecordedSession[] {
  let executor: RecordedRequest[] = [];
  const out: RecordedSession[] = [];
  let previous: Role | undefined;
  for (const request of requests) {
    const role = roleOf(request);
    if (role === 'executor') {
      if (executor.length === 0 || request.messages.length <= 2) {
        executor = [];
        out.push({ role, requests: executor });
      }
      executor.push(request);
    } else if (previous === 'planner') {
      out.at(-1)?.requests.push(request);
    } else {
      out.push({ role, requests: [request] });
    }
    previous = role;
  }
  return out;
}

/** The frozen prefix (system prompt and tools) exactly as it went over the wire. */
export const prefixOf = (request: RecordedRequest | undefined): string =>
  JSON.stringify(request?.messages[0] ?? null) + JSON.stringify(request?.tools ?? null);

/**
 * Reported against achievable cached tokens. A request's achievable tokens are what an ideal
 * provider cache would report for it: the longest prefix it shares with any earlier request of its
 * role, and, for a request that continues a session, never less than that session's whole previous
 * request (which an append-only session extends; a session that rewrote its past shares less, and
 * the difference is what the rewrite cost). A provider serves at most a prefix it has seen, so the
 * reported tokens can never exceed the achievable ones: prefix efficiency is at most 1 by
 * construction. Sessions are taken in the order given; pass several runs' sessions in run order.
 */
export function cacheEfficiency(sessions: readonly RecordedSession[]): CacheEfficiency {
  const earlier = new Map<Role, string[][]>();
  const perSession: SessionCache[] = [];
  for (const session of sessions) {
    const seen = earlier.get(session.role) ?? [];
    earlier.set(session.role, seen);
    let achievable = 0;
    let shareable = 0;
    let reported = 0;
    session.requests.forEach((request, i) => {
      const chunks = serializePrompt(request.tools, request.messages);
      const shared = Math.max(0, ...seen.map((prompt) => sharedPrefixTokens(prompt, chunks)));
      const extended = session.requests[i - 1]?.usage?.prompt_tokens ?? 0;
      shareable += Math.max(shared, extended);
      achievable += reportableCachedTokens(Math.max(shared, extended));
      reported += request.usage?.prompt_tokens_details.cached_tokens ?? 0;
      seen.push(chunks);
    });
    perSession.push({ role: session.role, requests: session.requests.length, reported, achievable, shareable });
  }
  const sum = (pick: (s: SessionCache) => number) => perSession.reduce((total, s) => total + pick(s), 0);
  return {
    sessions: perSession,
    reported: sum((s) => s.reported),
    achievable: sum((s) => s.achievable),
    shareable: sum((s) => s.shareable),
  };
}
