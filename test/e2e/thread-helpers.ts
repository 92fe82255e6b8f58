import { issueCommentPayload } from '../fakes/payloads.js';
import { owner, repo, type ActionRun, type World } from './harness.js';

/**
 * The thread as the e2e scenarios read and write it: a user's comment turned into the
 * issue_comment event the runner would hand the action, and the bot's comments read back.
 */

/** The login plangate comments as with the workflow token (the action's default `bot-login`). */
export const bot = 'github-actions[bot]';

/** Posts `body` as `login` (a `Bot` account when `type` says so) on the issue and returns the issue_comment event for it. */
export function commentEvent(w: World, issue: number, login: string, body: string, type?: 'User' | 'Bot') {
  const issueData = w.gh.issue(issue);
  if (!issueData) throw new Error(`no issue ${issue}`);
  const created = w.gh.addComment(issue, { login, body, ...(type ? { type } : {}) });
  return { name: 'issue_comment', payload: issueCommentPayload({ owner, repo, issue: issueData, comment: created }) };
}

/** The bodies of the bot's comments on the issue, oldest first. */
export const botComments = (w: World, issue: number) =>
  w.gh
    .comments(issue)
    .filter((c) => c.user?.login === bot)
    .map((c) => c.body ?? '');

/** What the tools answered `model` in its last request, in order. */
export const toolResults = (w: World, model: string) =>
  (w.model.requests.filter((r) => r.model === model).at(-1)?.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => String(m.content));

/** Everything that left the action: GitHub requests, model requests, logs, job summaries, outputs. */
export function everythingSeen(w: World, runs: ActionRun[]): string {
  return [
    JSON.stringify(w.gh.requests),
    JSON.stringify(w.model.requests.map((r) => r.body)),
    // `::add-mask::` lines are how the action hands secrets to the runner to mask; the runner consumes them.
    ...runs.flatMap((r) => [
      r.stdout.replace(/^::add-mask::.*$/gm, ''),
      r.stderr,
      r.summary,
      JSON.stringify(r.outputs),
    ]),
  ].join('\n');
}
