import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { closeOpenWorlds, createWorld, type ActionRun, type World } from './harness.js';
import { botComments, commentEvent } from './thread-helpers.js';
import { stagePlan } from './notes-scenario.js';
import { evaluateCondition } from './workflow-expression.js';

/**
 * plangate beside other bots, with default inputs, through the bundled action: another tool's slash
 * command (`/lgtm`, `/assign me`) starts no job under the README's workflow, and even where a job
 * starts (a broader `if:`) it gets no reply, no reaction and no model request, from a maintainer or
 * a stranger. A stranger refused is told only that they may not; the settings behind a refusal are
 * named to someone who can change them, and in the job log. `command-prefix` moves every command
 * behind one word, and everything plangate tells people to type follows it.
 */

afterEach(closeOpenWorlds);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The `if:` of the README's quick-start workflow, the one a new user copies. */
function quickStartIf(): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)]
    .map((m) => m[1] ?? '')
    .find((text) => text.includes('jobs:'));
  const workflow = parseYaml(block ?? '', { schema: 'failsafe' }) as { jobs: Record<string, { if: string }> };
  const [job] = Object.values(workflow.jobs);
  if (!job) throw new Error('the README shows no workflow');
  return job.if;
}

type Event = ReturnType<typeof commentEvent>;

/** Whether the README's workflow starts a job for this event, as GitHub evaluates its `if:`. */
const jobRuns = (event: Event) =>
  evaluateCondition(quickStartIf(), { github: { event_name: event.name, event: event.payload } });

/** The bot's replies as a reader sees them: without the hidden marker each post carries. */
const replies = (w: World, issue: number) =>
  botComments(w, issue).map((body) => body.replace(/\n*<!-- plangate:post [0-9a-f]+ -->$/, ''));

const commentId = (event: Event) => (event.payload as { comment: { id: number } }).comment.id;
const log = (run: ActionRun) => run.stdout + run.stderr;

async function world(planner = [stagePlan]): Promise<{ w: World; issue: number }> {
  const w = await createWorld({ planner, executor: [] });
  w.gh.setPermission('mona', 'maintain');
  // Everyone else reads the public repository: `read`, as GitHub answers for any account.
  const issue = w.gh.addIssue({ title: 'Notes', body: 'Write two notes.', login: 'mona' }).number;
  return { w, issue };
}

/** `login` comments `body`; the action runs on it in a fresh checkout, as a job would. */
async function comment(w: World, issue: number, login: string, body: string, inputs: Record<string, string> = {}) {
  const event = commentEvent(w, issue, login, body);
  w.freshCheckout();
  return { event, run: await w.runAction(event, inputs) };
}

describe('another tool’s slash command', () => {
  for (const login of ['mona', 'mallory']) {
    for (const body of ['/lgtm', '/assign me']) {
      it(`${body} by ${login === 'mona' ? 'a maintainer' : 'a stranger'}: no job, and no reply, reaction or model request where one starts`, async () => {
        const { w, issue } = await world();
        const requestsBefore = w.gh.requests.length;
        const { event, run } = await comment(w, issue, login, body);
        expect(jobRuns(event)).toBe(false);
        expect(run.code, log(run)).toBe(0);
        expect(run.outputs.outcome).toBe('ignored');
        expect(log(run)).toContain(`Nothing to do: ${body.split(' ')[0]} is not a plangate command.`);
        expect(botComments(w, issue)).toEqual([]);
        expect(w.gh.reactions(commentId(event))).toEqual([]);
        expect(w.model.requests).toHaveLength(0);
        // Decided from the event alone: not even the permission API was asked.
        expect(w.gh.requests.length).toBe(requestsBefore);
      });
    }
  }

  it('a word one slip from a command gets one line naming the command, from a maintainer only', async () => {
    const { w, issue } = await world();
    const stranger = await comment(w, issue, 'mallory', '/aprove');
    expect(stranger.run.outputs.outcome, log(stranger.run)).toBe('ignored');
    expect(botComments(w, issue)).toEqual([]);
    expect(w.gh.reactions(commentId(stranger.event))).toEqual([]);

    const maintainer = await comment(w, issue, 'mona', '/aprove');
    expect(maintainer.run.outputs.outcome, log(maintainer.run)).toBe('refused');
    expect(replies(w, issue)).toEqual([
      '@mona `/aprove` is not a plangate command. Did you mean `/approve`? Nothing was done; `/help` lists the commands.',
    ]);
    expect(w.model.requests).toHaveLength(0);
  });
});

describe('a refusal speaks to its reader', () => {
  it('tells a stranger’s /plan only that they may not, and names the setting in the job log', async () => {
    const { w, issue } = await world();
    const { event, run } = await comment(w, issue, 'mallory', '/plan Take the repository over');
    // The README's workflow starts the job: plangate itself checks the author.
    expect(jobRuns(event)).toBe(true);
    expect(run.outputs.outcome, log(run)).toBe('refused');
    expect(replies(w, issue)).toEqual(['@mallory you may not use `/plan` on this repository.']);
    expect(w.gh.reactions(commentId(event)).map((r) => r.content)).toEqual(['-1']);
    expect(w.model.requests).toHaveLength(0);
    // For whoever can change it: the permission asked for and the input that sets it.
    expect(log(run)).toContain('/plan needs write or higher (the `trigger-permission` input)');
  });

  it('names the setting to fix to a maintainer, and only the job log to a writer', async () => {
    const { w, issue } = await world();
    w.gh.setPermission('wanda', 'write');
    const maintainer = await comment(w, issue, 'mona', '/plan write notes', { 'api-key': '' });
    expect(maintainer.run.outputs.outcome).toBe('failed');
    expect(botComments(w, issue).at(-1)).toContain(
      '@mona `/plan` could not run: no API key is configured for the planner model.\n\nSet the `api-key` input (or `planner-api-key`) from a repository secret.',
    );

    const writer = await comment(w, issue, 'wanda', '/plan write notes', { 'api-key': '' });
    expect(writer.run.outputs.outcome).toBe('failed');
    const reply = replies(w, issue).at(-1) ?? '';
    expect(reply).toMatch(
      /^@wanda `\/plan` could not run: plangate’s configuration on this repository needs a fix\. A maintainer can read what to change in the \[job log\]\(http[^)]+\)\.$/,
    );
    expect(reply).not.toContain('api-key');
    expect(log(writer.run)).toContain('Set the `api-key` input');
    expect(w.model.requests).toHaveLength(0);
  });
});

describe('command-prefix', () => {
  const inputs = { 'command-prefix': '/plangate' };

  it('plans on `/plangate plan`, ignores `/plan`, and tells people to type `/plangate approve`', async () => {
    const { w, issue } = await world();
    const bare = await comment(w, issue, 'mona', '/plan write notes', inputs);
    expect(bare.run.outputs.outcome, log(bare.run)).toBe('ignored');
    expect(log(bare.run)).toContain('/plan is not a plangate command (plangate’s commands start with /plangate)');
    expect(botComments(w, issue)).toEqual([]);
    expect(w.gh.reactions(commentId(bare.event))).toEqual([]);
    expect(w.model.requests).toHaveLength(0);

    const planned = await comment(w, issue, 'mona', '/plangate plan write notes', inputs);
    expect(planned.run.outputs.outcome, log(planned.run)).toBe('planned');
    const planId = planned.run.outputs['plan-id'] ?? '';
    const planComment = botComments(w, issue).at(-1) ?? '';
    expect(planComment).toContain(`    /plangate approve ${planId}`);
    expect(planComment).toContain('`/plangate revise <feedback>`');
    expect(planComment).not.toMatch(/(^|[\s`])\/(approve|revise|plan)\b/m);

    // Replies spell commands the same way.
    const stranger = await comment(w, issue, 'mallory', '/plangate approve', inputs);
    expect(stranger.run.outputs.outcome).toBe('refused');
    expect(replies(w, issue).at(-1)).toBe('@mallory you may not use `/plangate approve` on this repository.');
  });

  it('fails the step, without a reply, when the prefix is no prefix, saying what to write', async () => {
    const { w, issue } = await world();
    const { run } = await comment(w, issue, 'mona', '/plan write notes', { 'command-prefix': 'plangate' });
    expect(run.code).not.toBe(0);
    expect(log(run)).toContain(
      'The `command-prefix` input must be / followed by one word of letters, digits, - or _ (such as /plangate), with no space inside, not `plangate`.',
    );
    expect(botComments(w, issue)).toEqual([]);
    expect(w.model.requests).toHaveLength(0);
  });
});
