import { afterEach, describe, expect, it } from 'vitest';
import { loginPage } from '../fakes/scripted-model.js';
import { closeOpenWorlds, createWorld, git, type ActionRun, type World } from './harness.js';
import { bot, botComments, commentEvent } from './thread-helpers.js';
import { stagePlan } from './notes-scenario.js';

/**
 * The first-day mistakes, said for what they are, through the bundled action with default inputs:
 * an endpoint that answers a web page instead of JSON, an API key secret GitHub passed as empty, and
 * a `bot-login` that does not name the account plangate posts as. None of them lets anything run
 * that would not run otherwise: a plan posted by another account is still never trusted.
 */

afterEach(closeOpenWorlds);

const lastReply = (w: World, issue: number, login = bot) =>
  w.gh
    .comments(issue)
    .filter((c) => c.user?.login === login)
    .map((c) => c.body ?? '')
    .at(-1) ?? '';

function reactionsOf(w: World, issue: number, body: string): string[] {
  const comment = w.gh
    .comments(issue)
    .filter((c) => c.body === body)
    .at(-1);
  return w.gh.reactions(comment?.id ?? 0).map((r) => r.content);
}

async function world(script: Parameters<typeof createWorld>[0], tokenLogin?: string): Promise<World> {
  const w = await createWorld(script, undefined, tokenLogin ? { tokenLogin } : {});
  w.gh.setPermission('mona', 'maintain');
  return w;
}

async function run(w: World, issue: number, body: string, inputs: Record<string, string> = {}, login = 'mona') {
  w.freshCheckout();
  return w.runAction(commentEvent(w, issue, login, body), inputs);
}

const logOf = (r: ActionRun) => r.stdout + r.stderr;

describe('an endpoint that does not answer JSON', () => {
  it("says so with the status, the content type and the page's first words, and where the base URL should point", async () => {
    const w = await world({ planner: [loginPage()], executor: [] });
    const issue = w.gh.addIssue({ title: 'Notes', body: 'Write two notes.', login: 'mona' }).number;
    const result = await run(w, issue, '/plan write notes');
    expect(result.outputs.outcome).toBe('failed');
    const reply = lastReply(w, issue);
    expect(reply).toMatch(
      /did not answer JSON: HTTP 200, text\/html, starting `Sign in · Example Corp proxy Sign in to continue Your request to the internet…`\. Something other than a Chat Completions API answered/,
    );
    expect(reply).toContain('Check that `planner-base-url` (or `base-url`) is the API');
    expect(reply).toContain('ends in /v1');
    // Not a validator's words, and nothing of the page's markup or scripts reaches the thread.
    expect(reply).not.toMatch(/malformed|Invalid input|expected object|<(?!!--)|loginRequired|font-family/);
    expect(logOf(result)).toContain('did not answer JSON: HTTP 200, text/html');
    expect(botComments(w, issue).some((b) => b.includes('<!-- plangate:record'))).toBe(false);
    expect(reactionsOf(w, issue, '/plan write notes')).toContain('confused');
    // The same URL answers the same page: asked once.
    expect(w.model.requests).toHaveLength(1);
  });
});

describe('an API key secret GitHub passed as empty', () => {
  it('says that a missing or misnamed secret arrives empty, and where to check it', async () => {
    const w = await world({ planner: [], executor: [] });
    const issue = w.gh.addIssue({ title: 'Notes', body: 'Write two notes.', login: 'mona' }).number;
    // `api-key: ${{ secrets.OPENAI_API_KEY }}` with no such secret: the runner passes ''.
    const result = await run(w, issue, '/plan write notes', { 'api-key': '' });
    expect(result.code).not.toBe(0);
    expect(result.outputs.outcome).toBe('failed');
    const reply = lastReply(w, issue);
    expect(reply).toContain('no API key is configured for the planner model.');
    expect(reply).toContain(
      'If the workflow sets it from a secret, that secret is missing or misnamed: GitHub passes an unknown secret as an empty string.',
    );
    expect(reply).toContain(
      'Check that the name in `${{ secrets.NAME }}` matches a secret of this repository or its organisation',
    );
    expect(reply).toContain('a pull request from a fork');
    expect(logOf(result)).toContain('GitHub passes an unknown secret as an empty string');
    expect(w.model.requests).toHaveLength(0);
  });
});

describe('a bot-login that does not name the account plangate posts as', () => {
  const helper = 'plangate-helper[bot]';

  it('names the account that posted the plan and the bot-login to set, trusting neither it nor a copy', async () => {
    // A GitHub App's token, and the workflow left bot-login at its default.
    const w = await world({ planner: [stagePlan], executor: [] }, helper);
    const issue = w.gh.addIssue({ title: 'Notes', body: 'Write two notes.', login: 'mona' }).number;
    const planned = await run(w, issue, '/plan write notes');
    expect(planned.outputs.outcome, logOf(planned)).toBe('planned');
    const planId = planned.outputs['plan-id'] ?? '';
    const plan = lastReply(w, issue, helper);
    expect(plan).toContain(`<!-- plangate:record`);

    // Someone copies the plan comment, verbatim and signed, onto this thread and onto another one.
    w.gh.addComment(issue, { login: 'mallory', body: plan });
    const other = w.gh.addIssue({ title: 'Other', body: 'Something else.', login: 'mona' }).number;
    w.gh.addComment(other, { login: 'mallory', body: plan });

    const approved = await run(w, issue, `/approve ${planId}`);
    expect(approved.outputs.outcome).not.toBe('executed');
    const reply = lastReply(w, issue, helper);
    expect(reply).toContain(
      `there is no plan by \`${bot}\` (the account the \`bot-login\` input names) on this thread. Plan \`${planId}\` here was made by plangate but posted by \`${helper}\`: \`bot-login\` does not name the account plangate posts as`,
    );
    expect(reply).toContain(`set the \`bot-login\` input to \`${helper}\``);
    expect(reply).not.toContain('mallory');

    // On the other thread the copy names that thread's plan nowhere: no plan, and no account to trust.
    const elsewhere = await run(w, other, `/approve ${planId}`);
    expect(elsewhere.outputs.outcome).not.toBe('executed');
    const otherReply = lastReply(w, other, helper);
    expect(otherReply).toContain('there is no plan on this thread.');
    expect(otherReply).not.toMatch(/mallory|bot-login/);

    // A maintainer deletes the plan comment; the person's copy is what remains, and is never named.
    const original = w.gh.comments(issue).find((c) => c.user?.login === helper && c.body === plan);
    w.gh.deleteComment(original?.id ?? 0);
    const afterDelete = await run(w, issue, `/approve ${planId}`);
    expect(afterDelete.outputs.outcome).not.toBe('executed');
    const copyReply = lastReply(w, issue, helper);
    expect(copyReply).toContain(`Plan \`${planId}\` here was made by plangate but posted by another account`);
    expect(copyReply).not.toContain('mallory');

    // Nothing ran: no executor request, no work branch, no pull request.
    expect(w.model.requests.filter((r) => r.model === 'executor')).toHaveLength(0);
    expect(git(w.origin, 'for-each-ref', '--format=%(refname)', 'refs/heads/')).toBe('refs/heads/main');
    expect(w.gh.pulls()).toHaveLength(0);
  });
});
