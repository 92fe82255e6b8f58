import { afterEach, describe, expect, it } from 'vitest';
import { hang, httpError, refusingUrl, toolCall } from '../fakes/scripted-model.js';
import { closeOpenWorlds, git, type World } from './harness.js';
import { commentEvent as event, botComments } from './thread-helpers.js';
import { firstNote, planComments, run, setup, stagePlan, summary } from './notes-scenario.js';

/**
 * Provider faults against the bundled action: overloads and rate limits ridden out by model-retries,
 * a model that never answers ended by model-timeout, an execution that loses its provider stopped
 * with its finished cycles pushed and resumed by a re-run, and failures that cannot be retried
 * answered with their cause and fix. Waits come from small retry-after values and tiny timeouts;
 * the assertions are about outcomes, not durations.
 */

afterEach(closeOpenWorlds);

const apiKey = 'sk-plangate-e2e-0123456789abcdef';
const progressOf = (w: World, issue: number) =>
  botComments(w, issue).find((b) => b.includes('<!-- plangate:progress')) ?? '';
const lastReply = (w: World, issue: number) => botComments(w, issue).at(-1) ?? '';

function commandReactions(w: World, issue: number, body: string): string[] {
  const command = w.gh.comments(issue).find((c) => c.body === body);
  return w.gh.reactions(command?.id ?? 0).map((r) => r.content);
}

describe('transient failures', () => {
  it('posts the plan through 500, 500 and a 429 asking for a second, in one run', async () => {
    const { w, issue } = await setup({
      planner: [
        httpError(500, { 'retry-after': '0' }),
        httpError(500, { 'retry-after': '0' }),
        httpError(429, { 'retry-after': '1' }),
        stagePlan,
      ],
      executor: [],
    });
    const result = await run(w, issue, '/plan write notes');
    expect(result.outputs.outcome, result.stdout + result.stderr).toBe('planned');
    expect(w.model.requests.map((r) => r.status)).toEqual([500, 500, 429, 200]);
    expect(planComments(w, issue)).toHaveLength(1);
    // Each retry is one log line with the cause and the wait.
    expect(result.stdout).toContain('planner model "planner": HTTP 500; retry 1 of 6 in 0 ms (retry-after).');
    expect(result.stdout).toContain(
      'planner model "planner": HTTP 429 (rate_limit_exceeded); retry 3 of 6 in 1 s (retry-after).',
    );
  });

  it('rides out five 503s in a row with model-retries: 6', async () => {
    const busy = httpError(503, { 'retry-after-ms': '10' }, 'overloaded');
    const { w, issue } = await setup({ planner: [busy, busy, busy, busy, busy, stagePlan], executor: [] });
    const result = await run(w, issue, '/plan write notes', { 'model-retries': '6' });
    expect(result.outputs.outcome, result.stdout + result.stderr).toBe('planned');
    expect(w.model.requests.filter((r) => r.status === 503)).toHaveLength(5);
    expect(planComments(w, issue)).toHaveLength(1);
  });
});

const replan = toolCall('update_context', { directive: 'Write notes/two.md.' });

describe('a model that never answers', () => {
  it('ends /plan within bounded time with a reply saying the provider did not answer', async () => {
    const { w, issue } = await setup({ planner: [hang, hang], executor: [] });
    const started = Date.now();
    const result = await run(w, issue, '/plan write notes', { 'model-timeout': '2', 'model-retries': '1' });
    expect(Date.now() - started).toBeLessThan(90_000);
    expect(result.outputs.outcome).toBe('failed');
    expect(result.code).toBe(1);
    const reply = lastReply(w, issue);
    expect(reply).toContain('planning failed: The planner model "planner" at 127.0.0.1:');
    expect(reply).toContain('/v1/chat/completions did not answer within 2 s (2 attempts).');
    expect(reply).toContain('raise model-timeout');
    expect(reply).not.toContain('more specific objective');
    expect(planComments(w, issue)).toHaveLength(0);
    expect(commandReactions(w, issue, '/plan write notes')).toContain('confused');
    expect(result.summary).toContain('did not answer within 2 s');
  });

  it('stops execution stalled in cycle 2 with cycle 1 pushed, and a re-run resumes and finishes', async () => {
    const { w, issue } = await setup({
      // The resumed run starts again after cycle 1, so the planner's revision is asked for twice.
      planner: [stagePlan, replan, replan, summary],
      executor: [
        ...firstNote('replan'),
        // Cycle 2: the provider stops answering, for both attempts the run makes.
        hang,
        hang,
        toolCall('write_file', { path: 'notes/two.md', content: 'two\n' }),
        toolCall('update_context', { result: 'Wrote notes/two.md.', outcome: 'done' }),
      ],
    });
    const faults = { 'model-timeout': '2', 'model-retries': '1' };
    const planned = await run(w, issue, '/plan write notes', faults);
    expect(planned.outputs.outcome).toBe('planned');
    const branch = `refs/heads/plangate/${issue}-${planned.outputs['plan-id']}`;

    w.freshCheckout();
    const approve = event(w, issue, 'mona', '/approve');
    const stopped = await w.runAction(approve, faults);
    expect(stopped.code, stopped.stdout + stopped.stderr).toBe(1);
    expect(git(w.origin, 'show', `${branch}:notes/one.md`)).toBe('one');
    const progress = progressOf(w, issue);
    expect(progress).toContain('interrupted');
    expect(progress).toContain('stopped in cycle 2: The executor model "executor"');
    expect(progress).toContain('did not answer within 2 s');
    expect(progress).toContain('to resume from the last finished cycle');
    const reply = lastReply(w, issue);
    expect(reply).toContain('`/approve` stopped: Execution of plan');
    expect(reply).toContain('The work of the first cycle is committed and pushed');
    expect(reply).toContain('re-run the job, or comment `/approve` again, to resume from the last finished cycle.');
    expect(commandReactions(w, issue, '/approve')).toContain('confused');
    expect(planComments(w, issue)[0]).toContain('executing');
    expect(stopped.summary).toContain('stopped in cycle 2');

    // The job is re-run: same event, fresh checkout.
    w.freshCheckout();
    const rerun = await w.runAction(approve, faults);
    expect(rerun.outputs.outcome, rerun.stdout + rerun.stderr).toBe('done');
    expect(git(w.origin, 'show', `${branch}:notes/one.md`)).toBe('one');
    expect(git(w.origin, 'show', `${branch}:notes/two.md`)).toBe('two');
    // The start commit its draft needed and the two cycles; the same one pull request, now ready.
    expect(git(w.origin, 'rev-list', '--count', `refs/heads/main..${branch}`)).toBe('3');
    expect(w.gh.pulls()).toHaveLength(1);
    expect(w.gh.pulls()[0]?.draft).toBe(false);
    expect(w.gh.pulls()[0]?.body).toContain('#### Cycle 2: done');
    expect(w.model.remaining()).toEqual({ planner: 0, executor: 0 });
  });
});

describe('a provider lost during execution', () => {
  it('a new /approve resumes a run that stopped when the provider went away', async () => {
    const { w, issue } = await setup({
      planner: [stagePlan, summary],
      executor: firstNote('done'),
    });
    const planned = await run(w, issue, '/plan write notes');
    const branch = `refs/heads/plangate/${issue}-${planned.outputs['plan-id']}`;
    // The executor's provider refuses connections: the run stops before any cycle finished.
    const stopped = await run(w, issue, '/approve', { 'executor-base-url': await refusingUrl() });
    expect(stopped.code).toBe(1);
    expect(lastReply(w, issue)).toContain('stopped in cycle 1');
    expect(lastReply(w, issue)).toContain('No cycle had finished, so nothing was pushed');
    expect(lastReply(w, issue)).toContain('Check `executor-base-url` (or `base-url`)');

    const resumed = await run(w, issue, '/approve');
    expect(resumed.outputs.outcome, resumed.stdout + resumed.stderr).toBe('done');
    expect(git(w.origin, 'show', `${branch}:notes/one.md`)).toBe('one');
    expect(w.gh.pulls()).toHaveLength(1);
  });
});

describe('failures that name their fix', () => {
  const expectCleanReply = (reply: string) => {
    expect(reply).not.toContain(apiKey);
    expect(reply).not.toMatch(/sk-|\.\.|in state|more specific objective/);
  };

  it('a rejected key: the key named as the cause, the secret to check as the fix, one request', async () => {
    const { w, issue } = await setup({ planner: [], executor: [] });
    const result = await run(w, issue, '/plan write notes', { 'api-key': apiKey });
    expect(result.outputs.outcome).toBe('failed');
    const reply = lastReply(w, issue);
    expect(reply).toContain('rejected the API key (HTTP 401). Check the `planner-api-key` (or `api-key`) secret');
    expectCleanReply(reply);
    expect(w.model.requests).toHaveLength(1);
    expect(commandReactions(w, issue, '/plan write notes')).toContain('confused');
  });

  it('an unknown model: the model and path named, with what the provider said', async () => {
    const { w, issue } = await setup({
      planner: [httpError(404, {}, 'The model `planner` does not exist or you do not have access to it.')],
      executor: [],
    });
    const result = await run(w, issue, '/plan write notes');
    expect(result.outputs.outcome).toBe('failed');
    const reply = lastReply(w, issue);
    expect(reply).toContain('does not know this model or path (HTTP 404)');
    expect(reply).toContain('(the provider said: "The model planner does not exist or you do not have access to it")');
    expect(reply).toContain('Check that `planner-model` names a model this endpoint serves');
    expectCleanReply(reply);
    expect(w.model.requests).toHaveLength(1);
  });

  it('a refused connection: the base-url to check', async () => {
    const { w, issue } = await setup({ planner: [], executor: [] });
    const url = await refusingUrl();
    const result = await run(w, issue, '/plan write notes', { 'planner-base-url': url });
    expect(result.outputs.outcome).toBe('failed');
    const reply = lastReply(w, issue);
    expect(reply).toContain(
      `at ${url.replace('http://', '')}/chat/completions could not be reached: the connection was refused (3 attempts)`,
    );
    expect(reply).toContain(
      'Check `planner-base-url` (or `base-url`): nothing accepts connections at that host and port.',
    );
    expectCleanReply(reply);
  });
});
