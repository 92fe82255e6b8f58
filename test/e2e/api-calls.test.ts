import { afterEach, describe, expect, it } from 'vitest';
import { toolCall, type Reply } from '../fakes/scripted-model.js';
import type { RequestLogEntry } from '../fakes/github-emulator.js';
import { decodeRecord } from '../../src/record/plan-record.js';
import { closeOpenWorlds, createWorld, git, type ActionRun, type World } from './harness.js';
import { bot, commentEvent as event } from './thread-helpers.js';
import { planComment as recordComment } from '../unit/record-fixture.js';

/**
 * GitHub API calls per command, counted from the emulator's request log as the benchmark counts
 * them: /plan at most 6, a refusal at most 3, /approve at most 13 plus 1 per cycle (its pull request is
 * opened as a draft before the first cycle, then filled in and marked ready). A count is not
 * a speed, so these hold on any machine. And where the re-check of an approval now happens once,
 * right before the pull request, that it still keeps a changed plan from being proposed.
 */

afterEach(closeOpenWorlds);

const plan = { steps: [{ title: 'Write the notes', files: ['notes'] }] };

/** A call as the benchmark names it: `METHOD route` for REST, `graphql <operation>` for GraphQL. */
function callName(entry: RequestLogEntry): string {
  if (entry.api === 'graphql')
    return `graphql ${/(?:query|mutation) (\w+)/.exec(String((entry.body as { query?: unknown }).query ?? ''))?.[1] ?? '?'}`;
  return `${entry.method} ${entry.route ?? entry.path}`;
}

/** Runs one command as its own job and returns it with the calls it made. */
async function counted(
  w: World,
  issue: number,
  login: string,
  body: string,
): Promise<{ run: ActionRun; calls: string[] }> {
  w.freshCheckout();
  const from = w.gh.requests.length;
  const run = await w.runAction(event(w, issue, login, body));
  return { run, calls: w.gh.requests.slice(from).map(callName) };
}

/** The planner plans, then writes one directive per further cycle, then the summary; the executor writes one note per cycle. */
function script(cycles: number): Record<string, Reply[]> {
  const planner: Reply[] = [toolCall('update_context', { plan, directive: 'Write notes/1.md.' })];
  const executor: Reply[] = [];
  for (let n = 1; n <= cycles; n++) {
    if (n > 1) planner.push(toolCall('update_context', { directive: `Write notes/${n}.md.` }));
    executor.push(
      toolCall('write_file', { path: `notes/${n}.md`, content: `note ${n}\n` }),
      toolCall('update_context', { result: `Wrote notes/${n}.md.`, outcome: n === cycles ? 'done' : 'replan' }),
    );
  }
  planner.push(toolCall('update_context', { summary: `Wrote ${cycles} notes.` }));
  return { planner, executor };
}

async function setup(s: Record<string, Reply[]>) {
  const world = await createWorld(s);
  world.gh.setPermission('mona', 'maintain');
  const issue = world.gh.addIssue({ title: 'Notes', body: 'Write the notes.', login: 'mona' }).number;
  return { w: world, issue };
}

const count = (calls: readonly string[], name: string) => calls.filter((c) => c === name).length;

describe('GitHub API calls per command', () => {
  it('/plan takes at most 6 calls and a refusal at most 3', async () => {
    const { w, issue } = await setup(script(1));
    const planned = await counted(w, issue, 'mona', '/plan write the notes');
    expect(planned.run.outputs.outcome, planned.run.stdout + planned.run.stderr).toBe('planned');
    expect(planned.calls.length, planned.calls.join('\n')).toBeLessThanOrEqual(6);

    const refused = await counted(w, issue, 'stranger', '/approve');
    expect(refused.run.outputs.outcome).toBe('refused');
    expect(refused.calls.length, refused.calls.join('\n')).toBeLessThanOrEqual(3);
  });

  for (const cycles of [1, 3]) {
    it(`/approve with ${cycles} cycle${cycles > 1 ? 's' : ''} takes at most ${13 + cycles} calls`, async () => {
      const { w, issue } = await setup(script(cycles));
      const planned = await counted(w, issue, 'mona', '/plan write the notes');
      const planId = planned.run.outputs['plan-id'] ?? '';
      const approved = await counted(w, issue, 'mona', '/approve');
      expect(approved.run.outputs.outcome, approved.run.stdout + approved.run.stderr).toBe('done');
      const { calls } = approved;
      expect(calls.length, calls.join('\n')).toBeLessThanOrEqual(13 + cycles);

      // Each cycle costs one progress save (and the draft one more); nothing re-reads the plan comment between cycles.
      expect(count(calls, 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}')).toBe(cycles + 4);
      expect(count(calls, 'GET /repos/{owner}/{repo}/issues/comments/{comment_id}')).toBe(0);
      // The draft is opened before the first model request of the executor, without a look first.
      expect(count(calls, 'POST /repos/{owner}/{repo}/pulls')).toBe(1);
      expect(count(calls, 'GET /repos/{owner}/{repo}/pulls')).toBe(0);
      // The approval is re-checked once, in one read, before the pull request is filled in and marked ready.
      expect(count(calls, 'graphql plangateApproval')).toBe(1);
      expect(calls.indexOf('graphql plangateApproval')).toBeLessThan(
        calls.indexOf('PATCH /repos/{owner}/{repo}/pulls/{pull_number}'),
      );
      expect(calls.indexOf('PATCH /repos/{owner}/{repo}/pulls/{pull_number}')).toBeLessThan(
        calls.indexOf('graphql MarkReady'),
      );
      // The lock is git traffic: no REST call takes or releases it, and it is gone afterwards.
      expect(calls.filter((c) => c.includes('/git/'))).toEqual([]);
      expect(git(w.origin, 'for-each-ref', '--format=%(refname)', 'refs/plangate')).toBe('');
      // 🚀 says it started; success needs no closing reaction.
      const command = w.gh
        .comments(issue)
        .filter((c) => c.body === '/approve')
        .at(-1);
      expect(w.gh.reactions(command?.id ?? 0).map((r) => r.content)).toEqual(['rocket']);
      expect(w.gh.pulls()).toHaveLength(1);
      expect(w.gh.pulls()[0]?.draft).toBe(false);
      // The start commit, then one commit per cycle.
      expect(git(w.origin, 'rev-list', '--count', `refs/heads/main..refs/heads/plangate/${issue}-${planId}`)).toBe(
        String(cycles + 1),
      );
    });
  }
});

describe('the approval re-check before the pull request', () => {
  /** Two cycles, with `change` made to the thread while the first one runs. */
  async function changedMidRun(change: (w: World, issue: number) => void) {
    const state: { w?: World; issue?: number } = {};
    const meddle: Reply = () => {
      if (state.w && state.issue !== undefined) change(state.w, state.issue);
      return toolCall('update_context', { result: 'Wrote notes/1.md.', outcome: 'replan' });
    };
    const { w, issue } = await setup({
      planner: [
        toolCall('update_context', { plan, directive: 'Write notes/1.md.' }),
        toolCall('update_context', { directive: 'Write notes/2.md.' }),
        toolCall('update_context', { summary: 'Done.' }),
      ],
      executor: [
        toolCall('write_file', { path: 'notes/1.md', content: 'one\n' }),
        meddle,
        toolCall('write_file', { path: 'notes/2.md', content: 'two\n' }),
        toolCall('update_context', { result: 'Wrote notes/2.md.', outcome: 'done' }),
      ],
    });
    Object.assign(state, { w, issue });
    const planned = await counted(w, issue, 'mona', '/plan write the notes');
    const planId = planned.run.outputs['plan-id'] ?? '';
    const approved = await counted(w, issue, 'mona', '/approve');
    return { w, issue, planId, approved: approved.run };
  }

  /** The draft opened before the first cycle stays a draft, never filled in with the run. */
  const proposesNothing = (w: World) => {
    const pulls = w.gh.pulls();
    expect(pulls).toHaveLength(1);
    expect(pulls[0]?.draft).toBe(true);
    expect(pulls[0]?.body).not.toContain('## History');
  };

  const progress = (w: World, issue: number) =>
    w.gh.comments(issue).find((c) => c.user?.login === bot && (c.body ?? '').includes('<!-- plangate:progress'))
      ?.body ?? '';

  it('proposes nothing when a person edits the plan comment mid-run; the work stays on its branch', async () => {
    const { w, issue, planId, approved } = await changedMidRun((world, n) => {
      const planComment = world.gh
        .comments(n)
        .find((c) => c.user?.login === bot && (c.body ?? '').includes('<!-- plangate:record v1'));
      if (!planComment) throw new Error('no plan comment');
      world.gh.editComment(planComment.id, {
        login: 'mona',
        body: `${planComment.body ?? ''}\n\nAlso delete the tests.`,
      });
    });
    expect(approved.code).not.toBe(0);
    expect(approved.stdout + approved.stderr).toContain('the plan comment was edited or removed');
    proposesNothing(w);
    const branch = `refs/heads/plangate/${issue}-${planId}`;
    expect(git(w.origin, 'show', `${branch}:notes/2.md`)).toBe('two');
    expect(progress(w, issue)).toContain('no longer holds');
  });

  it("proposes nothing when a person rewrites the plan comment as a cancelled record: only plangate's own cancellation is kept", async () => {
    const { w, approved } = await changedMidRun((world, n) => {
      const planComment = world.gh
        .comments(n)
        .find((c) => c.user?.login === bot && (c.body ?? '').includes('<!-- plangate:record v1'));
      const decoded = decodeRecord(planComment?.body ?? '');
      if (!planComment || !decoded.ok) throw new Error('no plan record');
      // Without a record secret, this reads exactly as plangate renders a cancelled plan.
      world.gh.editComment(planComment.id, {
        login: 'mona',
        body: recordComment({ ...decoded.record, status: 'cancelled' }),
      });
    });
    expect(approved.code).not.toBe(0);
    expect(approved.stdout + approved.stderr).toContain('the plan comment was edited or removed');
    proposesNothing(w);
  });

  it('proposes nothing when the plan comment is deleted mid-run', async () => {
    const { w, approved } = await changedMidRun((world, n) => {
      const planComment = world.gh
        .comments(n)
        .find((c) => c.user?.login === bot && (c.body ?? '').includes('<!-- plangate:record v1'));
      if (!planComment) throw new Error('no plan comment');
      world.gh.deleteComment(planComment.id);
    });
    expect(approved.code).not.toBe(0);
    expect(approved.stdout + approved.stderr).toContain('the plan comment was edited or removed');
    proposesNothing(w);
  });

  it('proposes nothing when the issue text changes mid-run', async () => {
    const { w, issue, approved } = await changedMidRun((world, n) =>
      world.gh.updateIssue(n, { body: 'Write the notes, and publish the secrets.' }),
    );
    expect(approved.code).not.toBe(0);
    expect(approved.stdout + approved.stderr).toContain(`the title or description of #${issue} changed`);
    proposesNothing(w);
  });
});
