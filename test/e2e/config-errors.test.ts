import { afterEach, describe, expect, it } from 'vitest';
import { createWorld, token, type ActionRun, type World } from './harness.js';
import { botComments, commentEvent } from './thread-helpers.js';

/**
 * A command that cannot run because plangate is configured wrong (an input, the config file, a
 * missing API key) is answered where its author looks: a reply naming the setting and what to write
 * instead, a 😕 on the command and a failed step. The reply holds no secret, and someone who may not
 * use the command learns nothing more than the refusal they would get anyway.
 */

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A model key no one could mistake for text plangate writes: found anywhere, it leaked. */
const canaryKey = 'sk-e2e-CANARY-config-errors-0123456789';

async function setup(configText?: string): Promise<World> {
  world = await createWorld({ planner: [], executor: [] });
  if (configText !== undefined) world.pushToOrigin('main', { '.github/plangate.yml': configText }, 'Configure');
  world.gh.setPermission('mona', 'maintain');
  return world;
}

/** Comments `body` as `login` on a new issue and runs the action on it. */
async function command(w: World, body: string, inputs: Record<string, string> = {}, login = 'mona') {
  const issue = w.gh.addIssue({ title: 'Say goodbye', login: 'mona' }).number;
  const event = commentEvent(w, issue, login, body);
  w.freshCheckout();
  const run = await w.runAction(event, { 'api-key': canaryKey, ...inputs });
  const commentId = (event.payload as { comment: { id: number } }).comment.id;
  return { run, issue, reactions: w.gh.reactions(commentId).map((r) => r.content) };
}

/** The action's own output, without the runner's mask commands (which carry the secrets by design). */
const logOf = (run: ActionRun) =>
  (run.stdout + run.stderr)
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');

/** The reply, the log and the summary hold neither the model key nor the GitHub token. */
function expectNoSecret(w: World, issue: number, run: ActionRun): void {
  for (const text of [...botComments(w, issue), logOf(run), run.summary]) {
    expect(text).not.toContain(canaryKey);
    expect(text).not.toContain(token);
  }
}

/** The step failed with `message`, which the reply to the command says as well. */
function expectConfigFailure(w: World, result: Awaited<ReturnType<typeof command>>, message: string): void {
  const { run, issue, reactions } = result;
  expect(run.code, run.stdout + run.stderr).not.toBe(0);
  expect(run.outputs.outcome).toBe('failed');
  expect(logOf(run)).toContain(`::error::`);
  expect(logOf(run)).toContain(message);
  const replies = botComments(w, issue);
  expect(replies).toHaveLength(1);
  expect(replies[0]).toContain('@mona `/plan` could not run: ');
  expect(replies[0]).toContain(message);
  expect(replies[0]).toMatch(/See the \[job log\]\(http[^)]+\/actions\/runs\/\d+\)/);
  expect(reactions).toEqual(['confused']);
  expect(w.model.requests).toHaveLength(0);
  expectNoSecret(w, issue, run);
}

describe('invalid inputs', () => {
  it.each([
    ['max-iterations', 'abc', 'The `max-iterations` input must be a whole number from 1 to 100, not `abc`.'],
    ['parallel-steps', '9', 'The `parallel-steps` input must be a whole number from 1 to 8, not `9`.'],
    [
      'policy',
      'plan_for_approval',
      'The `policy` input must be one of plan-for-approval, plan-first, plan-only, executor-only; did you mean `plan-for-approval`?',
    ],
    [
      'base-url',
      'api.example.com/v1',
      'The `base-url` input must be an http(s) URL such as https://api.openai.com/v1, not `api.example.com/v1`.',
    ],
  ])('%s: %s gets a reply naming the input, a 😕 and a failed step', async (name, value, message) => {
    const w = await setup();
    expectConfigFailure(w, await command(w, '/plan do it', { [name]: value }), message);
  });
});

describe('an invalid config file', () => {
  it('names the mistyped key and the key it likely meant', async () => {
    const w = await setup('price:\n  house-model: { input: 1, output: 2 }\n');
    const result = await command(w, '/plan do it');
    expectConfigFailure(w, result, 'Unknown key `price` in .github/plangate.yml; did you mean `prices`?');
    // Where the broken file is: a fix in a pull request or the work tree changes nothing.
    expect(botComments(w, result.issue)[0]).toMatch(/On main \([0-9a-f]{7}\): Unknown key/);
  });

  it('names a bad value, the values it may take and the one likely meant', async () => {
    const w = await setup('tasks:\n  - name: deps\n    objective: Update things.\n    policy: plan_for_approval\n');
    expectConfigFailure(
      w,
      await command(w, '/plan do it'),
      '`tasks[0].policy` in .github/plangate.yml must be one of plan-for-approval, plan-first, plan-only, executor-only; did you mean `plan-for-approval`?',
    );
  });

  it('never repeats a secret the file holds, in the reply, the log or the summary', async () => {
    const w = await setup(`"${canaryKey}": 1\n`);
    const result = await command(w, '/plan do it');
    expectConfigFailure(w, result, 'Unknown key `***` in .github/plangate.yml.');
  });

  it('tells someone who may not plan only what a working configuration would: the refusal', async () => {
    const w = await setup('price: {}\n');
    w.gh.setPermission('visitor', 'read');
    const { run, issue, reactions } = await command(w, '/plan do it', {}, 'visitor');
    expect(run.code).not.toBe(0);
    const replies = botComments(w, issue);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toContain('@visitor you may not use `/plan` on this repository.');
    expect(replies[0]).not.toContain('price');
    expect(reactions).toEqual(['-1']);
    expectNoSecret(w, issue, run);
  });
});

describe('a missing API key', () => {
  it('fails /plan with a reply saying which input to set, a 😕 and a failed step', async () => {
    const w = await setup();
    const { run, issue, reactions } = await command(w, '/plan do it', { 'api-key': '' });
    expect(run.code, run.stdout + run.stderr).not.toBe(0);
    expect(run.outputs.outcome).toBe('failed');
    const replies = botComments(w, issue);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toContain(
      '@mona `/plan` could not run: no API key is configured for the planner model.\n\nSet the `api-key` input (or `planner-api-key`) from a repository secret.',
    );
    expect(reactions).toEqual(['confused']);
    expect(logOf(run)).toContain(
      '::error::plangate: /plan could not run: no API key is configured for the planner model.',
    );
    expect(w.model.requests).toHaveLength(0);
  });
});
