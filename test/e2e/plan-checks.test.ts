import { afterEach, describe, expect, it } from 'vitest';
import { toolCall, type Reply } from '../fakes/scripted-model.js';
import { closeOpenWorlds, createWorld, git, type ActionRun, type World } from './harness.js';
import { commentEvent as event, botComments } from './thread-helpers.js';
import { appendFarewell, farewellAppended } from '../fakes/farewell-change.js';

/**
 * Plan checks and cost estimates against the bundled action: what the plan comment shows before
 * approval, what /approve refuses, and the estimate beside the actual cost once the run is done.
 */

afterEach(closeOpenWorlds);

const directive = 'Append a farewell(name) function to src/greet.js.';
const summary = toolCall('update_context', { summary: 'Added farewell(name).' });
const executorDone: Reply[] = [appendFarewell, farewellAppended];
// Known prices for the scripted models, so the estimate is a number.
const prices = 'prices:\n  planner: { input: 1, output: 2 }\n  executor: { input: 2, cached-input: 0.5, output: 8 }\n';

const planComment = (w: World, issue: number) =>
  botComments(w, issue).find((b) => b.includes('<!-- plangate:record v1')) ?? '';
const branches = (w: World) => git(w.origin, 'for-each-ref', '--format=%(refname)', 'refs/heads').split('\n');

async function setup(script: Record<string, Reply[]>, config = prices) {
  const world = await createWorld(script);
  world.pushToOrigin('main', { '.github/plangate.yml': config }, 'plangate config');
  world.gh.setPermission('mona', 'maintain');
  world.gh.setPermission('wes', 'write');
  const issue = world.gh.addIssue({
    title: 'Say goodbye',
    body: 'We greet but never say goodbye.',
    login: 'mona',
  }).number;
  return { w: world, issue };
}

async function run(
  w: World,
  issue: number,
  login: string,
  body: string,
  inputs: Record<string, string> = {},
): Promise<ActionRun> {
  w.freshCheckout();
  const result = await w.runAction(event(w, issue, login, body), inputs);
  expect(result.code, result.stdout + result.stderr).toBe(0);
  return result;
}

describe('plan checks', () => {
  it('shows a protected-path finding in the plan comment, and /approve is refused with the finding and the fix; nothing is pushed', async () => {
    const plan = {
      steps: [
        { title: 'Add farewell', files: ['src/greet.js'] },
        { title: 'Run it in CI too', files: ['.github/workflows/ci.yml'] },
      ],
    };
    const { w, issue } = await setup({
      planner: [toolCall('update_context', { plan, directive })],
      executor: executorDone,
    });

    const planned = await run(w, issue, 'mona', '/plan Add farewell and run it in CI');
    expect(planned.outputs.outcome).toBe('planned');
    const comment = planComment(w, issue);
    expect(comment).toContain('Checks failed');
    expect(comment).toContain(
      'step 2: `.github/workflows/ci.yml` is protected by `protected-paths` (`.github/workflows/**`)',
    );
    expect(comment).toContain('To fix: adjust `protected-paths`');
    expect(comment).not.toContain('Checks passed');
    // A blocked plan is offered no plain approval: the fix above, and the one override.
    const id = planned.outputs['plan-id'] ?? '';
    expect(comment).toContain('**Status:** proposed, blocked by its checks');
    expect(comment).toContain(
      `the workflow must set \`allow-blocked-plans: true\`; then a maintainer can reply \`/approve ${id}\``,
    );
    expect(comment).not.toContain('To run this plan, a maintainer replies');
    expect(comment.indexOf('Checks failed')).toBeLessThan(comment.indexOf('**Status:**'));

    // /status says so in the same words, and offers no approval /approve would refuse.
    await run(w, issue, 'wes', '/status');
    const status = botComments(w, issue).at(-1) ?? '';
    expect(status).toContain(`plan \`${id}\` is **blocked by checks**.`);
    expect(status).toContain('A plain `/approve` would be refused: plan');
    expect(status).toContain('To fix: adjust `protected-paths`');
    expect(status).not.toContain(`\`/approve ${id}\``);

    const approved = await run(w, issue, 'mona', '/approve');
    expect(approved.outputs.outcome).toBe('refused');
    const reply = botComments(w, issue).at(-1) ?? '';
    expect(reply).toContain('`/approve` was not carried out');
    expect(reply).toContain('1 blocking finding');
    expect(reply).toContain('.github/workflows/ci.yml');
    expect(reply).toContain('`/revise <feedback>`');
    expect(branches(w)).toEqual(['refs/heads/main']);
    expect(w.gh.pulls()).toEqual([]);
    expect(w.model.requests.filter((r) => r.model === 'executor')).toEqual([]);
  });

  it('shows "Checks passed" and an estimate for a plan within the rules; the pull request shows estimate and actual', async () => {
    const plan = {
      steps: [
        { title: 'Add farewell', files: ['src/greet.js'], verify: 'node --check src/greet.js' },
        { title: 'Create a changelog', files: ['CHANGELOG.md'] },
      ],
    };
    const { w, issue } = await setup({
      planner: [
        toolCall('read_file', { path: 'src/greet.js' }),
        toolCall('update_context', { plan, directive }),
        summary,
      ],
      executor: executorDone,
    });
    const inputs = { 'allowed-commands': 'node --check *', 'max-estimated-cost-usd': '1000' };

    const planned = await run(w, issue, 'mona', '/plan Add farewell', inputs);
    expect(planned.outputs.outcome).toBe('planned');
    const comment = planComment(w, issue);
    expect(comment).toContain('✅ **Checks passed**');
    expect(comment).toContain('ℹ️ step 2: `CHANGELOG.md` is new');
    expect(comment).toMatch(
      /\*\*Execution cost\*\*: \$\d+\.\d+–\$\d+\.\d+ \(estimate\) for the executor `executor`, 2 steps/,
    );
    expect(planned.summary).toContain('Checks passed');

    const approved = await run(w, issue, 'wes', '/approve', inputs);
    expect(approved.outputs.outcome).toBe('done');
    const body = w.gh.pulls()[0]?.body ?? '';
    expect(body).toMatch(
      /\*\*Execution cost\*\* \(executor `executor`\): \$\d+\.\d+–\$\d+\.\d+ \(estimate\) · actual \$\d+\.\d+/,
    );
    expect(approved.summary).toMatch(
      /\*\*Execution cost\*\* \(executor `executor`\): .*\(estimate\) · actual \$\d+\.\d+/,
    );
    expect(w.model.remaining()).toEqual({ planner: 0, executor: 0 });
  });

  it('holds a plan over max-estimated-cost-usd: plain /approve refused, --over-budget refused for a writer and carried out for a maintainer', async () => {
    const plan = { steps: [{ title: 'Add farewell', files: ['src/greet.js'] }] };
    const expensive = 'prices:\n  planner: { input: 0, output: 0 }\n  executor: { input: 1000, output: 1000 }\n';
    const { w, issue } = await setup(
      { planner: [toolCall('update_context', { plan, directive }), summary], executor: executorDone },
      expensive,
    );
    const inputs = { 'max-estimated-cost-usd': '0.5' };

    const planned = await run(w, issue, 'mona', '/plan Add farewell', inputs);
    const id = planned.outputs['plan-id'] ?? '';
    expect(planComment(w, issue)).toContain('Checks passed');

    const plain = await run(w, issue, 'mona', '/approve', inputs);
    expect(plain.outputs.outcome).toBe('refused');
    expect(botComments(w, issue).at(-1)).toMatch(
      /exceeds `max-estimated-cost-usd` \(\$0\.5000\)[\s\S]*\/approve --over-budget/,
    );

    const writer = await run(w, issue, 'wes', `/approve --over-budget ${id}`, inputs);
    expect(writer.outputs.outcome).toBe('refused');
    expect(botComments(w, issue).at(-1)).toContain('needs maintain permission or higher; this approver has write');
    expect(branches(w)).toEqual(['refs/heads/main']);

    const maintainer = await run(w, issue, 'mona', `/approve --over-budget ${id}`, inputs);
    expect(maintainer.outputs.outcome).toBe('done');
    expect(w.gh.pulls()).toHaveLength(1);
    expect(w.gh.pulls()[0]?.body).toContain('(estimate) · actual');
  });
});
