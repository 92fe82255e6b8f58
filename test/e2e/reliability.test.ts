import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toolCall, type RecordedRequest, type Reply } from '../fakes/scripted-model.js';
import { closeOpenWorlds, git, type ActionRun, type World } from './harness.js';
import { answerOnCue, storedUnanswered } from './model-cues.js';
import { commentEvent as event, botComments } from './thread-helpers.js';
import { firstNote, planComments, run, setup, stagePlan, summary } from './notes-scenario.js';

/**
 * Fault injection against the bundled action: models and GitHub failing, jobs killed mid-run,
 * concurrent approvals, foreign pushes, budgets, huge plans and threads (the load of parallel runs is
 * in load.test.ts). Each scenario asserts the end state: nothing lost, nothing done twice.
 */

afterEach(closeOpenWorlds);

const progressComments = (w: World, issue: number) =>
  botComments(w, issue).filter((b) => b.includes('<!-- plangate:progress'));
/** The draft pull request a stopped run opened before its first cycle: still a draft, never filled in. */
function onlyTheDraft(w: World): void {
  const pulls = w.gh.pulls();
  expect(pulls).toHaveLength(1);
  expect(pulls[0]?.draft).toBe(true);
  expect(pulls[0]?.body).not.toContain('## History');
}
const unprocessable = (w: World) =>
  w.gh.requests.filter((r) => r.status === 422 && !String(r.path).includes('/git/refs'));

describe('retries', () => {
  it('plans through a model that fails twice before it answers', async () => {
    const overloaded: Reply = { error: { status: 503, message: 'overloaded', headers: { 'retry-after': '0' } } };
    const { w, issue } = await setup({ planner: [overloaded, overloaded, stagePlan], executor: [] });
    const result = await run(w, issue, '/plan write notes');
    expect(result.outputs.outcome, result.stdout).toBe('planned');
    expect(w.model.requests.filter((r) => r.model === 'planner')).toHaveLength(3);
    expect(planComments(w, issue)).toHaveLength(1);
  });

  it('posts exactly one plan comment through a 502, a secondary rate limit and a reset after the comment was stored', async () => {
    const { w, issue } = await setup({ planner: [stagePlan], executor: [] });
    const comments = /\/issues\/\d+\/comments$/;
    w.gh.failNext('POST', comments, 502);
    w.gh.failNext('POST', comments, 403, 1, {
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
      headers: { 'retry-after': '0' },
    });
    w.gh.failAfter('POST', comments, 'reset');
    const result = await run(w, issue, '/plan write notes');
    expect(result.outputs.outcome, result.stdout + result.stderr).toBe('planned');
    expect(planComments(w, issue)).toHaveLength(1);
  });
});

/**
 * The stopped job is re-run (same event, fresh checkout) and finishes the two-note plan from its
 * checkpoint: nothing done twice, nothing lost, one progress comment, one pull request.
 */
async function rerunFinishesOnce(
  w: World,
  issue: number,
  approve: ReturnType<typeof event>,
  branch: string,
): Promise<void> {
  w.freshCheckout();
  const rerun = await w.runAction(approve);
  expect(rerun.outputs.outcome, rerun.stdout + rerun.stderr).toBe('done');
  // The start commit its draft pull request needed, then the two cycles.
  expect(git(w.origin, 'rev-list', '--count', `refs/heads/main..${branch}`)).toBe('3');
  expect(git(w.origin, 'show', `${branch}:notes/one.md`)).toBe('one');
  expect(git(w.origin, 'show', `${branch}:notes/two.md`)).toBe('two');
  expect(w.gh.pulls()).toHaveLength(1);
  expect(w.gh.pulls()[0]?.draft).toBe(false);
  expect(progressComments(w, issue)).toHaveLength(1);
}

/** A model reply that never comes, and a promise that settles once the request for it arrived. */
function requestLeftOut(): { reply: Reply; reached: Promise<void> } {
  let arrived: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const reply: Reply = () => {
    arrived();
    return new Promise<Reply>(() => undefined);
  };
  return { reply, reached };
}

describe('resume', () => {
  it('continues on the same branch after the job is killed mid-execution: no commit lost, one PR', async () => {
    let killed = false;
    const approving: { run?: ReturnType<World['startAction']> } = {};
    const killMidRun: Reply = () => {
      // The first cycle is committed, pushed and checkpointed; the job dies while the planner revises.
      killed = true;
      approving.run?.kill('SIGKILL');
      return new Promise<Reply>(() => undefined);
    };
    const { w, issue } = await setup({
      planner: [stagePlan, killMidRun, toolCall('update_context', { directive: 'Write notes/two.md.' }), summary],
      executor: [
        ...firstNote('replan'),
        toolCall('write_file', { path: 'notes/two.md', content: 'two\n' }),
        toolCall('update_context', { result: 'Wrote notes/two.md.', outcome: 'done' }),
      ],
    });
    const planned = await run(w, issue, '/plan write notes');
    w.freshCheckout();
    const approve = event(w, issue, 'mona', '/approve');
    approving.run = w.startAction(approve);
    const first = await approving.run.done;
    expect(killed).toBe(true);
    expect(first.code).not.toBe(0);
    const branch = `refs/heads/plangate/${issue}-${planned.outputs['plan-id']}`;
    expect(git(w.origin, 'show', `${branch}:notes/one.md`)).toBe('one');

    await rerunFinishesOnce(w, issue, approve, branch);
    expect(w.gh.pulls()[0]?.body).toContain('#### Cycle 2: done');
    // A finished plan answers with its pull request instead of running again.
    const again = await run(w, issue, '/approve');
    expect(again.outputs.outcome).toBe('refused');
    expect(botComments(w, issue).at(-1)).toContain(w.gh.pulls()[0]?.html_url ?? 'missing');
  });

  it('says on the thread that a cancelled job stopped, releases its lock, and a re-run finishes the plan once', async () => {
    // Cycle 2's model request is still out when the runner cancels the job.
    const { reply: hangInCycle2, reached: inCycle2 } = requestLeftOut();
    const writeTwo = toolCall('update_context', { directive: 'Write notes/two.md.' });
    const { w, issue } = await setup({
      planner: [stagePlan, writeTwo, writeTwo, summary],
      executor: [
        ...firstNote('replan'),
        hangInCycle2,
        toolCall('write_file', { path: 'notes/two.md', content: 'two\n' }),
        toolCall('update_context', { result: 'Wrote notes/two.md.', outcome: 'done' }),
      ],
    });
    const planned = await run(w, issue, '/plan write notes');
    const branch = `refs/heads/plangate/${issue}-${planned.outputs['plan-id']}`;
    const lock = () => git(w.origin, 'for-each-ref', '--format=%(refname)', 'refs/plangate/locks');
    w.freshCheckout();
    const approve = event(w, issue, 'mona', '/approve');
    const cancelled = w.startAction(approve);
    await inCycle2;
    expect(lock(), 'the job holds the lock').not.toBe('');
    cancelled.kill('SIGINT');
    const stopped = await cancelled.done;
    expect(stopped.code).not.toBe(0);
    expect(stopped.stdout).toMatch(/^::error::plangate was stopped by SIGINT/m);

    // The thread says so, at cycle 1's end, where a re-run resumes; the lock is free.
    const [progress = ''] = progressComments(w, issue);
    expect(progress).toMatch(/^### ⚠️ Plan `[^`]+` interrupted/);
    expect(progress).toContain('the job was stopped by SIGINT (cancelled, or out of time) after 1 finished cycle\n');
    expect(progress).toContain(
      `comment \`/approve ${planned.outputs['plan-id']}\`, to resume from the last finished cycle`,
    );
    expect(lock(), 'the lock outlived the step').toBe('');
    expect(git(w.origin, 'rev-list', '--count', `refs/heads/main..${branch}`)).toBe('2');
    onlyTheDraft(w);

    await rerunFinishesOnce(w, issue, approve, branch);
    expect(progressComments(w, issue)[0]).toMatch(/^### ✅ Plan `[^`]+` finished/);
    expect(w.model.remaining()).toEqual({ planner: 0, executor: 0 });
  });

  it('says on the thread that a job cancelled while it plans stopped, and a re-run posts the plan once', async () => {
    // The planner's request is still out when the runner cancels the job.
    const { reply: hang, reached: planning } = requestLeftOut();
    const { w, issue } = await setup({ planner: [hang, stagePlan], executor: [] });
    const plan = event(w, issue, 'mona', '/plan write notes');
    const cancelled = w.startAction(plan);
    await planning;
    cancelled.kill('SIGINT');
    const stopped = await cancelled.done;
    expect(stopped.code).not.toBe(0);
    expect(stopped.stdout).toMatch(/^::error::plangate was stopped by SIGINT/m);
    const said = botComments(w, issue);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^@mona planning stopped: the job was stopped by SIGINT \(cancelled, or out of time\) while the planner worked\.\n\nNo plan was posted, so there is nothing to approve\. Re-run the job to plan again\.\n/,
    );

    w.freshCheckout();
    const rerun = await w.runAction(plan);
    expect(rerun.outputs.outcome, rerun.stdout + rerun.stderr).toBe('planned');
    expect(planComments(w, issue)).toHaveLength(1);
    expect(botComments(w, issue)).toHaveLength(2);
    expect(w.model.remaining()).toEqual({ planner: 0, executor: 0 });
  });

  it('posts no plan after its "planning stopped" reply when the planner answers in the seconds the step has left', async () => {
    // GitHub stores the stop's reply but never answers it, so the step runs on to the stop's network
    // bound; the planner's plan comes back as soon as that reply is stored.
    const comments = /\/issues\/\d+\/comments$/;
    const planAfterTheStop = answerOnCue(stagePlan);
    const { w, issue } = await setup({ planner: [planAfterTheStop.reply], executor: [] });
    const stopReplyStored = planAfterTheStop.releaseWhenStored(w, 'POST', comments);
    const cancelled = w.startAction(event(w, issue, 'mona', '/plan write notes'));
    await planAfterTheStop.reached;
    cancelled.kill('SIGINT');
    const stopped = await cancelled.done;
    expect(stopped.code).not.toBe(0);
    expect(stopped.stdout).toMatch(/^::error::plangate was stopped by SIGINT/m);
    expect((await stopReplyStored).fault).toBe('hang');
    const said = botComments(w, issue);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^@mona planning stopped: the job was stopped by SIGINT/);
    expect(planComments(w, issue)).toHaveLength(0);
    // Not for want of a plan: it was answered, and the step had it before it ended.
    expect(w.model.remaining()).toEqual({ planner: 0, executor: 0 });
    expect(stopped.stdout).toContain('The job was stopped by SIGINT while it planned; nothing more is posted.');
  });

  it('acts no more once the job is cancelled: the executor’s late answer is not carried out, nothing is pushed or opened', async () => {
    // GitHub stores the stop's progress write but never answers it, so the step runs on to the stop's
    // network bound; cycle 2's answer comes back as soon as that write is stored.
    const progressWrite = /\/issues\/comments\/\d+$/;
    const twoAfterTheStop = answerOnCue(toolCall('write_file', { path: 'notes/two.md', content: 'two\n' }));
    const writeTwo = toolCall('update_context', { directive: 'Write notes/two.md.' });
    const { w, issue } = await setup({
      planner: [stagePlan, writeTwo, writeTwo, summary],
      executor: [
        ...firstNote('replan'),
        twoAfterTheStop.reply,
        // For the re-run, which does cycle 2 again from the checkpoint.
        toolCall('write_file', { path: 'notes/two.md', content: 'two\n' }),
        toolCall('update_context', { result: 'Wrote notes/two.md.', outcome: 'done' }),
      ],
    });
    const planned = await run(w, issue, '/plan write notes');
    const branch = `refs/heads/plangate/${issue}-${planned.outputs['plan-id']}`;
    w.freshCheckout();
    const approve = event(w, issue, 'mona', '/approve');
    const cancelled = w.startAction(approve);
    await twoAfterTheStop.reached;
    // Cycle 1's saves are done: the next write of a comment is the stop's.
    const stopWriteStored = twoAfterTheStop.releaseWhenStored(w, 'PATCH', progressWrite);
    const requestsBefore = w.model.requests.length;
    cancelled.kill('SIGINT');
    const stopped = await cancelled.done;
    expect(stopped.code).not.toBe(0);
    expect(stopped.stdout).toMatch(/^::error::plangate was stopped by SIGINT/m);
    expect((await stopWriteStored).fault).toBe('hang');

    // Only cycle 1 landed (after the start commit); the draft was not filled in; the progress comment
    // resumes from cycle 1; no failure reply.
    expect(git(w.origin, 'rev-list', '--count', `refs/heads/main..${branch}`)).toBe('2');
    expect(git(w.origin, 'ls-tree', '--name-only', '-r', branch, 'notes')).toBe('notes/one.md');
    onlyTheDraft(w);
    const [progress = ''] = progressComments(w, issue);
    expect(progress).toContain('the job was stopped by SIGINT (cancelled, or out of time) after 1 finished cycle\n');
    expect(botComments(w, issue).filter((b) => b.startsWith('@mona'))).toEqual([]);
    // Not for want of an answer: it came back while the step ran on, and was not carried out.
    expect(w.model.requests).toHaveLength(requestsBefore);
    expect(w.model.remaining()).toEqual({ planner: 2, executor: 2 });
    expect(stopped.stdout).toContain('resumes from its last finished cycle.');

    await rerunFinishesOnce(w, issue, approve, branch);
    expect(w.model.remaining()).toEqual({ planner: 0, executor: 0 });
  });

  it('adds no failure reply when the signal ends the push under way, and a re-run finishes the plan once', async () => {
    const { w, issue } = await setup({
      planner: [stagePlan, summary],
      // Cycle 1 twice: the stopped job's, whose push the signal ends, and the re-run's.
      executor: [...firstNote('done'), ...firstNote('done')],
    });
    const planned = await run(w, issue, '/plan write notes');
    const branch = `refs/heads/plangate/${issue}-${planned.outputs['plan-id']}`;
    // Origin holds cycle 1's push (the first that updates the work branch, after the start commit
    // created it) until the test lets it go, then turns it down: the push the runner's signal kills
    // (it signals the step's whole process group). One push only.
    const pushing = path.join(w.dir, 'push-started');
    const release = path.join(w.dir, 'push-release');
    execFileSync('mkfifo', [pushing, release]);
    const hook = path.join(w.origin, 'hooks', 'pre-receive');
    writeFileSync(
      hook,
      `#!/bin/sh\ngrep ' refs/heads/plangate/' | grep -qv '^0\\{40\\} ' || exit 0\nrm -f "$0"\necho > '${pushing}'\nread go < '${release}'\necho 'killed by SIGINT' >&2\nexit 1\n`,
      { mode: 0o755 },
    );
    w.freshCheckout();
    const approve = event(w, issue, 'mona', '/approve');
    const command = w.gh.comments(issue).at(-1);
    const cancelled = w.startAction(approve);
    await readFile(pushing);
    // The stop's progress write is stored but never answered, so the step runs on to its network bound.
    const stopWriteStored = storedUnanswered(w, 'PATCH', /\/issues\/comments\/\d+$/);
    cancelled.kill('SIGINT');
    await stopWriteStored;
    await writeFile(release, 'go\n');
    const stopped = await cancelled.done;
    expect(stopped.code).not.toBe(0);
    expect(stopped.stdout).toMatch(/^::error::plangate was stopped by SIGINT/m);

    // Nothing landed (the branch holds the start commit alone), and the thread says the job stopped,
    // once: no reply of the push's failure, no 😕.
    expect(git(w.origin, 'log', '-1', '--format=%s', branch)).toBe(
      `plangate: start plan ${planned.outputs['plan-id']}`,
    );
    onlyTheDraft(w);
    const [progress = ''] = progressComments(w, issue);
    expect(progress).toContain('the job was stopped by SIGINT (cancelled, or out of time) after 0 finished cycles\n');
    expect(botComments(w, issue).filter((b) => b.startsWith('@mona'))).toEqual([]);
    expect(w.gh.reactions(command?.id ?? 0).map((r) => r.content)).not.toContain('confused');
    // Not for want of a failure: the step saw the push fail before it ended.
    expect(stopped.stdout).toContain('After the stop, the run ended on:');

    w.freshCheckout();
    const rerun = await w.runAction(approve);
    expect(rerun.outputs.outcome, rerun.stdout + rerun.stderr).toBe('done');
    expect(git(w.origin, 'show', `${branch}:notes/one.md`)).toBe('one');
    expect(w.gh.pulls()).toHaveLength(1);
    expect(w.model.remaining()).toEqual({ planner: 0, executor: 0 });
  });

  it('pushes nothing once the job is cancelled, not even the commit under way when the signal came', async () => {
    const { w, issue } = await setup({
      planner: [stagePlan, summary],
      // Cycle 1 twice: the stopped job's, whose commit the signal catches, and the re-run's.
      executor: [...firstNote('done'), ...firstNote('done')],
    });
    const planned = await run(w, issue, '/plan write notes');
    const branch = `refs/heads/plangate/${issue}-${planned.outputs['plan-id']}`;
    // The runner's git, as the action finds it on PATH, holds the first commit until the test lets it
    // go: the signal comes while plangate commits cycle 1. No clock.
    const programs = path.join(w.dir, 'programs');
    const hold = path.join(w.dir, 'hold-commit');
    const committing = path.join(w.dir, 'commit-started');
    const release = path.join(w.dir, 'commit-release');
    mkdirSync(programs);
    writeFileSync(hold, '');
    execFileSync('mkfifo', [committing, release]);
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(
      path.join(programs, 'git'),
      `#!/bin/sh\nfor a in "$@"; do\n  if [ "$a" = commit ] && [ -e '${hold}' ]; then\n    rm -f '${hold}'\n    echo > '${committing}'\n    read go < '${release}'\n    break\n  fi\ndone\nexec '${realGit}' "$@"\n`,
      { mode: 0o755 },
    );
    w.freshCheckout();
    const approve = event(w, issue, 'mona', '/approve');
    const cancelled = w.startAction(approve, {}, { PATH: `${programs}:${process.env.PATH ?? ''}` });
    await readFile(committing);
    // The stop's progress write is stored but never answered, so the step runs on to its network
    // bound: time enough for the commit to finish and, before, be pushed.
    const stopWriteStored = storedUnanswered(w, 'PATCH', /\/issues\/comments\/\d+$/);
    cancelled.kill('SIGINT');
    await stopWriteStored;
    await writeFile(release, 'go\n');
    const stopped = await cancelled.done;
    expect(stopped.code).not.toBe(0);
    expect(stopped.stdout).toMatch(/^::error::plangate was stopped by SIGINT/m);

    // Nothing went out after the signal: the branch holds the start commit alone, the draft is not
    // filled in, and the thread says where a re-run resumes.
    expect(git(w.origin, 'log', '-1', '--format=%s', branch)).toBe(
      `plangate: start plan ${planned.outputs['plan-id']}`,
    );
    onlyTheDraft(w);
    const [progress = ''] = progressComments(w, issue);
    expect(progress).toContain('the job was stopped by SIGINT (cancelled, or out of time) after 0 finished cycles\n');

    w.freshCheckout();
    const rerun = await w.runAction(approve);
    expect(rerun.outputs.outcome, rerun.stdout + rerun.stderr).toBe('done');
    expect(git(w.origin, 'rev-list', '--count', `refs/heads/main..${branch}`)).toBe('2');
    expect(git(w.origin, 'show', `${branch}:notes/one.md`)).toBe('one');
    expect(w.gh.pulls()).toHaveLength(1);
    expect(w.gh.pulls()[0]?.draft).toBe(false);
  });

  it('lets one of two simultaneous approvals execute and answers the other with the running job', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const waitForTheOther: Reply = async () => {
      await gate;
      return toolCall('write_file', { path: 'notes/one.md', content: 'one\n' });
    };
    const { w, issue } = await setup({
      planner: [stagePlan, summary],
      executor: [waitForTheOther, toolCall('update_context', { result: 'Wrote notes/one.md.', outcome: 'done' })],
    });
    await run(w, issue, '/plan write notes');
    w.freshCheckout();
    const a = w.startAction(event(w, issue, 'mona', '/approve'));
    const b = w.startAction(event(w, issue, 'mona', '/approve'));
    const firstDone = await Promise.race([a.done, b.done]);
    release();
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(firstDone.outputs.outcome).toBe('refused');
    expect([ra.outputs.outcome, rb.outputs.outcome].sort()).toEqual(['done', 'refused']);
    expect(botComments(w, issue).some((b) => /is executing in .*actions\/runs\//.test(b))).toBe(true);
    expect(w.gh.pulls()).toHaveLength(1);
  });
});

describe('actionable failures', () => {
  it('names the setting when Actions may not open pull requests before any cycle, and a re-run continues from the pushed start once', async () => {
    const { w, issue } = await setup({
      planner: [stagePlan, summary],
      executor: firstNote('done'),
    });
    const planned = await run(w, issue, '/plan write notes');
    w.gh.forbidActionsPullRequests();
    w.freshCheckout();
    const approve = event(w, issue, 'mona', '/approve');
    const refused = await w.runAction(approve);
    expect(refused.outputs.outcome).toBe('failed');
    expect(botComments(w, issue).at(-1)).toMatch(/Allow GitHub Actions to create and approve pull requests/);
    // The branch was pushed (its start commit) before the pull request was refused; no cycle ran.
    const branch = `refs/heads/plangate/${issue}-${planned.outputs['plan-id']}`;
    expect(git(w.origin, 'rev-list', '--count', `refs/heads/main..${branch}`)).toBe('1');
    expect(w.gh.pulls()).toHaveLength(0);
    expect(w.model.remaining()).toEqual({ planner: 1, executor: 2 });

    w.gh.forbidActionsPullRequests(false);
    w.freshCheckout();
    const rerun = await w.runAction(approve);
    expect(rerun.outputs.outcome, rerun.stdout).toBe('done');
    expect(w.gh.pulls()).toHaveLength(1);
    expect(w.gh.pulls()[0]?.draft).toBe(false);
    // The re-run adopted the start commit rather than pushing another, and did the cycle once.
    expect(w.model.remaining()).toEqual({ planner: 0, executor: 0 });
    expect(git(w.origin, 'rev-list', '--count', `refs/heads/main..${branch}`)).toBe('2');
  });
});

describe('foreign pushes', () => {
  it('keeps a human commit on the bot branch, stops and says so', async () => {
    let branch = '';
    // The world the reply pushes to, once it is set up.
    const pushed: { world?: World } = {};
    const humanPushes: Reply = (request: RecordedRequest) => {
      branch = /on `(plangate\/[^`]+)`/.exec(JSON.stringify(request.messages))?.[1] ?? branch;
      pushed.world?.pushToOrigin(branch, { 'notes/human.md': 'mine\n' }, 'A human fix');
      return toolCall('update_context', { directive: 'Write notes/two.md.' });
    };
    const { w, issue } = await setup({
      planner: [stagePlan, humanPushes, summary],
      executor: [
        ...firstNote('replan'),
        toolCall('write_file', { path: 'notes/two.md', content: 'two\n' }),
        toolCall('update_context', { result: 'Wrote notes/two.md.', outcome: 'done' }),
      ],
    });
    pushed.world = w;
    const planned = await run(w, issue, '/plan write notes');
    branch = `plangate/${issue}-${planned.outputs['plan-id']}`;
    const result = await run(w, issue, '/approve');
    expect(result.outputs.outcome, result.stdout).toBe('aborted');
    expect(git(w.origin, 'log', '-1', '--format=%s', `refs/heads/${branch}`)).toBe('A human fix');
    const progress = progressComments(w, issue)[0] ?? '';
    expect(progress).toContain('pushed to');
    expect(progress).toContain('kept those commits');
    const rescue = git(w.origin, 'for-each-ref', '--format=%(refname:short)', `refs/heads/${branch}-rescue-*`);
    expect(rescue).not.toBe('');
    expect(git(w.origin, 'show', `${rescue}:notes/two.md`)).toBe('two');
  });
});

describe('budgets', () => {
  const budgetScript = (first: Reply): Record<string, Reply[]> => ({
    planner: [stagePlan, toolCall('update_context', { summary: 'Stopped by a budget; notes/one.md is written.' })],
    executor: [
      first,
      toolCall('update_context', { result: 'Wrote notes/one.md.', outcome: 'replan' }),
      toolCall('write_file', { path: 'notes/two.md', content: 'two\n' }),
      toolCall('update_context', { result: 'Wrote notes/two.md.', outcome: 'done' }),
    ],
  });
  const writeOne = toolCall('write_file', { path: 'notes/one.md', content: 'one\n' });

  async function expectDraftWithReason(w: World, result: ActionRun, reason: RegExp) {
    expect(result.outputs.outcome, result.stdout).toBe('aborted');
    const [pull] = w.gh.pulls();
    expect(pull?.draft).toBe(true);
    expect(pull?.body).toMatch(reason);
    expect(pull?.body).toContain('## History');
    expect(git(w.origin, 'show', `refs/heads/${result.outputs.branch}:notes/one.md`)).toBe('one');
  }

  it('max-iterations ends with a draft PR, the history and the reason', async () => {
    const { w, issue } = await setup(budgetScript(writeOne));
    await run(w, issue, '/plan write notes', { 'max-iterations': '1' });
    // The plan's 2 steps exceed max-iterations, a blocking plan check; this test is about the run-time bound.
    const result = await run(w, issue, '/approve', { 'max-iterations': '1', 'allow-blocked-plans': 'true' });
    await expectDraftWithReason(w, result, /max-iterations \(1\)/);
  });

  it('timeout-minutes ends with a draft PR, the history and the reason', async () => {
    // The action is its own process on the wall clock, so the budget is real time, and the run's start
    // (up to the first executor request) must stay inside it. The first write is answered one budget
    // after it is asked for: past the budget however late the run started, and no later than that.
    const timeoutMinutes = 0.05;
    const budgetMs = timeoutMinutes * 60_000;
    const slowWrite: Reply = () => new Promise<Reply>((resolve) => setTimeout(() => resolve(writeOne), budgetMs + 50));
    const { w, issue } = await setup(budgetScript(slowWrite));
    await run(w, issue, '/plan write notes');
    const result = await run(w, issue, '/approve', { 'timeout-minutes': String(timeoutMinutes) });
    await expectDraftWithReason(w, result, /timeout-minutes/);
  });

  it('max-cost-usd ends with a draft PR, the history and the reason', async () => {
    const { w, issue } = await setup(budgetScript(writeOne));
    w.pushToOrigin(
      'main',
      {
        '.github/plangate.yml':
          'prices:\n  planner: { input: 0, output: 0 }\n  executor: { input: 1000, output: 1000 }\n',
      },
      'Prices',
    );
    await run(w, issue, '/plan write notes');
    const result = await run(w, issue, '/approve', { 'max-cost-usd': '0.5' });
    await expectDraftWithReason(w, result, /max-cost-usd/);
  });
});

describe('size', () => {
  it('handles a 400-step plan on a 500-comment thread without a 422 and without silent cuts', async () => {
    const steps = Array.from({ length: 400 }, (_, i) => ({
      title: `Step ${i + 1}: adjust module ${i + 1}`,
      detail: 'x'.repeat(120),
    }));
    const { w, issue } = await setup({
      planner: [toolCall('update_context', { plan: { steps }, directive: 'Write notes/one.md.' }), summary],
      executor: [
        toolCall('write_file', { path: 'notes/one.md', content: 'one\n' }),
        toolCall('update_context', { result: 'ok', outcome: 'done' }),
      ],
    });
    w.gh.setPermission('colleague', 'write');
    for (let i = 0; i < 500; i++)
      w.gh.addComment(issue, { login: 'colleague', body: `Comment ${i + 1}: ${'context '.repeat(20)}` });
    const planned = await run(w, issue, '/plan write notes');
    expect(planned.outputs.outcome, planned.stdout).toBe('planned');
    const [planComment] = planComments(w, issue);
    expect(planComment?.length).toBeLessThanOrEqual(65_536);
    expect(planComment).toMatch(/characters were cut here|steps? (are|were) shown/);
    const prompt = String(w.model.requests.find((r) => r.model === 'planner')?.messages.at(-1)?.content);
    expect(prompt).toMatch(/did not fit and (was|were) left out/);
    // 400 steps exceed max-iterations (a blocking plan check); this test is about sizes, so it approves anyway.
    expect(planComment).toContain('Checks failed');
    const done = await run(w, issue, '/approve', { 'allow-blocked-plans': 'true' });
    expect(done.outputs.outcome, done.stdout).toBe('done');
    expect((w.gh.pulls()[0]?.body ?? '').length).toBeLessThanOrEqual(65_536);
    expect(unprocessable(w)).toEqual([]);
  });
});
