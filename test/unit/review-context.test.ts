import { describe, expect, it } from 'vitest';
import { renderReviewContext, reviewLimits, type ReviewContextInput } from '../../src/run/review-context-text.js';
import {
  isPlangatePullRequestBody,
  splitPullRequestBody,
  stackPullRequestBody,
} from '../../src/render/pull-request-sections.js';
import { renderReviewThreads } from '../../src/render/review-threads.js';
import { reviewContext } from '../../src/run/review-context.js';
import { fakeWorld } from './run-fixture.js';

const input = (over: Partial<ReviewContextInput> = {}): ReviewContextInput => ({
  pull: 5,
  files: [{ path: 'src/a.js', status: 'modified', additions: 3, deletions: 1 }],
  comments: [
    {
      id: 1,
      url: 'https://github.example/o/r/pull/5#discussion_r1',
      author: 'rev',
      body: 'Fix this<!-- hidden -->',
      path: 'src/a.js',
      line: 2,
      outdated: false,
    },
    { id: 2, url: 'u2', author: 'mona', body: 'Will do', path: 'src/a.js', line: 2, outdated: false, inReplyTo: 1 },
    { id: 3, url: 'u3', author: 'rev', body: 'Old remark', path: 'src/b.js', line: null, outdated: true },
  ],
  reviews: [{ id: 9, url: 'u9', author: 'rev', state: 'CHANGES_REQUESTED', body: 'Please fix' }],
  checks: {
    readable: true,
    failing: [
      {
        id: 4,
        name: 'tests',
        conclusion: 'failure',
        url: '',
        annotations: [{ path: 'src/a.js', line: 2, level: 'failure', title: '', message: 'boom' }],
      },
    ],
  },
  leftOut: 1,
  contextPermission: 'triage',
  ...over,
});

describe('the review context the planner reads', () => {
  it('fences every part as untrusted data, strips hidden text, groups replies and marks outdated threads', () => {
    const { text, threads } = renderReviewContext(input());
    expect(text).toContain('<untrusted-data source="changed files of pull request #5">\nsrc/a.js (modified, +3 -1)');
    expect(text).toContain('<untrusted-data source="review thread on src/a.js:2">\n@rev: Fix this\n\n@mona: Will do');
    expect(text).not.toContain('hidden');
    expect(text).toContain('review thread on src/b.js (outdated');
    expect(text).toContain('<untrusted-data source="review by @rev (CHANGES_REQUESTED)">\nPlease fix');
    expect(text).toContain('tests: failure\n  src/a.js:2: boom');
    expect(text).toContain('(1 review comment or review by users without triage permission was left out.)');
    expect(threads.map((t) => t.url)).toEqual(['https://github.example/o/r/pull/5#discussion_r1', 'u3']);
  });

  it('says when the checks could not be read', () => {
    const { text } = renderReviewContext(input({ checks: { readable: false, reason: 'Resource not accessible' } }));
    expect(text).toContain('could not be read');
  });

  it('bounds a long review with a notice', () => {
    const comments = Array.from({ length: 40 }, (_, i) => ({
      id: 100 + i,
      url: `u${i}`,
      author: 'rev',
      body: 'x'.repeat(5_000),
      path: `f${i}.js`,
      line: 1,
      outdated: false,
    }));
    const { text, threads } = renderReviewContext(input({ comments }));
    expect(text.length).toBeLessThan(
      reviewLimits.threads + reviewLimits.files + reviewLimits.reviews + reviewLimits.checks + 2_000,
    );
    expect(text).toMatch(/\(\d+ more review threads did not fit and were left out\.\)/);
    expect(threads.length).toBeLessThan(40);
  });
});

describe('resolved review threads', () => {
  const comments = input().comments;
  type States = () => Promise<{ firstCommentId: number; resolved: boolean; resolvedBy: string | null }[]>;
  const read = async (states: States) => {
    const world = fakeWorld();
    world.thread.reviewComments = async () => [...comments];
    world.thread.reviewThreadStates = states;
    world.thread.permissionOf = async (login) => (login === 'author' ? 'read' : 'write');
    return reviewContext(world.ctx, { number: 5, headSha: 'abc' }, new Map());
  };

  it('leaves out a resolved thread with its replies, and says how many', async () => {
    const { text, threads } = await read(async () => [
      { firstCommentId: 1, resolved: true, resolvedBy: 'mona' },
      { firstCommentId: 3, resolved: false, resolvedBy: null },
    ]);
    expect(text).not.toContain('Fix this');
    expect(text).not.toContain('Will do');
    expect(text).toContain('Old remark');
    expect(text).toContain('(1 resolved review thread was left out.)');
    expect(threads.map((t) => t.url)).toEqual(['u3']);
  });

  it('counts a thread as open when whoever resolved it lacks context-permission, or GitHub names nobody', async () => {
    for (const resolvedBy of ['author', null, 'github-actions[bot]']) {
      const { text, threads } = await read(async () => [
        { firstCommentId: 1, resolved: true, resolvedBy },
        { firstCommentId: 3, resolved: true, resolvedBy: 'rev' },
      ]);
      expect(text, String(resolvedBy)).toContain('Fix this');
      expect(text).toContain('Will do');
      expect(text).not.toContain('Old remark');
      expect(text).toContain('(1 resolved review thread was left out.)');
      expect(threads.map((t) => t.url)).toEqual(['https://github.example/o/r/pull/5#discussion_r1']);
    }
  });

  it('shows every thread when GraphQL cannot tell which are resolved', async () => {
    const { text, threads } = await read(async () => {
      throw new Error('Something went wrong while executing your query.');
    });
    expect(text).toContain('Fix this');
    expect(text).not.toContain('resolved review thread');
    expect(threads).toHaveLength(2);
  });
});

describe('pull request bodies over several runs', () => {
  const run = (id: string, text: string) => `${text}\n\n<!-- plangate:pr ${id} -->`;

  it('collapses the earlier run (or a person’s description) under the new one, newest first', () => {
    const second = stackPullRequestBody(run('aaaaaaaa', 'first run'), run('bbbbbbbb', 'second run'));
    expect(second.startsWith('second run')).toBe(true);
    expect(second).toContain('<summary>Run of plan `aaaaaaaa`</summary>\n\nfirst run');
    const third = stackPullRequestBody(second, run('cccccccc', 'third run'));
    expect(splitPullRequestBody(third).entries).toHaveLength(2);
    expect(third.indexOf('bbbbbbbb')).toBeLessThan(third.indexOf('aaaaaaaa'));
    expect(stackPullRequestBody('Hand written', run('aaaaaaaa', 'run'))).toContain(
      'The description before plangate’s runs',
    );
    expect(isPlangatePullRequestBody(third)).toBe(true);
    expect(isPlangatePullRequestBody('Hand written')).toBe(false);
  });

  it('replaces the same run instead of collapsing it, and drops the oldest runs past the limit with a notice', () => {
    expect(stackPullRequestBody(run('aaaaaaaa', 'v1'), run('aaaaaaaa', 'v2'))).toBe(run('aaaaaaaa', 'v2'));
    let body = run('00000000', 'x'.repeat(3_000));
    for (let i = 1; i < 6; i++) body = stackPullRequestBody(body, run(`0000000${i}`, 'x'.repeat(3_000)), 10_000);
    expect(body.length).toBeLessThanOrEqual(10_000);
    expect(body).toMatch(/\d earlier runs do not fit here/);
  });

  it('lists the review threads with links', () => {
    const text = renderReviewThreads([
      { url: 'https://github.example/o/r/pull/5#discussion_r1', path: 'a.js', line: 2, author: 'rev', outdated: false },
    ]);
    expect(text).toContain('- [`a.js:2`](https://github.example/o/r/pull/5#discussion_r1) by @rev');
    expect(renderReviewThreads([])).toBe('');
  });
});
