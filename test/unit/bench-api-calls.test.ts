import { describe, expect, it } from 'vitest';
import { pacingFloor, summarizeCalls } from '../../bench/api-calls.js';
import { NOTIFICATION_PACING, WRITE_PACING } from '../../src/github/write-pacing.js';
import type { RequestLogEntry } from '../fakes/github-emulator.js';

/** How the benchmark counts GitHub calls from the emulator's request log. */

function entry(method: string, route: string | null, path: string, body?: unknown): RequestLogEntry {
  return {
    api: path === '/graphql' ? 'graphql' : 'rest',
    method,
    path,
    query: {},
    status: 200,
    body,
    route: path === '/graphql' ? null : route,
    response: {},
  };
}

const permission = entry(
  'GET',
  '/repos/{owner}/{repo}/collaborators/{username}/permission',
  '/repos/o/r/collaborators/mona/permission',
);
const reaction = entry(
  'POST',
  '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions',
  '/repos/o/r/issues/comments/7/reactions',
  { content: 'eyes' },
);
const newComment = entry(
  'POST',
  '/repos/{owner}/{repo}/issues/{issue_number}/comments',
  '/repos/o/r/issues/1/comments',
  { body: 'plan' },
);
const edit = entry('PATCH', '/repos/{owner}/{repo}/issues/comments/{comment_id}', '/repos/o/r/issues/comments/8', {
  body: 'plan, done',
});
const newPull = entry('POST', '/repos/{owner}/{repo}/pulls', '/repos/o/r/pulls', { title: 't' });
const query = entry('POST', null, '/graphql', {
  query: 'query plangateLastEditor($id: ID!) {\n  node(id: $id) { id }\n}',
});
const mutation = entry('POST', null, '/graphql', { query: 'mutation { addComment(input: {}) { clientMutationId } }' });

describe('summarizeCalls', () => {
  it('splits reads from writes by method, and GraphQL by operation type', () => {
    const calls = summarizeCalls([permission, reaction, query, mutation, edit, edit]);
    expect(calls).toMatchObject({ total: 6, reads: 2, writes: 4, graphql: 2 });
    expect(calls.calls.map((c) => [c.name, c.kind, c.count])).toEqual([
      ['GET /repos/{owner}/{repo}/collaborators/{username}/permission', 'read', 1],
      ['POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', 'write', 1],
      ['graphql query plangateLastEditor', 'read', 1],
      ['graphql mutation addComment', 'write', 1],
      ['PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', 'write', 2],
    ]);
  });

  it('names a call no route answered by its path with the numbers masked', () => {
    const failed = { ...entry('GET', null, '/repos/o/r/issues/42/comments'), status: 404 };
    expect(summarizeCalls([failed]).sequence).toEqual(['GET /repos/o/r/issues/{n}/comments']);
  });
});

describe('pacingFloor', () => {
  const times = (n: number, call: RequestLogEntry) => Array.from({ length: n }, () => call);

  it('costs nothing for a run whose writes fit in the burst, and leaves reads out', () => {
    expect(pacingFloor([permission, reaction, permission, newComment, query])).toBe(0);
    expect(pacingFloor(times(WRITE_PACING.burst, edit))).toBe(0);
    expect(pacingFloor(times(50, permission))).toBe(0);
  });

  it('spaces writes and GraphQL calls 1 s apart once the burst is spent', () => {
    expect(pacingFloor(times(WRITE_PACING.burst + 1, edit))).toBe(1_000);
    expect(pacingFloor([...times(WRITE_PACING.burst, edit), query, permission, mutation])).toBe(2_000);
  });

  it('spaces notifying writes (new comments, pull requests) 3 s apart once their own burst is spent', () => {
    expect(pacingFloor(times(NOTIFICATION_PACING.burst, newComment))).toBe(0);
    expect(pacingFloor([...times(NOTIFICATION_PACING.burst, newComment), newPull])).toBe(3_000);
    // The edit after the waiting pull request goes as it is sent: the write bucket has allowance left.
    expect(pacingFloor([...times(NOTIFICATION_PACING.burst, newComment), newPull, edit])).toBe(3_000);
  });

  it('paces a write GitHub refused like any other, since the client waited before sending it', () => {
    const refusedReview = {
      ...entry('POST', null, '/repos/o/r/pulls/2/requested_reviewers', { reviewers: ['mona'] }),
      status: 404,
    };
    expect(pacingFloor([...times(NOTIFICATION_PACING.burst, newPull), refusedReview])).toBe(3_000);
  });

  it('earns allowance back while a notifying write waits', () => {
    // 6 comments: the 6th waits until 3 s. By then the write bucket (9 left) has earned 3 more, so 12
    // of the 14 edits go at 3 s and the last two at 4 s and 5 s.
    expect(pacingFloor([...times(6, newComment), ...times(14, edit)])).toBe(5_000);
  });
});
