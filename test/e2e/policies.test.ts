import { afterEach, describe, expect, it } from 'vitest';
import { toolCall } from '../fakes/scripted-model.js';
import { closeOpenWorlds, createWorld, git, type World } from './harness.js';
import { commentEvent as comment, botComments } from './thread-helpers.js';
import { appendFarewell } from '../fakes/farewell-change.js';

/**
 * Policies, planner failure, no-change answers, clarification, revision, the stall guard and cost
 * reporting, against the bundled action.
 */

afterEach(closeOpenWorlds);

const plan = { steps: [{ title: 'Add a farewell function', files: ['src/greet.js'] }] };
const directive = 'Append farewell(name) to src/greet.js.';
const reportDone = toolCall('update_context', { result: 'Added farewell.', outcome: 'done' });
const plannerError = { error: { status: 400, message: 'model overloaded in a way that is not retried' } };

const plannerRequests = (w: World) => w.model.requests.filter((r) => r.model === 'planner');
const lastUserText = (r: { messages: { role: string; content?: unknown }[] } | undefined) =>
  String([...(r?.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '');

async function setup(script: Parameters<typeof createWorld>[0]) {
  const world = await createWorld(script);
  world.gh.setPermission('mona', 'maintain');
  const issue = world.gh.addIssue({ title: 'Say goodbye', body: 'greet() has no counterpart.', login: 'mona' }).number;
  return { w: world, issue };
}

async function run(w: World, issue: number, body: string, inputs: Record<string, string> = {}, login = 'mona') {
  w.freshCheckout();
  const result = await w.runAction(comment(w, issue, login, body), inputs);
  expect(result.code, result.stdout + result.stderr).toBe(result.outputs.outcome === 'failed' ? 1 : 0);
  return result;
}

describe('policies', () => {
  it('plan-first plans, posts the plan and executes it in the same run', async () => {
    const { w, issue } = await setup({
      planner: [
        toolCall('update_context', { plan, directive }),
        toolCall('update_context', { summary: 'Added farewell.' }),
      ],
      executor: [appendFarewell, reportDone],
    });
    const result = await run(w, issue, '/plan add farewell', { policy: 'plan-first' });
    expect(result.outputs.outcome).toBe('done');
    expect(w.gh.pulls()).toHaveLength(1);
    const [planComment] = botComments(w, issue);
    expect(planComment).toContain('**Status:** done: pull request #');
    expect(git(w.origin, 'show', `refs/heads/${result.outputs.branch}:src/greet.js`)).toContain('Goodbye');
  });

  it('plan-only posts advice that cannot be approved', async () => {
    const { w, issue } = await setup({ planner: [toolCall('update_context', { plan, directive })], executor: [] });
    const planned = await run(w, issue, '/plan add farewell', { policy: 'plan-only' });
    expect(planned.outputs.outcome).toBe('planned');
    expect(botComments(w, issue)[0]).toContain('`plan-only` policy');
    expect(botComments(w, issue)[0]).not.toContain('/approve');
    const approved = await run(w, issue, '/approve', { policy: 'plan-only' });
    expect(approved.outputs.outcome).toBe('refused');
    expect(botComments(w, issue).at(-1)).toContain('`plan-only` policy and is not for execution');
    expect(w.model.requests.filter((r) => r.model === 'executor')).toHaveLength(0);
  });

  it('executor-only runs no planner and still records the history in the PR', async () => {
    const { w, issue } = await setup({ planner: [], executor: [appendFarewell, reportDone] });
    const result = await run(w, issue, '/plan add farewell(name) to src/greet.js', { policy: 'executor-only' });
    expect(result.outputs.outcome).toBe('done');
    expect(plannerRequests(w)).toHaveLength(0);
    const body = w.gh.pulls()[0]?.body ?? '';
    expect(body).toContain('Executor-only policy');
    expect(body).toContain('#### Cycle 1: done');
    expect(body).toContain('add farewell(name) to src/greet.js');
    expect(body).toContain('Added farewell.');
  });
});

describe('planner failure', () => {
  for (const policy of ['plan-for-approval', 'plan-only']) {
    it(`fails closed under ${policy}: an error comment and no approvable plan`, async () => {
      const { w, issue } = await setup({ planner: [plannerError], executor: [] });
      const result = await run(w, issue, '/plan add farewell', { policy });
      expect(result.outputs.outcome).toBe('failed');
      expect(botComments(w, issue).at(-1)).toContain('planning failed');
      expect(botComments(w, issue).some((b) => b.includes('plangate:record'))).toBe(false);
      const approve = await run(w, issue, '/approve', { policy });
      expect(approve.outputs.outcome).toBe('refused');
    });
  }

  it('degrades to executor-only under plan-first and says so in the progress comment and the PR', async () => {
    const { w, issue } = await setup({ planner: [plannerError], executor: [appendFarewell, reportDone] });
    const result = await run(w, issue, '/plan add farewell', { policy: 'plan-first' });
    expect(result.outputs.outcome).toBe('done');
    const progress = botComments(w, issue).find((b) => b.includes('plangate:progress')) ?? '';
    expect(progress).toContain('Planner failed; continuing with the executor only.');
    expect(w.gh.pulls()[0]?.body).toContain('Planner failed; continuing with the executor only.');
  });

  it('gives a planner its validation error back and lets it retry within its bounds', async () => {
    const { w, issue } = await setup({
      planner: [
        toolCall('update_context', { plan: { steps: [] }, directive }),
        toolCall('update_context', { plan, directive }),
      ],
      executor: [],
    });
    const result = await run(w, issue, '/plan add farewell');
    expect(result.outputs.outcome).toBe('planned');
    const retry = plannerRequests(w)[1];
    const toolAnswer = String(retry?.messages.at(-1)?.content);
    expect(toolAnswer).toMatch(/^Error: /);
    expect(toolAnswer).toContain('steps');
  });
});

describe('planning outcomes', () => {
  it('posts a no-change answer, records nothing to approve and opens no PR', async () => {
    const { w, issue } = await setup({
      planner: [
        toolCall('update_context', { summary: 'greet() already has a counterpart in src/bye.js; nothing to change.' }),
      ],
      executor: [],
    });
    const result = await run(w, issue, '/plan add farewell');
    expect(result.outputs.outcome).toBe('answered');
    expect(botComments(w, issue)[0]).toContain('Nothing to change');
    expect(botComments(w, issue)[0]).toContain('nothing to change.');
    const approve = await run(w, issue, '/approve');
    expect(approve.outputs.outcome).toBe('refused');
    expect(botComments(w, issue).at(-1)).toContain('found nothing to change');
    expect(w.gh.pulls()).toHaveLength(0);
  });

  it('asks a question, takes /answer and plans with the answer in context', async () => {
    const { w, issue } = await setup({
      planner: [
        toolCall('update_context', { question: 'Should farewell live in src/greet.js or in its own file?' }),
        (request) =>
          lastUserText(request).includes('Answer: its own file, src/farewell.js')
            ? toolCall('update_context', { plan, directive: 'Create src/farewell.js.' })
            : toolCall('update_context', { summary: 'the answer did not reach the planner' }),
      ],
      executor: [],
    });
    const asked = await run(w, issue, '/plan add farewell');
    expect(asked.outputs.outcome).toBe('asked');
    expect(botComments(w, issue)[0]).toContain('Should farewell live in src/greet.js or in its own file?');
    expect(botComments(w, issue)[0]).toContain('/answer');
    const approveEarly = await run(w, issue, '/approve');
    expect(approveEarly.outputs.outcome).toBe('refused');

    const answered = await run(w, issue, '/answer its own file, src/farewell.js');
    expect(answered.outputs.outcome).toBe('planned');
    const comments = botComments(w, issue);
    expect(comments[0]).toContain(`**Status:** superseded by plan \`${answered.outputs['plan-id']}\``);
    const planComment = comments.find((b) => b.includes('### 📋 Plan')) ?? '';
    expect(planComment).toContain('**Clarifications**');
    expect(planComment).toContain('its own file, src/farewell.js');
  });

  it('/revise posts a new plan from the feedback and supersedes the old one', async () => {
    const { w, issue } = await setup({
      planner: [
        toolCall('update_context', { plan, directive }),
        (request) =>
          lastUserText(request).includes('Feedback: also document it') &&
          lastUserText(request).includes('1. Add a farewell function')
            ? toolCall('update_context', {
                plan: { steps: [...plan.steps, { title: 'Document farewell' }] },
                directive,
              })
            : toolCall('update_context', { summary: 'the feedback did not reach the planner' }),
      ],
      executor: [],
    });
    const first = (await run(w, issue, '/plan add farewell')).outputs['plan-id'];
    const revised = await run(w, issue, '/revise also document it');
    expect(revised.outputs.outcome).toBe('planned');
    const second = revised.outputs['plan-id'];
    expect(second).not.toBe(first);
    const comments = botComments(w, issue);
    expect(comments[0]).toContain(`**Status:** superseded by plan \`${second}\``);
    expect(comments.at(-1)).toContain('Document farewell');
    expect(comments.at(-1)).toContain(`/approve ${second}`);
  });
});

describe('stall guard', () => {
  it('nudges an idle executor once, then aborts the stage with the reason', async () => {
    const read = toolCall('read_file', { path: 'README.md' });
    const { w, issue } = await setup({
      planner: [
        toolCall('update_context', { plan, directive }),
        toolCall('update_context', { summary: 'Stalled; nothing changed.' }),
      ],
      executor: [read, read, read, read],
    });
    await run(w, issue, '/plan add farewell', { 'stall-limit': '2' });
    const result = await run(w, issue, '/approve', { 'stall-limit': '2' });
    expect(result.outputs.outcome).toBe('aborted');
    const executorRequests = w.model.requests.filter((r) => r.model === 'executor');
    expect(executorRequests).toHaveLength(4);
    const nudges =
      executorRequests
        .at(-1)
        ?.messages.filter((m) => m.role === 'user' && String(m.content).includes('without writing')) ?? [];
    expect(nudges).toHaveLength(1);
    const progress = botComments(w, issue).find((b) => b.includes('plangate:progress')) ?? '';
    expect(progress).toContain('executor stalled');
    // Nothing to land: the draft opened before the first cycle is closed, saying why.
    const pulls = w.gh.pulls();
    expect(pulls).toHaveLength(1);
    expect(pulls[0]?.state).toBe('closed');
    expect(pulls[0]?.body).toContain('executor stalled');
  });
});

describe('usage and cost', () => {
  it('shows per-role usage with costs in the PR body and the outputs, with config-file prices', async () => {
    const { w, issue } = await setup({
      planner: [
        toolCall('update_context', { plan, directive }),
        toolCall('update_context', { summary: 'Added farewell.' }),
      ],
      executor: [appendFarewell, reportDone],
    });
    w.pushToOrigin(
      'main',
      {
        '.github/plangate.yml':
          'prices:\n  planner: { input: 2, cached-input: 0.5, output: 8 }\n  executor: { input: 0.4, output: 1.6 }\n',
      },
      'Price the scripted models',
    );
    const planned = await run(w, issue, '/plan add farewell');
    expect(Number(planned.outputs['cost-usd'])).toBeGreaterThan(0);
    expect(botComments(w, issue)[0]).toMatch(
      /planning: 1 request, [\d,]+ prompt tokens \([\d,]+ cached\), \$\d+\.\d{4}/,
    );
    const done = await run(w, issue, '/approve');
    expect(done.outputs.outcome).toBe('done');
    const body = w.gh.pulls()[0]?.body ?? '';
    expect(body).toMatch(/\| planner \| `planner` \| 2 \| [\d,]+ \| [\d,]+ \(\d+ %\) \| [\d,]+ \| \$\d+\.\d{4} \|/);
    expect(body).toMatch(/\| executor \| `executor` \| 2 \| [\d,]+ \| [\d,]+ \(\d+ %\) \| [\d,]+ \| \$\d+\.\d{4} \|/);
    expect(body).toMatch(/\| \*\*total\*\* \| .* \*\*\$\d+\.\d{4}\*\* \|/);
    // The outputs cover the whole story: planning and execution.
    const prompt = Number(done.outputs['prompt-tokens']);
    const cached = Number(done.outputs['cached-tokens']);
    const completion = Number(done.outputs['completion-tokens']);
    const served = w.model.requests.reduce((n, r) => n + (r.usage?.prompt_tokens ?? 0), 0);
    expect(prompt).toBe(served);
    expect(cached).toBeGreaterThan(0);
    expect(completion).toBeGreaterThan(0);
    expect(Number(done.outputs['cost-usd'])).toBeGreaterThan(Number(planned.outputs['cost-usd']));
  });
});
