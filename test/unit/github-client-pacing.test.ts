import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient, type GitHubClient, type PacingClock } from '../../src/github/client.js';
import { createPacingBucket, NOTIFICATION_PACING, WRITE_PACING } from '../../src/github/write-pacing.js';
import { startGitHubEmulator, type GitHubEmulator } from '../fakes/github-emulator.js';

// How the client spaces its writes. Time is a fake clock that moves only when the client sleeps,
// so every wait is exact and nothing depends on how fast the machine is.

const owner = 'octo';
const repo = 'sample';
const token = 'ghs_pacingTestToken0123456789';

/** A clock whose sleeps are recorded and pass at once, moving its time forward by the amount slept. */
function fakeClock(): PacingClock & { sleeps: number[]; time: number } {
  const clock = {
    time: 0,
    sleeps: [] as number[],
    now: () => clock.time,
    sleep: (ms: number) => {
      clock.sleeps.push(ms);
      clock.time += ms;
      return Promise.resolve();
    },
  };
  return clock;
}

describe('createPacingBucket', () => {
  it('lets a burst start at once, then one write per interval', () => {
    const bucket = createPacingBucket({ burst: 3, intervalMs: 1_000 });
    expect([0, 0, 0, 0, 0].map(() => bucket.reserve(0))).toEqual([0, 0, 0, 1_000, 2_000]);
  });

  it('earns the burst back with time, never more than the burst', () => {
    const bucket = createPacingBucket({ burst: 2, intervalMs: 1_000 });
    expect([bucket.reserve(0), bucket.reserve(0)]).toEqual([0, 0]);
    // 1.5 s later 1.5 writes' allowance came back: one goes now, the next waits for the half missing.
    expect([bucket.reserve(1_500), bucket.reserve(1_500)]).toEqual([1_500, 2_000]);
    // After a long pause only the burst is available again.
    expect([100_000, 100_000, 100_000].map((t) => bucket.reserve(t))).toEqual([100_000, 100_000, 101_000]);
  });

  it('starts writes in the order asked: a later one queues behind one still waiting', () => {
    const bucket = createPacingBucket({ burst: 1, intervalMs: 3_000 });
    expect(bucket.reserve(0)).toBe(0);
    expect(bucket.reserve(100)).toBe(3_000);
    expect(bucket.reserve(200)).toBe(6_000);
  });

  it('never starts more than burst + window / interval writes in any window', () => {
    for (const rule of [WRITE_PACING, NOTIFICATION_PACING]) {
      const bucket = createPacingBucket(rule);
      // Writes asked for as fast as possible, in bursts and trickles, over ten minutes.
      const starts: number[] = [];
      for (let t = 0; t < 600_000; t += t % 7_000 < 2_000 ? 10 : 900) starts.push(bucket.reserve(t));
      // Starts never go backwards, so each minute-long window from a start is a slice.
      let most = 0;
      for (let i = 0, j = 0; i < starts.length; i++) {
        while (j < starts.length && (starts[j] ?? 0) < (starts[i] ?? 0) + 60_000) j++;
        most = Math.max(most, j - i);
      }
      expect(most).toBeLessThanOrEqual(rule.burst + 60_000 / rule.intervalMs);
      // The bound is reached, not merely respected: the test would see a bucket that paced too little.
      expect(most).toBeGreaterThanOrEqual(rule.burst + 60_000 / rule.intervalMs - 1);
    }
  });

  it('keeps a minute of writes under GitHub’s 80 content-generating requests', () => {
    expect(WRITE_PACING.burst + 60_000 / WRITE_PACING.intervalMs).toBeLessThan(80);
    expect(WRITE_PACING.intervalMs).toBeGreaterThanOrEqual(1_000);
  });
});

describe('createGitHubClient pacing', () => {
  let gh: GitHubEmulator;
  beforeAll(async () => {
    gh = await startGitHubEmulator({ owner, repo, token });
  });
  afterAll(async () => {
    await gh?.close();
  });

  function client(clock: PacingClock): GitHubClient {
    return createGitHubClient(token, gh.url, { waitUnitMs: 1, pacingClock: clock });
  }

  async function react(octokit: GitHubClient, commentId: number): Promise<void> {
    await octokit.rest.reactions.createForIssueComment({ owner, repo, comment_id: commentId, content: 'eyes' });
  }

  it('makes the few writes of a /plan without waiting', async () => {
    const clock = fakeClock();
    const octokit = client(clock);
    const issue = gh.addIssue({ title: 'Plan', login: 'mona' }).number;
    const { data: comment } = await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: issue,
      body: 'the plan',
    });
    await react(octokit, comment.id);
    await octokit.rest.issues.listComments({ owner, repo, issue_number: issue });
    expect(clock.sleeps).toEqual([]);
  });

  it('waits a second between writes once the burst is spent; reads never wait', async () => {
    const clock = fakeClock();
    const octokit = client(clock);
    const issue = gh.addIssue({ title: 'Many writes', login: 'mona' }).number;
    const { data: comment } = await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: issue,
      body: 'progress',
    });
    for (let i = 1; i < WRITE_PACING.burst; i++) await react(octokit, comment.id);
    expect(clock.sleeps).toEqual([]);
    for (let i = 0; i < 5; i++) await octokit.rest.issues.getComment({ owner, repo, comment_id: comment.id });
    expect(clock.sleeps).toEqual([]);
    for (let i = 0; i < 3; i++)
      await octokit.rest.issues.updateComment({ owner, repo, comment_id: comment.id, body: `progress ${i}` });
    expect(clock.sleeps).toEqual([1_000, 1_000, 1_000]);
    const { data: stored } = await octokit.rest.issues.getComment({ owner, repo, comment_id: comment.id });
    expect(stored.body).toBe('progress 2');
  });

  it('spaces comments 3 s apart once their own burst is spent', async () => {
    const clock = fakeClock();
    const octokit = client(clock);
    const issue = gh.addIssue({ title: 'Many comments', login: 'mona' }).number;
    for (let i = 0; i < NOTIFICATION_PACING.burst + 2; i++)
      await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: `comment ${i}` });
    expect(clock.sleeps).toEqual([3_000, 3_000]);
    expect(
      gh.requests.filter(
        (r) => r.method === 'POST' && r.path === `/repos/${owner}/${repo}/issues/${issue}/comments` && r.status === 201,
      ),
    ).toHaveLength(7);
  });

  it('does not pace at all with pace: false', async () => {
    const clock = fakeClock();
    const octokit = createGitHubClient(token, gh.url, { waitUnitMs: 1, pace: false, pacingClock: clock });
    const issue = gh.addIssue({ title: 'Unpaced', login: 'mona' }).number;
    for (let i = 0; i < NOTIFICATION_PACING.burst + 3; i++)
      await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: `c${i}` });
    expect(clock.sleeps).toEqual([]);
  });
});
