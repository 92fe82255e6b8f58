import { afterEach, describe, expect, it } from 'vitest';
import { toolCall, type Reply } from '../fakes/scripted-model.js';
import { closeOpenWorlds, git, type ActionRun, type World } from './harness.js';
import { commentEvent as event, botComments } from './thread-helpers.js';
import { firstNote, planComments, run, setup, stagePlan, summary } from './notes-scenario.js';

/**
 * The commands a maintainer would guess, against the bundled action: /status before and after
 * approval, /cancel of a waiting plan and of a running one, /help, another tool's command, a near
 * miss and an unknown option.
 */

afterEach(closeOpenWorlds);

const planComment = (w: World, issue: number) => planComments(w, issue).at(-1) ?? '';
const executorRequests = (w: World) => w.model.requests.filter((r) => r.model === 'executor').length;

/**
 * Plans, then approves with the executor of `script`, whose cancelling reply (the argument) has mona
 * /cancel the plan from another job while its cycle is still running, waits for that run, then ends
 * the cycle on notes/one.md with `outcome`. Both the /cancel and the /approve end aborted.
 */
async function approveWhileCancelling(
  outcome: 'done' | 'replan',
  script: (cancelling: Reply) => Record<string, Reply[]>,
): Promise<{ w: World; issue: number; planId: string }> {
  const scene: { cancel?: ActionRun; w?: World; issue?: number } = {};
  const cancelling: Reply = async () => {
    const { w, issue } = scene;
    if (!w || issue === undefined) throw new Error('the world is not set up');
    scene.cancel = await w.startAction(event(w, issue, 'mona', '/cancel'), {}, {}, { ownCheckout: true }).done;
    return toolCall('update_context', { result: 'Wrote notes/one.md.', outcome });
  };
  const { w, issue } = await setup(script(cancelling));
  Object.assign(scene, { w, issue });
  const planned = await run(w, issue, '/plan write notes');
  const approved = await run(w, issue, '/approve');
  expect(scene.cancel?.outputs.outcome, scene.cancel?.stdout).toBe('aborted');
  expect(approved.outputs.outcome, approved.stdout + approved.stderr).toBe('aborted');
  return { w, issue, planId: planned.outputs['plan-id'] ?? '' };
}

describe('/status', () => {
  it('says where the plan stands before and after approval, with its links', async () => {
    const { w, issue } = await setup({
      planner: [stagePlan, summary],
      executor: firstNote('done'),
    });
    const planned = await run(w, issue, '/plan write notes');
    const planId = planned.outputs['plan-id'] ?? '';

    // Reading status is harmless: `read` is enough.
    const before = await run(w, issue, '/status', {}, 'visitor');
    expect(before.outputs.outcome, before.stdout + before.stderr).toBe('answered');
    const waiting = botComments(w, issue).at(-1) ?? '';
    expect(waiting).toContain(`@visitor plan \`${planId}\` is **waiting for approval**.`);
    expect(waiting).toContain('cycles run: 0 of at most');
    expect(waiting).not.toMatch(/state:|`(plan|execute|replan)`/);
    expect(waiting).toContain(`\`/approve ${planId}\``);
    expect(waiting).toMatch(/\[plan comment\]\(http[^)]+#issuecomment-\d+\)/);
    expect(waiting).not.toContain('pull request [#');

    const approved = await run(w, issue, '/approve');
    expect(approved.outputs.outcome, approved.stdout + approved.stderr).toBe('done');
    const after = await run(w, issue, '/status');
    expect(after.outputs.outcome).toBe('answered');
    const finished = botComments(w, issue).at(-1) ?? '';
    expect(finished).toContain(`plan \`${planId}\` is **done**`);
    expect(finished).toContain('cycles run: 1 of at most');
    expect(finished).toContain('approved by @mona');
    expect(finished).toContain(`branch [\`plangate/${issue}-${planId}\`]`);
    expect(finished).toContain(`pull request [#${w.gh.pulls()[0]?.number}](`);
    expect(finished).toMatch(/\[job\]\(http[^)]+\/actions\/runs\/[^)]+\)/);
    expect(finished).toMatch(/cost so far: (\$[0-9.]+|unknown price)/);
  });

  it('says there is no plan on a thread without one', async () => {
    const { w, issue } = await setup({ planner: [], executor: [] });
    const result = await run(w, issue, '/status');
    expect(result.outputs.outcome).toBe('answered');
    expect(botComments(w, issue).at(-1)).toContain('there is no plan on this thread');
    expect(w.model.requests).toHaveLength(0);
  });
});

describe('/cancel', () => {
  it('withdraws a waiting plan, which /approve then refuses', async () => {
    const { w, issue } = await setup({ planner: [stagePlan], executor: [] });
    const planned = await run(w, issue, '/plan write notes');
    const planId = planned.outputs['plan-id'] ?? '';

    const refused = await run(w, issue, '/cancel', {}, 'visitor');
    expect(refused.outputs.outcome).toBe('refused');
    expect(planComment(w, issue)).not.toContain('**Status:** cancelled');

    const cancelled = await run(w, issue, '/cancel');
    expect(cancelled.outputs.outcome, cancelled.stdout + cancelled.stderr).toBe('aborted');
    expect(planComment(w, issue)).toContain('**Status:** cancelled');
    expect(botComments(w, issue).at(-1)).toContain(`@mona plan \`${planId}\` is cancelled`);
    // The signal is raised even though nothing runs: an /approve may be starting in another job.
    expect(git(w.origin, 'for-each-ref', '--format=%(refname)', 'refs/plangate')).toBe(
      `refs/plangate/cancel/${issue}/${planId}`,
    );

    const approve = await run(w, issue, `/approve ${planId}`);
    expect(approve.outputs.outcome).toBe('refused');
    // Refused by status, not as a tampered comment: the record stayed verifiable.
    expect(botComments(w, issue).at(-1)).toContain(`plan \`${planId}\` is cancelled.`);
    expect(executorRequests(w)).toBe(0);
    expect(git(w.origin, 'for-each-ref', '--format=%(refname)', 'refs/heads')).toBe('refs/heads/main');

    const again = await run(w, issue, '/cancel');
    expect(again.outputs.outcome).toBe('refused');
    expect(botComments(w, issue).at(-1)).toContain('is already cancelled');
  });

  it('refuses an approval that raced a /cancel of the waiting plan, and puts "cancelled" back', async () => {
    const { w, issue } = await setup({ planner: [stagePlan], executor: [] });
    const planned = await run(w, issue, '/plan write notes');
    const planId = planned.outputs['plan-id'] ?? '';
    // The /cancel read the plan as proposed and raised its signal; the /approve read it as proposed
    // too, before the "cancelled" mark landed, so only the signal tells it.
    const signal = `refs/plangate/cancel/${issue}/${planId}`;
    git(w.origin, 'update-ref', signal, git(w.origin, 'rev-parse', 'refs/heads/main'));
    expect(planComment(w, issue)).toContain('**Status:** proposed');

    const approve = await run(w, issue, `/approve ${planId}`);
    expect(approve.outputs.outcome, approve.stdout + approve.stderr).toBe('refused');
    expect(botComments(w, issue).at(-1)).toContain(
      `plan \`${planId}\` was cancelled while this approval was starting.`,
    );
    expect(planComment(w, issue)).toContain('**Status:** cancelled');
    expect(executorRequests(w)).toBe(0);
    expect(git(w.origin, 'for-each-ref', '--format=%(refname)', 'refs/heads')).toBe('refs/heads/main');
    expect(git(w.origin, 'for-each-ref', '--format=%(refname)', 'refs/plangate')).toBe('');
  });

  it('stops a running execution before its next cycle, keeps its work and opens a draft pull request saying so', async () => {
    // While cycle 1 is still running, a maintainer cancels from another job.
    const { w, issue, planId } = await approveWhileCancelling('replan', (cancelMidCycle) => ({
      planner: [stagePlan, summary, toolCall('update_context', { directive: 'Write notes/two.md.' })],
      executor: [
        toolCall('write_file', { path: 'notes/one.md', content: 'one\n' }),
        cancelMidCycle,
        toolCall('write_file', { path: 'notes/two.md', content: 'two\n' }),
        toolCall('update_context', { result: 'Wrote notes/two.md.', outcome: 'done' }),
      ],
    }));
    // The run stopped before cycle 2: the executor was never summoned again.
    expect(executorRequests(w)).toBe(2);
    const branch = `refs/heads/plangate/${issue}-${planId}`;
    expect(git(w.origin, 'show', `${branch}:notes/one.md`)).toBe('one');
    expect(() => git(w.origin, 'show', `${branch}:notes/two.md`)).toThrow();

    const pulls = w.gh.pulls();
    expect(pulls).toHaveLength(1);
    expect(pulls[0]?.draft).toBe(true);
    expect(pulls[0]?.body).toContain('cancelled by @mona');
    expect(planComment(w, issue)).toContain('**Status:** cancelled');
    // /cancel reached the run through its signal ref on origin, which the run read over git and took down.
    const signal = `refs/plangate/cancel/${issue}/${planId}`;
    const raised = w.gh.requests.filter((r) => r.method === 'POST' && String(r.path).endsWith('/git/refs'));
    expect(raised.map((r) => [r.status, (r.body as { ref?: string }).ref])).toEqual([[201, signal]]);
    expect(git(w.origin, 'for-each-ref', '--format=%(refname)', 'refs/plangate')).toBe('');
    // Watching for it cost the run no API call: nothing read the plan comment between cycles.
    expect(w.gh.requests.filter((r) => r.method === 'GET' && /\/issues\/comments\/\d+$/.test(String(r.path)))).toEqual(
      [],
    );

    // The plan stays withdrawn: a later /approve does not resume it.
    const resumed = await run(w, issue, '/approve');
    expect(resumed.outputs.outcome).toBe('refused');
    expect(executorRequests(w)).toBe(2);
  });

  it('keeps a cancel that lands during the last cycle: the plan stays cancelled and the pull request is a draft', async () => {
    // The last cycle is already running when the maintainer cancels: there is no next cycle to stop.
    const { w, issue, planId } = await approveWhileCancelling('done', (cancelInLastCycle) => ({
      planner: [stagePlan, summary],
      executor: [toolCall('write_file', { path: 'notes/one.md', content: 'one\n' }), cancelInLastCycle],
    }));
    const pulls = w.gh.pulls();
    expect(pulls).toHaveLength(1);
    expect(pulls[0]?.draft).toBe(true);
    expect(pulls[0]?.body).toContain('cancelled by @mona');
    expect(planComment(w, issue)).toContain('**Status:** cancelled');
    // The signal was acted on, so it is taken down.
    expect(git(w.origin, 'for-each-ref', '--format=%(refname)', `refs/plangate/cancel/${issue}/${planId}`)).toBe('');
  });
});

describe('/help and unknown commands', () => {
  it('answers /help with the commands and this repository’s settings', async () => {
    const { w, issue } = await setup({ planner: [], executor: [] });
    const result = await run(
      w,
      issue,
      '/help',
      { 'allowed-commands': 'npm test\nnpm run lint', 'approve-permission': 'maintain' },
      'visitor',
    );
    expect(result.outputs.outcome, result.stdout + result.stderr).toBe('answered');
    const reply = botComments(w, issue).at(-1) ?? '';
    expect(reply).toContain('@visitor plangate’s commands on this repository:');
    for (const command of ['/plan', '/approve', '/revise', '/answer', '/status', '/cancel', '/help'])
      expect(reply).toContain(`\`${command}`);
    expect(reply).toContain('policy: `plan-for-approval`');
    expect(reply).toContain('approve permission: `maintain`');
    expect(reply).toContain('allowed commands (2): `npm test`, `npm run lint`');
    expect(reply).toContain('protected paths: `.github/workflows/**`');
    expect(w.model.requests).toHaveLength(0);
  });

  it('leaves another tool’s command alone, answers a near miss in one line, and still ignores ordinary comments', async () => {
    const { w, issue } = await setup({ planner: [], executor: [] });
    const other = await run(w, issue, '/merge please');
    expect(other.outputs.outcome, other.stdout + other.stderr).toBe('ignored');
    expect(other.stdout).toContain('Nothing to do: /merge is not a plangate command.');
    expect(botComments(w, issue)).toEqual([]);

    const typo = await run(w, issue, '/stauts');
    expect(typo.outputs.outcome, typo.stdout + typo.stderr).toBe('refused');
    const reply = botComments(w, issue).at(-1) ?? '';
    expect(reply).toContain('@mona `/stauts` is not a plangate command. Did you mean `/status`?');
    expect(reply.split('\n')[0]).toContain('`/help` lists the commands.');

    const replies = botComments(w, issue).length;
    const chatter = await run(w, issue, 'Thanks, looking forward to /status updates!');
    expect(chatter.outputs.outcome).toBe('ignored');
    expect(botComments(w, issue)).toHaveLength(replies);
  });

  it('answers a mistyped option as an unknown option with the valid ones, and carries nothing out', async () => {
    const { w, issue } = await setup({ planner: [stagePlan], executor: [] });
    const planned = await run(w, issue, '/plan write notes');
    const planId = planned.outputs['plan-id'] ?? '';
    const typo = await run(w, issue, `/approve --overbudget ${planId}`);
    expect(typo.outputs.outcome, typo.stdout + typo.stderr).toBe('refused');
    const reply = botComments(w, issue).at(-1) ?? '';
    expect(reply).toContain(
      '@mona `/approve` has no option `--overbudget`; did you mean `--over-budget`? Nothing was done.',
    );
    expect(reply).toContain('The options of `/approve`:\n- `--over-budget`:');
    expect(reply).not.toContain('there is no plan');
    expect(executorRequests(w)).toBe(0);
    const command = w.gh.comments(issue).find((c) => c.body === `/approve --overbudget ${planId}`);
    expect(w.gh.reactions(command?.id ?? 0).map((r) => r.content)).toContain('confused');
  });
});
