import { createPacingBucket, NOTIFICATION_PACING, WRITE_PACING } from '../src/github/write-pacing.js';
import type { RequestLogEntry } from '../test/fakes/github-emulator.js';

/**
 * GitHub API calls of one command, from the emulator's request log. Reads and writes are told apart
 * by method, and for GraphQL by operation type, because a GraphQL query is one read however much it
 * asks for, while every write is a call GitHub may rate-limit harder (secondary limits).
 */

export interface CallGroup {
  /** `GET /repos/{owner}/{repo}/issues/{issue_number}/comments`, or `graphql query <first field>`. */
  name: string;
  kind: 'read' | 'write';
  count: number;
}

export interface CommandCalls {
  total: number;
  reads: number;
  writes: number;
  graphql: number;
  /** Every distinct call, in the order first made. */
  calls: CallGroup[];
  /** Every call in the order made, for the report's per-call listing. */
  sequence: string[];
  /**
   * The least time the client's write pacing must spread these calls over (src/github/write-pacing.ts:
   * a burst at once, then writes 1 s apart and notifying writes 3 s apart). Idle time no faster code
   * could remove.
   */
  pacingFloorMs: number;
}

function describe(entry: RequestLogEntry): { name: string; kind: 'read' | 'write' } {
  if (entry.api === 'graphql') {
    const query =
      typeof entry.body === 'object' && entry.body !== null
        ? String((entry.body as { query?: unknown }).query ?? '')
        : '';
    const head = /^\s*(query|mutation|subscription)?\s*([A-Za-z_]\w*)?\s*(?:\([^)]*\))?\s*\{\s*([A-Za-z_]\w*)/.exec(
      query,
    );
    const operation = head?.[1] ?? 'query';
    const label = head?.[2] ?? head?.[3] ?? '?';
    return { name: `graphql ${operation} ${label}`, kind: operation === 'query' ? 'read' : 'write' };
  }
  // Without a matched route (an error answer) the literal path still names the call.
  const path = entry.route ?? entry.path.replace(/\/\d+(?=\/|$)/g, '/{n}');
  const method = entry.method.toUpperCase();
  return { name: `${method} ${path}`, kind: method === 'GET' || method === 'HEAD' ? 'read' : 'write' };
}

/**
 * Writes paced as notifying (NOTIFICATION_PACING) on top of the write pacing: of the endpoints the
 * throttling plugin classes as notifying, those the emulator serves. Matched on the path, not the
 * answering route, because a write GitHub refuses (404, 422) was paced all the same.
 */
const NOTIFYING = [
  '/repos/{owner}/{repo}/issues',
  '/repos/{owner}/{repo}/issues/{issue_number}/comments',
  '/repos/{owner}/{repo}/pulls',
  '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
].map((template) => new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`));

/**
 * Replays the client's pacing (src/github/write-pacing.ts, the same buckets) over the calls in
 * order, as if every answer came at once: a write or GraphQL call books the write bucket; a notifying
 * write then books the notification bucket from that slot. Calls go out one after another, so the
 * time that passes is only the waiting, and the floor is when the last paced call could be sent.
 */
export function pacingFloor(entries: readonly RequestLogEntry[]): number {
  const writes = createPacingBucket(WRITE_PACING);
  const notifications = createPacingBucket(NOTIFICATION_PACING);
  let sent = 0;
  for (const entry of entries) {
    const method = entry.method.toUpperCase();
    const isWrite = method !== 'GET' && method !== 'HEAD';
    if (!isWrite && entry.api !== 'graphql') continue;
    const notifies = isWrite && entry.api === 'rest' && NOTIFYING.some((pattern) => pattern.test(entry.path));
    const slot = writes.reserve(sent);
    sent = notifies ? notifications.reserve(slot) : slot;
  }
  return sent;
}

export function summarizeCalls(entries: readonly RequestLogEntry[]): CommandCalls {
  const groups = new Map<string, CallGroup>();
  for (const entry of entries) {
    const { name, kind } = describe(entry);
    const group = groups.get(name) ?? { name, kind, count: 0 };
    group.count += 1;
    groups.set(name, group);
  }
  const calls = [...groups.values()];
  const count = (kind: 'read' | 'write') => calls.filter((c) => c.kind === kind).reduce((sum, c) => sum + c.count, 0);
  return {
    total: entries.length,
    reads: count('read'),
    writes: count('write'),
    graphql: entries.filter((e) => e.api === 'graphql').length,
    calls,
    sequence: entries.map((e) => describe(e).name),
    pacingFloorMs: pacingFloor(entries),
  };
}

/**
 * Calls each further cycle adds, by name: the difference between /approve with `cycles` and with one
 * cycle, per added cycle. Rounded, since a cycle makes whole calls.
 */
export function perCycleCalls(one: CommandCalls, many: CommandCalls, cycles: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const group of many.calls) {
    const before = one.calls.find((c) => c.name === group.name)?.count ?? 0;
    const added = Math.round((group.count - before) / (cycles - 1));
    if (added > 0) out[group.name] = added;
  }
  return out;
}
