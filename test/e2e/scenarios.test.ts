import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { say, toolCall } from '../fakes/scripted-model.js';
import { apiKey, closeOpenWorlds, createWorld, git, token, type World } from './harness.js';
import { commentEvent as comment } from './thread-helpers.js';
import { appendFarewell, farewellPlan, farewellThenReadme } from '../fakes/farewell-change.js';
import { plannerToolNames } from '../helpers/tool-names.js';

/**
 * The whole loop against the bundled action: /plan → plan comment → /approve → executor → branch →
 * pull request, with real git, the GitHub emulator and a scripted model.
 */

const bot = 'github-actions[bot]';
afterEach(closeOpenWorlds);

function botComments(w: World, issue: number) {
  return w.gh.comments(issue).filter((c) => c.user?.login === bot);
}

async function planOn(w: World, issue: number) {
  w.freshCheckout();
  const run = await w.runAction(comment(w, issue, 'mona', '/plan Add a farewell function\nKeep greet as it is.'));
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.outputs.outcome).toBe('planned');
  return run;
}

describe('plan, approve, pull request', () => {
  it('posts a plan, executes it on approval and opens a pull request with the change and the history', async () => {
    const world = await createWorld({
      planner: [
        toolCall('read_file', { path: 'src/greet.js' }),
        toolCall('update_context', {
          plan: farewellPlan,
          directive: 'Append a farewell(name) function to src/greet.js that returns "Goodbye " + name.',
        }),
        // finish, in the approve run
        toolCall('update_context', { summary: 'Added farewell(name) next to greet.' }),
      ],
      executor: [
        appendFarewell,
        toolCall('update_context', {
          result: 'Appended farewell to src/greet.js; node --check passes.',
          outcome: 'done',
        }),
      ],
    });
    world.gh.setPermission('mona', 'admin');
    const issue = world.gh.addIssue({
      title: 'Say goodbye',
      body: 'We greet but never say goodbye.',
      login: 'mona',
    }).number;

    const planned = await planOn(world, issue);
    const planId = planned.outputs['plan-id'] ?? '';
    expect(planId).toMatch(/^[0-9a-f]{8}$/);
    const [planComment] = botComments(world, issue);
    expect(planComment?.body).toContain(`/approve ${planId}`);
    expect(planComment?.body).toContain('- [ ] **1. Add a farewell function**');
    expect(planComment?.body).toContain('<!-- plangate:record v1 ');
    const command = world.gh.comments(issue).find((c) => c.body?.startsWith('/plan'));
    expect(world.gh.reactions(command?.id ?? 0).map((r) => r.content)).toContain('eyes');
    // The planner is read-only: it was offered no write or command tool.
    const plannerTools = world.model.requests
      .find((r) => r.model === 'planner')
      ?.tools.map((t) => (t.type === 'function' ? t.function.name : t.type));
    expect(plannerTools).toEqual(plannerToolNames);
    expect(world.model.requests.find((r) => r.model === 'planner')?.messages.at(-1)?.content).toMatch(
      /\nStage: update_context\(field=plan, \.\.\.\) and update_context\(field=directive, \.\.\.\)$/,
    );

    world.freshCheckout();
    const approved = await world.runAction(comment(world, issue, 'mona', '/approve'));
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    expect(approved.outputs).toMatchObject({
      outcome: 'done',
      'plan-id': planId,
      branch: `plangate/${issue}-${planId}`,
    });

    // The change is on the pushed branch, committed by the bot, based on main.
    const branch = `refs/heads/plangate/${issue}-${planId}`;
    expect(git(world.origin, 'show', `${branch}:src/greet.js`)).toContain("return 'Goodbye ' + name;");
    expect(git(world.origin, 'log', '-1', '--format=%an', branch)).toBe(bot);
    expect(git(world.origin, 'merge-base', '--is-ancestor', 'refs/heads/main', branch)).toBe('');

    const [pull] = world.gh.pulls();
    expect(pull).toBeDefined();
    expect(approved.outputs['pr-number']).toBe(String(pull?.number));
    expect(approved.outputs['pr-url']).toBe(pull?.html_url);
    expect(pull?.head.ref).toBe(`plangate/${issue}-${planId}`);
    expect(pull?.base.ref).toBe('main');
    const body = pull?.body ?? '';
    expect(body).toContain(`Closes #${issue}`);
    expect(body).toContain('approved by @mona');
    expect(body).toContain('Add a farewell function');
    expect(body).toContain('Append a farewell(name) function to src/greet.js');
    expect(body).toContain('Appended farewell to src/greet.js; node --check passes.');
    expect(body).toContain('Added farewell(name) next to greet.');
    // Planning (2 requests) and the summary (1) are one story: the PR shows the whole run's usage.
    expect(body).toMatch(/\| planner \| `planner` \| 3 \|/);
    expect(body).toMatch(/\| executor \| `executor` \| 2 \|/);

    // The progress comment ends ticked; the plan comment says done; nothing is left unscripted.
    const progress = botComments(world, issue).find((c) => c.body?.includes('<!-- plangate:progress'));
    expect(progress?.body).toContain('finished');
    expect(progress?.body).toContain('- [x] **1. Add a farewell function**');
    expect(progress?.body).toContain('- [x] **2. Document it**');
    expect(botComments(world, issue)[0]?.body).toContain('**Status:** done');
    expect(world.model.remaining()).toEqual({ planner: 0, executor: 0 });
    // No secret reached GitHub.
    const everything = JSON.stringify(world.gh.requests);
    expect(everything).not.toContain(apiKey);
    expect(everything).not.toContain(token);
  });

  it('replans from evidence: the planner sees the first result and the PR history holds both cycles', async () => {
    const world = await createWorld({
      planner: [
        toolCall('update_context', { plan: farewellPlan, directive: 'Append farewell to src/greet.js.' }),
        (request) => {
          // The replan request must carry the first cycle's result as evidence.
          const last = String(request.messages.at(-1)?.content ?? '');
          return last.includes('greet.js exports greet only; README has no API section')
            ? toolCall('update_context', { directive: 'Add an "API" section to README.md listing greet and farewell.' })
            : say('the replan request did not carry the evidence');
        },
        toolCall('update_context', { summary: 'Two cycles: code, then docs.' }),
      ],
      executor: farewellThenReadme('greet.js exports greet only; README has no API section.'),
    });
    world.gh.setPermission('mona', 'write');
    const issue = world.gh.addIssue({ title: 'Say goodbye', login: 'mona' }).number;
    const planId = (await planOn(world, issue)).outputs['plan-id'];

    world.freshCheckout();
    const approved = await world.runAction(comment(world, issue, 'mona', `/approve ${planId}`));
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    expect(approved.outputs.outcome).toBe('done');

    const replanRequest = world.model.requests.filter((r) => r.model === 'planner')[1];
    expect(String(replanRequest?.messages.at(-1)?.content)).toContain('README has no API section');
    expect(String(replanRequest?.messages.at(-1)?.content)).toMatch(
      /\nStage: update_context\(field=directive, \.\.\.\)$/,
    );

    const body = world.gh.pulls()[0]?.body ?? '';
    // A cycle that hands back for the next step is labelled so; no machine name reaches the reader.
    expect(body).toContain('#### Cycle 1: next step');
    expect(body).not.toMatch(/replan/i);
    expect(body).toContain('#### Cycle 2: done');
    expect(body.indexOf('Append farewell to src/greet.js.')).toBeLessThan(body.indexOf('Add an "API" section'));
    const branch = `refs/heads/plangate/${issue}-${planId}`;
    // The start commit, then one commit per cycle on the pushed branch.
    expect(git(world.origin, 'rev-list', '--count', `refs/heads/main..${branch}`)).toBe('3');
    expect(git(world.origin, 'show', `${branch}:README.md`)).toContain('## API');
    expect(git(world.origin, 'show', `${branch}:src/farewell.js`)).toContain('Goodbye');
    // The executor kept one append-only session: its second request extends its first.
    const [first, second] = world.model.requests.filter((r) => r.model === 'executor');
    expect(second?.messages.slice(0, first?.messages.length)).toEqual(first?.messages);
  });
});

describe('on a pull request', () => {
  it('branches from the pull request head and targets it with the new pull request', async () => {
    const world = await createWorld({
      planner: [
        toolCall('read_file', { path: 'src/shout.js' }),
        toolCall('update_context', {
          plan: { steps: [{ title: 'Add a test note', files: ['NOTES.md'] }] },
          directive: 'Add NOTES.md saying shout is untested.',
        }),
        toolCall('update_context', { summary: 'Noted the missing tests.' }),
      ],
      executor: [
        toolCall('write_file', { path: 'NOTES.md', content: 'shout() has no tests yet.\n' }),
        toolCall('update_context', { result: 'Wrote NOTES.md.', outcome: 'done' }),
      ],
    });
    world.gh.setPermission('mona', 'write');
    const head = world.pushToOrigin(
      'feature/shout',
      { 'src/shout.js': 'export const shout = (s) => s.toUpperCase();\n' },
      'Add shout',
    );
    const pr = world.gh.addPullRequest({
      title: 'Add shout',
      login: 'mona',
      head: 'feature/shout',
      base: 'main',
    }).number;

    const planned = await planOn(world, pr);
    // The planner read the pull request's code, which main does not have.
    const plannerRead = world.model.requests.filter((r) => r.model === 'planner')[1]?.messages.at(-1)?.content;
    expect(String(plannerRead)).toContain('toUpperCase');
    expect(botComments(world, pr)[0]?.body).toContain(`base \`feature/shout\` at \`${head.slice(0, 7)}\``);

    world.freshCheckout();
    const approved = await world.runAction(comment(world, pr, 'mona', '/approve'));
    expect(approved.outputs.outcome, approved.stdout).toBe('done');
    const branch = `plangate/${pr}-${planned.outputs['plan-id']}`;
    // The start commit on the pull request's head, then the cycle.
    expect(git(world.origin, 'rev-parse', `refs/heads/${branch}~2`)).toBe(head);
    const created = world.gh.pulls().find((p) => p.head.ref === branch);
    expect(created?.base.ref).toBe('feature/shout');
    expect(created?.body).toContain(`Follows up #${pr}.`);
    expect(created?.body).not.toContain('Closes #');
  });
});

describe('refusals', () => {
  it('refuses an outsider’s /approve with a reply and pushes nothing', async () => {
    const world = await createWorld({
      planner: [toolCall('update_context', { plan: farewellPlan, directive: 'Append farewell to src/greet.js.' })],
      executor: [],
    });
    world.gh.setPermission('mona', 'maintain');
    const issue = world.gh.addIssue({ title: 'Say goodbye', login: 'mona' }).number;
    await planOn(world, issue);

    world.freshCheckout();
    const run = await world.runAction(comment(world, issue, 'stranger', '/approve'));
    expect(run.code).toBe(0);
    expect(run.outputs.outcome).toBe('refused');
    const reply = botComments(world, issue).at(-1)?.body ?? '';
    expect(reply).toContain('@stranger you may not use `/approve` on this repository.');
    expect(run.stdout).toMatch(/has read permission.*needs write/);
    expect(git(world.origin, 'for-each-ref', '--format=%(refname)', 'refs/heads')).toBe('refs/heads/main');
    expect(world.model.requests.filter((r) => r.model === 'executor')).toHaveLength(0);
    expect(world.gh.pulls()).toHaveLength(0);
    // The plan stays approvable by someone who may.
    expect(botComments(world, issue)[0]?.body).toContain('**Status:** proposed');
  });

  it('refuses /approve when the thread has no live plan', async () => {
    const world = await createWorld({ planner: [], executor: [] });
    world.gh.setPermission('mona', 'admin');
    const issue = world.gh.addIssue({ title: 'Nothing planned', login: 'mona' }).number;
    const run = await world.runAction(comment(world, issue, 'mona', '/approve'));
    expect(run.code).toBe(0);
    expect(run.outputs.outcome).toBe('refused');
    const reply = botComments(world, issue).at(-1)?.body ?? '';
    expect(reply).toContain('there is no plan on this thread');
    expect(reply).toContain('/plan');
    expect(world.model.requests).toHaveLength(0);
  });

  it('refuses /approve of an unknown or superseded plan id, naming the live plan', async () => {
    const world = await createWorld({
      planner: [
        toolCall('update_context', { plan: farewellPlan, directive: 'Append farewell to src/greet.js.' }),
        toolCall('update_context', {
          plan: farewellPlan,
          directive: 'Append farewell to src/greet.js, with a JSDoc comment.',
        }),
      ],
      executor: [],
    });
    world.gh.setPermission('mona', 'write');
    const issue = world.gh.addIssue({ title: 'Say goodbye', login: 'mona' }).number;
    const first = (await planOn(world, issue)).outputs['plan-id'];
    const second = (await planOn(world, issue)).outputs['plan-id'];
    expect(second).not.toBe(first);
    expect(botComments(world, issue)[0]?.body).toContain(`**Status:** superseded by plan \`${second}\``);

    world.freshCheckout();
    const stale = await world.runAction(comment(world, issue, 'mona', `/approve ${first}`));
    expect(stale.outputs.outcome).toBe('refused');
    expect(botComments(world, issue).at(-1)?.body).toContain(`plan \`${first}\` was superseded by plan \`${second}\``);

    const unknown = await world.runAction(comment(world, issue, 'mona', '/approve deadbeef'));
    expect(unknown.outputs.outcome).toBe('refused');
    expect(botComments(world, issue).at(-1)?.body).toContain(`there is no plan \`deadbeef\` on this thread`);
    expect(git(world.origin, 'for-each-ref', '--format=%(refname)', 'refs/heads')).toBe('refs/heads/main');
  });

  it('fails /plan without an API key, saying which input to set, and calls no model', async () => {
    const world = await createWorld({ planner: [], executor: [] });
    world.gh.setPermission('mona', 'admin');
    const issue = world.gh.addIssue({ title: 'Say goodbye', login: 'mona' }).number;
    const event = comment(world, issue, 'mona', '/plan do it');
    const run = await world.runAction(event, { 'api-key': '' });
    expect(run.code).not.toBe(0);
    expect(run.outputs.outcome).toBe('failed');
    expect(botComments(world, issue).at(-1)?.body).toContain('`api-key`');
    expect(world.gh.reactions(event.payload.comment.id).map((r) => r.content)).toEqual(['confused']);
    expect(world.model.requests).toHaveLength(0);
  });

  it('ignores its own comments and other bots without a reply', async () => {
    const world = await createWorld({ planner: [], executor: [] });
    const issue = world.gh.addIssue({ title: 'Bots', login: 'mona' }).number;
    const before = world.gh.requests.length;
    const run = await world.runAction(comment(world, issue, 'dependabot[bot]', '/plan bump everything'));
    expect(run.outputs.outcome).toBe('ignored');
    expect(world.gh.requests.length).toBe(before);
    expect(readFileSync(path.join(world.workspace, 'src/greet.js'), 'utf8')).toContain('Hello');
  });
});
