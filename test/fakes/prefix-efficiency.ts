import type { Role } from '../../src/machine/fields.js';
import { countTokens, reportableCachedTokens, serializePrompt } from './prompt-cache.js';
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
  /** Cached prompt tokens a perfectly append-only client would have been reported. */
  achievable: number;
}

export interface CacheEfficiency {
  sessions: SessionCache[];
  reported: number;
  achievable: number;
}

/**
 * Requests of one run grouped by session: the executor has one session for the run; the planner
 * gets a fresh one per summons, so each unbroken run of planner requests is one session. Only
 * valid within one run (one process), since a new run starts a new executor session.
 */
export function groupSessions(
  requests: readonly RecordedRequest[],
  roleOf: (request: RecordedRequest) => Role,
): RecordedSession[] {
  const executor: RecordedRequest[] = [];
  const out: RecordedSession[] = [];
  let previous: Role | undefined;
  for (const request of requests) {
    const role = roleOf(request);
    if (role === 'executor') {
      if (executor.length === 0) out.push({ role, requests: executor });
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
 * Reported against achievable cached tokens. Achievable: each request could hit the whole previous
 * request of its session, and a session's first request the system+tools prefix an earlier session
 * of its role sent. Sessions are taken in the order given; pass several runs' sessions in run order.
 */
export function cacheEfficiency(sessions: readonly RecordedSession[]): CacheEfficiency {
  const seenPrefix = new Map<Role, string>();
  const perSession: SessionCache[] = [];
  for (const session of sessions) {
    let achievable = 0;
    let reported = 0;
    session.requests.forEach((request, i) => {
      const previous = session.requests[i - 1];
      if (previous !== undefined) {
        achievable += reportableCachedTokens(previous.usage?.prompt_tokens ?? 0);
      } else if (seenPrefix.get(session.role) === prefixOf(request)) {
        achievable += reportableCachedTokens(countTokens(serializePrompt(request.tools, request.messages.slice(0, 1))));
      }
      reported += request.usage?.prompt_tokens_details.cached_tokens ?? 0;
    });
    seenPrefix.set(session.role, prefixOf(session.requests[0]));
    perSession.push({ role: session.role, requests: session.requests.length, reported, achievable });
  }
  return {
    sessions: perSession,
    reported: perSession.reduce((sum, s) => sum + s.reported, 0),
    achievable: perSession.reduce((sum, s) => sum + s.achievable, 0),
  };
}
