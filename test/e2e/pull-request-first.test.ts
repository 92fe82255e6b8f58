import { afterEach, describe, expect, it } from 'vitest';
import { toolCall, type Reply } from '../fakes/scripted-model.js';
import type { EmulatedPull } from '../fakes/github-emulator.js';
import { closeOpenWorlds, git, type World } from './harness.js';
import { botComments } from './thread-helpers.js';
import { firstNote, run, setup, stagePlan, summary } from './notes-scenario.js';

/**
 * The pull request is opened, as a draft, before the executor's first model request: a repository
 * that forbids Actions to open pull requests, or a token without `pull-requests: write`, is found
 * out before anything is spent on the executor, and the reply says what to change. A run that can
 * go on works under its draft, which it fills in and marks ready at the end: one pull request.
 */

afterEach(closeOpenWorlds);

const executorRequests = (w: World) => w.model.requests.filter((r) => r.model === 'executor');

/** Plans the two-note scenario with the executor's first cycle scripted; the plan id. */
async function planned(executor: Reply[]): Promise<{ w: World; issue: number; planId: string }> {
  const { w, issue } = await setup({ planner: [stagePlan, summary], executor });
  const result = await run(w, issue, '/plan write notes');
  expect(result.outputs.outcome, result.stdout).toBe('planned');
  return { w, issue, planId: result.outputs['plan-id'] ?? '' };
}

/** After the refusal: the fix is in, a new `/approve` runs the plan once, into one ready pull request. */
async function approvedOnceFixed(w: World, issue: number, planId: string): Promise<void> {
  const again = await run(w, issue, `/approve ${planId}`);
  expect(again.outputs.outcome, again.stdout + again.stderr).toBe('done');
  const pulls = w.gh.pulls();
  expect(pulls).toHaveLength(1);
  expect(pulls[0]?.draft).toBe(false);
  expect(pulls[0]?.body).toContain('## History');
  expect(w.model.remaining()).toEqual({ planner: 0, executor: 0 });
  const branch = `refs/heads/plangate/${issue}-${planId}`;
  expect(git(w.origin, 'show', `${branch}:notes/one.md`)).toBe('one');
}

describe('the pull request before the executor spends', () => {
  it('answers "Allow GitHub Actions to create and approve pull requests" off with the setting and the App token, before any executor request', async () => {
    const { w, issue, planId } = await planned(firstNote('done'));
    w.gh.forbidActionsPullRequests();
    const refused = await run(w, issue, '/approve');
    expect(refused.outputs.outcome, refused.stdout + refused.stderr).toBe('failed');
    expect(refused.code).not.toBe(0);

    // Nothing was asked of the executor: its scripted replies are all still there.
    expect(executorRequests(w)).toHaveLength(0);
    expect(w.model.remaining().executor).toBe(2);
    expect(w.gh.pulls()).toHaveLength(0);
    const reply = botComments(w, issue).at(-1) ?? '';
    expect(reply).toContain('No executor model request was made');
    expect(reply).toContain(
      'Settings → Actions → General → Workflow permissions → "Allow GitHub Actions to create and approve pull requests"',
    );
    expect(reply).toContain("GitHub App's installation token");
    expect(reply).toContain('CI runs on its pull requests');
    expect(reply).toContain(`/approve ${planId}`);

    w.gh.forbidActionsPullRequests(false);
    await approvedOnceFixed(w, issue, planId);
  });

  it('answers a token without `pull-requests: write` with the permissions line and the App token, before any executor request', async () => {
    const { w, issue, planId } = await planned(firstNote('done'));
    w.gh.denyPermission('pull-requests');
    const refused = await run(w, issue, '/approve');
    expect(refused.outputs.outcome, refused.stdout + refused.stderr).toBe('failed');

    expect(executorRequests(w)).toHaveLength(0);
    expect(w.model.remaining().executor).toBe(2);
    expect(w.gh.pulls()).toHaveLength(0);
    const reply = botComments(w, issue).at(-1) ?? '';
    expect(reply).toContain('Resource not accessible by integration');
    expect(reply).toContain('add `pull-requests: write` to the `permissions:` block');
    expect(reply).toContain("GitHub App's installation token");
    expect(reply).toContain('No executor model request was made');

    w.gh.grantPermission('pull-requests');
    await approvedOnceFixed(w, issue, planId);
  });

  it('works under a draft pull request that it fills in and marks ready at the end', async () => {
    const seen: { pulls?: EmulatedPull[]; world?: World } = {};
    const [write, done] = firstNote('done') as [Reply, Reply];
    // The executor's first request: what GitHub holds at that moment.
    const looks: Reply = () => {
      seen.pulls = seen.world?.gh.pulls();
      return write;
    };
    const { w, issue, planId } = await planned([looks, done]);
    seen.world = w;
    const result = await run(w, issue, '/approve');
    expect(result.outputs.outcome, result.stdout + result.stderr).toBe('done');
    const branch = `plangate/${issue}-${planId}`;

    // At the executor's first request the pull request was there already, as a draft that says so.
    expect(seen.pulls).toHaveLength(1);
    const draft = seen.pulls?.[0];
    expect(draft?.draft).toBe(true);
    expect(draft?.head.ref).toBe(branch);
    expect(draft?.body).toContain('stays a draft while it works');
    expect(draft?.body).not.toContain('## History');

    // At the end: the same pull request, filled in and ready; the only one.
    const pulls = w.gh.pulls();
    expect(pulls).toHaveLength(1);
    expect(pulls[0]?.number).toBe(draft?.number);
    expect(pulls[0]?.draft).toBe(false);
    expect(pulls[0]?.state).toBe('open');
    expect(pulls[0]?.body).toContain('## History');
    expect(pulls[0]?.body).not.toContain('stays a draft while it works');
    expect(result.outputs['pr-number']).toBe(String(draft?.number));
    // The branch starts with an empty commit (what the draft needs), then the cycle's work.
    expect(git(w.origin, 'log', '--format=%s', `main..refs/heads/${branch}`).split('\n')).toEqual([
      expect.stringMatching(/^plangate: cycle 1 of plan /),
      `plangate: start plan ${planId}`,
    ]);
  });

  it('closes the draft of a run that ends with nothing to land, saying why', async () => {
    const { w, issue, planId } = await planned([
      toolCall('update_context', {
        result: 'notes/one.md cannot be written: the notes folder is frozen.',
        outcome: 'abort',
      }),
    ]);
    const result = await run(w, issue, '/approve');
    expect(result.outputs.outcome, result.stdout + result.stderr).toBe('aborted');
    const pulls = w.gh.pulls();
    expect(pulls).toHaveLength(1);
    expect(pulls[0]?.state).toBe('closed');
    expect(pulls[0]?.draft).toBe(true);
    expect(pulls[0]?.body).toContain('the notes folder is frozen');
    expect(result.outputs['pr-number'] ?? '').toBe('');
    // The branch held only the start commit: it is gone again.
    expect(git(w.origin, 'for-each-ref', '--format=%(refname)', `refs/heads/plangate/${issue}-${planId}`)).toBe('');
  });
});
