import { issueCommentPayload } from '../fakes/payloads.js';
import { owner, repo, type World } from './harness.js';

/**
 * The thread as the e2e scenarios read and write it: a user's comment turned into the
 * issue_comment event the runner would hand the action, and the bot's comments read back.
 */

/** The login plangate comments as with the workflow token (the action's default `bot-login`). */
export const bot = 'github-actions[bot]';

/** Posts `body` as `login` on the issue and returns the issue_comment event for it. */
export function commentEvent(w: World, issue: number, login: string, body: string) {
  const issueData = w.gh.issue(issue);
  if (!issueData) throw new Error(`no issue ${issue}`);
  const created = w.gh.addComment(issue, { login, body });
  return { name: 'issue_comment', payload: issueCommentPayload({ owner, repo, issue: issueData, comment: created }) };
}

/** The bodies of the bot's comments on the issue, oldest first. */
export const botComments = (w: World, issue: number) =>
  w.gh
    .comments(issue)
    .filter((c) => c.user?.login === bot)
    .map((c) => c.body ?? '');
