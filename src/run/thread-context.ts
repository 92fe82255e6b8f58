import * as core from '@actions/core';
import type { CommandSource } from './command.js';
import { isBot } from '../text/comment-command.js';
import type { Comment } from '../github/thread.js';
import { hasRole, type RepoRole } from '../config/permissions.js';
import type { RunContext } from './run-context.js';
import { stripHidden, untrustedIssue, untrustedPlain } from '../text/untrusted.js';
import { clip } from '../text/limits.js';

/**
 * What the planner learns from the thread: the issue's text and the discussion, each marked as
 * untrusted data, as GitHub shows it (nothing hidden). Comments by users below `context-permission` are
 * left out (anyone can comment on a public repository), and the planner is told how many.
 */
/** Bounds on what the thread may add to the planner's prompt: long threads are cut, with notices. */
const maxIssueChars = 20_000;
const maxCommentChars = 4_000;
const maxThreadChars = 40_000;

export async function threadContext(
  ctx: RunContext,
  source: CommandSource,
  comments: readonly Comment[],
  known: ReadonlyMap<string, RepoRole>,
): Promise<string> {
  const { botLogin, contextPermission } = ctx.settings;
  const roles = new Map(known);
  const roleOf = async (login: string): Promise<RepoRole> => {
    const cached = roles.get(login);
    if (cached) return cached;
    const role = await ctx.thread.permissionOf(login);
    roles.set(login, role);
    return role;
  };
  const issue = untrustedIssue(source.thread, maxIssueChars);
  const parts = issue === undefined ? [] : [issue];
  let room = maxThreadChars;
  let leftOut = 0;
  let skippedForRoom = 0;
  for (const comment of comments) {
    // The bot's own comments and the command itself add nothing the planner does not have.
    if (comment.id === source.commentId || comment.author === botLogin || isBot({ login: comment.author })) continue;
    if (!hasRole(await roleOf(comment.author), contextPermission)) {
      leftOut += 1;
      continue;
    }
    if (room <= 0) {
      skippedForRoom += 1;
      continue;
    }
    // Cut what is visible: hidden text takes no room, and a cut cannot expose what the Markdown hides.
    const text = clip(stripHidden(comment.body), Math.min(maxCommentChars, room));
    room -= text.length;
    parts.push(untrustedPlain(`comment by @${comment.author}`, text));
  }
  if (leftOut > 0) {
    core.info(
      `${leftOut} thread comments by users below ${contextPermission} permission were left out of the planner's context.`,
    );
    parts.push(
      `(${leftOut} comment${leftOut === 1 ? '' : 's'} by users without ${contextPermission} permission ${leftOut === 1 ? 'was' : 'were'} left out.)`,
    );
  }
  if (skippedForRoom > 0)
    parts.push(
      `(${skippedForRoom} more comment${skippedForRoom === 1 ? '' : 's'} did not fit and ${skippedForRoom === 1 ? 'was' : 'were'} left out; the thread is long.)`,
    );
  return parts.join('\n\n');
}
