import { afterEach, describe, expect, it } from 'vitest';
import { toolCall, type Reply } from '../fakes/scripted-model.js';
import { issueCommentPayload, schedulePayload, workflowDispatchPayload } from '../fakes/payloads.js';
import { closeOpenWorlds, createWorld, git, owner, repo, type ActionRun, type World } from './harness.js';
import { bot, botComments } from './thread-helpers.js';
import { fileURLToPath } from 'node:url';
import { decodeRecord, encodeRecord, type PlanRecord } from '../../src/record/plan-record.js';
import { renderPlanComment } from '../../src/render/plan-comment.js';
import { answerOnCue } from './model-cues.js';

/**
 * Scheduled and dispatched maintenance tasks against the bundled action: tracking issues found
 * again by label, no duplicates, the plan gate on the tracking issue, plan-first tasks, skips
 * reported in the job summary, and config errors that name the key.
 */

afterEach(closeOpenWorlds);

/** Preloaded into an action whose clock reads an hour later than the test's. */
const clockAhead = fileURLToPath(new URL('../fixtures/clock-an-hour-ahead.cjs', import.meta.url));

const config = [
  'tasks:',
  '  - name: deps',
  '    objective: Update the development dependencies.',
  "    cron: '0 6 * * 1'",
  '    labels: [maintenance]',
  '  - name: docs',
  '    objective: Refresh the README.',
  "    cron: '0 7 * * 1'",
  '  - name: lint',
  '    objective: Fix lint warnings.',
  "    cron: '0 8 * * 1'",
  '    policy: plan-first',
  '',
].join('\n');

const planFor = (what: string) =>
  toolCall('update_context', {
    plan: { steps: [{ title: what, files: [`notes/${what}.md`] }] },
    directive: `Write notes/${what}.md.`,
  });
const write = (what: string) => toolCall('write_file', { path: `notes/${what}.md`, content: `${what}\n` });
const done = toolCall('update_context', { result: 'Wrote the note.', outcome: 'done' });
const summary = toolCall('update_context', { summary: 'Wrote the note.' });

async function setup(script: Record<string, Reply[]>, configText = config) {
  const world = await createWorld(script);
  world.pushToOrigin('main', { '.github/plangate.yml': configText }, 'Configure plangate tasks');
  world.gh.setPermission('mona', 'maintain');
  return world;
}

async function schedule(w: World, cron: string): Promise<ActionRun> {
  w.freshCheckout();
  return w.runAction({ name: 'schedule', payload: schedulePayload({ owner, repo, cron }) });
}

async function dispatch(w: World, inputs: Record<string, string>, actor = 'mona'): Promise<ActionRun> {
  w.freshCheckout();
  return w.runAction({
    name: 'workflow_dispatch',
    payload: workflowDispatchPayload({ owner, repo, sender: actor, inputs }),
  });
}

const trackingIssues = (w: World, name: string) =>
  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    .map((n) => w.gh.issue(n))
    .filter(
      (i) => i && !i.pull_request && i.labels.some((l) => (typeof l === 'string' ? l : l.name) === `plangate:${name}`),
    );

describe('scheduled tasks', () => {
  it('plans the task whose cron fired on a tracking issue, never twice, and /approve there opens the PR', async () => {
    const w = await setup({ planner: [planFor('deps'), summary], executor: [write('deps'), done] });
    const first = await schedule(w, '0 6 * * 1');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const [tracking] = trackingIssues(w, 'deps');
    expect(tracking?.title).toBe('plangate task: deps');
    expect(tracking?.labels.map((l) => (typeof l === 'string' ? l : l.name))).toContain('maintenance');
    expect(trackingIssues(w, 'docs')).toHaveLength(0);
    expect(botComments(w, tracking?.number ?? 0).some((b) => b.includes('### 📋 Plan'))).toBe(true);
    expect(first.summary).toMatch(/\| `deps` \| ran \| planned \|/);

    const again = await schedule(w, '0 6 * * 1');
    expect(again.code).toBe(0);
    expect(trackingIssues(w, 'deps')).toHaveLength(1);
    expect(botComments(w, tracking?.number ?? 0).filter((b) => b.includes('### 📋 Plan'))).toHaveLength(1);
    expect(again.summary).toMatch(/\| `deps` \| skipped \| plan [0-9a-f]{8} waits for approval/);

    w.freshCheckout();
    const issueData = w.gh.issue(tracking?.number ?? 0);
    const approve = w.gh.addComment(tracking?.number ?? 0, { login: 'mona', body: '/approve' });
    const approved = await w.runAction({
      name: 'issue_comment',
      payload: issueCommentPayload({ owner, repo, issue: issueData!, comment: approve }),
    });
    expect(approved.outputs.outcome, approved.stdout).toBe('done');
    expect(w.gh.pulls()[0]?.body).toContain(`Closes #${tracking?.number}`);
    expect(git(w.origin, 'show', `refs/heads/${approved.outputs.branch}:notes/deps.md`)).toBe('deps');
  });

  it('runs a plan-first task to a pull request in one run', async () => {
    const w = await setup({ planner: [planFor('lint'), summary], executor: [write('lint'), done] });
    const result = await schedule(w, '0 8 * * 1');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const [tracking] = trackingIssues(w, 'lint');
    const [pull] = w.gh.pulls();
    expect(pull?.body).toContain(`Closes #${tracking?.number}`);
    expect(pull?.body).toContain('## History');
    expect(result.summary).toMatch(/\| `lint` \| ran \| done \|.*\[PR\]\(/);
  });

  it('skips a task whose earlier pull request is still open, and says so in the job summary', async () => {
    const w = await setup({ planner: [planFor('lint'), summary], executor: [write('lint'), done] });
    await schedule(w, '0 8 * * 1');
    expect(w.gh.pulls()).toHaveLength(1);
    const again = await schedule(w, '0 8 * * 1');
    expect(again.code).toBe(0);
    expect(w.gh.pulls()).toHaveLength(1);
    expect(again.summary).toMatch(/\| `lint` \| skipped \| pull request #\d+ from an earlier run is still open/);
    expect(w.model.remaining()).toEqual({ planner: 0, executor: 0 });
  });
});

describe('plan records on a tracking issue', () => {
  it('believes only a signed one: a forged "executing" record another workflow posted as the bot keeps no task skipped', async () => {
    const expiring = config.replace('tasks:', 'plan-max-age-days: 0.02\ntasks:');
    const w = await setup({ planner: [planFor('deps'), planFor('deps')], executor: [] }, expiring);
    await schedule(w, '0 6 * * 1');
    const [tracking] = trackingIssues(w, 'deps');
    const number = tracking?.number ?? 0;
    const decoded = decodeRecord(botComments(w, number).find((b) => b.includes('<!-- plangate:record v1')) ?? '');
    if (!decoded.ok) throw new Error(decoded.reason);
    // A workflow that echoes text posts as github-actions[bot]: a record that says the plan is running.
    const { sig: _sig, ...unsigned } = decoded.record;
    const forged: PlanRecord = { ...unsigned, status: 'executing', approvedBy: 'mona' };
    w.gh.addComment(number, { login: bot, type: 'Bot', body: renderPlanComment(forged, encodeRecord(forged)) });

    // An hour on, the real plan is past plan-max-age-days (0.02 days): the task is planned afresh.
    w.freshCheckout();
    const later = await w.runAction(
      { name: 'schedule', payload: schedulePayload({ owner, repo, cron: '0 6 * * 1' }) },
      {},
      { NODE_OPTIONS: `--require ${clockAhead}` },
    );
    expect(later.code, later.stdout + later.stderr).toBe(0);
    expect(later.summary).toMatch(/\| `deps` \| ran \| planned \|/);
    expect(later.stdout).toMatch(/^::warning::Ignored a plan record on issue #\d+ .*not signed/m);
    expect(botComments(w, number).filter((b) => b.includes('### 📋 Plan'))).toHaveLength(3);
    expect(w.model.remaining()).toEqual({ planner: 0, executor: 0 });
  });
});

describe('a scheduled job cancelled while it runs its tasks', () => {
  it('starts no further task: no issue opened, no model asked, and the job summary says why', async () => {
    const both = [
      'tasks:',
      '  - name: docs',
      '    objective: Refresh the README.',
      "    cron: '0 9 * * 1'",
      '  - name: deps',
      '    objective: Update the development dependencies.',
      "    cron: '0 9 * * 1'",
      '',
    ].join('\n');
    // The first task's plan comes back in the seconds the stopped step has left (model-cues.ts).
    const docsAfterTheStop = answerOnCue(planFor('docs'));
    const w = await setup({ planner: [docsAfterTheStop.reply, planFor('deps')], executor: [] }, both);
    w.freshCheckout();
    const cancelled = w.startAction({ name: 'schedule', payload: schedulePayload({ owner, repo, cron: '0 9 * * 1' }) });
    await docsAfterTheStop.reached;
    // The task's kickoff comment is posted: the next comment is the stop's "planning stopped" reply.
    const stopReplyStored = docsAfterTheStop.releaseWhenStored(w, 'POST', /\/issues\/\d+\/comments$/);
    cancelled.kill('SIGINT');
    const stopped = await cancelled.done;
    expect(stopped.code).not.toBe(0);
    expect((await stopReplyStored).fault).toBe('hang');
    expect(trackingIssues(w, 'docs')).toHaveLength(1);
    expect(trackingIssues(w, 'deps')).toEqual([]);
    expect(w.model.remaining()).toEqual({ planner: 1, executor: 0 });
    expect(stopped.summary).toMatch(/\| `deps` \| skipped \| not started: the job was stopped by SIGINT \|/);
  });
});

describe('workflow_dispatch', () => {
  it('runs one named task now, whatever its cron', async () => {
    const w = await setup({ planner: [planFor('docs')], executor: [] });
    const result = await dispatch(w, { task: 'docs' });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.outputs.outcome).toBe('done');
    expect(trackingIssues(w, 'docs')).toHaveLength(1);
    expect(result.summary).toContain('dispatch by @mona');
  });

  it('opens an issue for an ad-hoc objective and plans there', async () => {
    const w = await setup({ planner: [planFor('adhoc')], executor: [] });
    const result = await dispatch(w, { objective: 'Add a CONTRIBUTING guide.' });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const issue = w.gh.issue(1);
    expect(issue?.title).toBe('plangate: Add a CONTRIBUTING guide.');
    expect(botComments(w, 1).some((b) => b.includes('### 📋 Plan'))).toBe(true);
  });

  it('checks the dispatching actor’s permission with the API', async () => {
    const w = await setup({ planner: [], executor: [] });
    const result = await dispatch(w, { task: 'docs' }, 'visitor');
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('@visitor has read permission');
    expect(w.model.requests).toHaveLength(0);
  });
});

describe('config errors', () => {
  it('fails the step naming the file and the mistyped key', async () => {
    const w = await setup({ planner: [], executor: [] }, 'tasks:\n  - name: deps\n    objectve: Update things.\n');
    const result = await schedule(w, '0 6 * * 1');
    expect(result.code).not.toBe(0);
    expect(result.outputs.outcome).toBe('failed');
    const message = 'Unknown key `objectve` in `tasks[0]` of .github/plangate.yml; did you mean `objective`?';
    expect(result.stdout).toContain(`::error::On main (`);
    expect(result.stdout).toContain(message);
    // A scheduled run has no thread to answer on: the job summary says it.
    expect(result.summary).toContain('### plangate could not run');
    expect(result.summary).toContain(message);
  });

  it('fails the step naming the key with a bad value', async () => {
    const w = await setup(
      { planner: [], executor: [] },
      'tasks:\n  - name: deps\n    objective: Update things.\n    policy: yolo\n',
    );
    const result = await schedule(w, '0 6 * * 1');
    expect(result.code).not.toBe(0);
    expect(result.stdout).toContain(
      '`tasks[0].policy` in .github/plangate.yml must be one of plan-for-approval, plan-first, plan-only, executor-only, not `yolo`.',
    );
    expect(result.summary).toContain('`tasks[0].policy` in .github/plangate.yml must be one of');
  });
});
