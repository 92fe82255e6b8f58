import { describe, expect, it } from 'vitest';
import { pacingFloor, summarizeCalls } from '../../bench/api-calls.js';
import type { RequestLogEntry } from '../fakes/github-emulator.js';

/** How the benchmark counts GitHub calls from the emulator's request log. */

function entry(method: string, route: string | null, path: string, body?: unknown): RequestLogEntry {
  return { api: path === '/graphql' ? 'graphql' : 'rest', method, path, query: {}, status: 200, body, route: path === '/graphql' ? null : route, response: {} };
}

const permission = entry('GET', '/repos/{owner}/{repo}/collaborators/{username}/permission', '/repos/o/r/collaborators/mona/permission');
const reaction = entry('POST', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', '/repos/o/r/issues/comments/7/reactions', { content: 'eyes' });
const newComment = entry('POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', '/repos/o/r/issues/1/comments', { body: 'plan' });
const edit = entry('PATCH', '/repos/{owner}/{repo}/issues/comments/{comment_id}', '/repos/o/r/issues/comments/8', { body: 'plan, done' });
const newPull = entry('POST', '/repos/{owner}/{repo}/pulls', '/repos/o/r/pulls', { title: 't' });
const query = entry('POST', null, '/graphql', { query: 'query plangateLastEditor($id: ID!) {\n  node(id: $id) { id }\n}' });
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
  it('spaces writes and GraphQL calls 1 s apart and leaves reads out', () => {
    expect(pacingFloor([permission, reaction, permission, edit, query])).toBe(2_000);
    expect(pacingFloor([permission, permission])).toBe(0);
    expect(pacingFloor([reaction])).toBe(0);
  });

  it('spaces writes that notify (new comments, pull requests) 3 s apart from each other', () => {
    // comment at 0, edit at 1 s, reaction at 2 s, pull request not before 3 s after the comment.
    expect(pacingFloor([newComment, edit, reaction, newPull])).toBe(3_000);
    expect(pacingFloor([newComment, newPull])).toBe(3_000);
    expect(pacingFloor([reaction, newComment, edit, edit, edit, edit, newPull])).toBe(6_000);
  });

  it('paces a write GitHub refused like any other, since the client waited before sending it', () => {
    const refusedReview = { ...entry('POST', null, '/repos/o/r/pulls/2/requested_reviewers', { reviewers: ['mona'] }), status: 404 };
    expect(pacingFloor([newPull, refusedReview])).toBe(3_000);
  });

  it('lets the write after a notifying call go as soon as that call is sent: the 1 s counts from its slot', () => {
    const review = entry('POST', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', '/repos/o/r/pulls/2/requested_reviewers', { reviewers: ['mona'] });
    // pull request at 0; review's slot at 1 s, sent at 3 s; the edit's slot (2 s) has passed, so it goes at 3 s too.
    expect(pacingFloor([newPull, review, edit])).toBe(3_000);
    expect(pacingFloor([newPull, review, edit, edit])).toBe(4_000);
  });
});
