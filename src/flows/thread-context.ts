import * as core from '@actions/core';
import type { CommandSource } from '../commands.js';
import { isBot } from '../commands.js';
import type { Comment } from '../github/thread.js';
import { hasRole, type RepoRole } from '../permissions.js';
import type { RunContext } from '../run-context.js';
import { untrusted } from '../untrusted.js';

/**
 * What the planner learns from the thread: the text and the discussion, each marked as
 * untrusted data with hidden content stripped. Comments by users below `context-permission` are
 * left out (anyone can comment on a public repository), and the planner is told how many.
 */
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
  const parts = [untrusted(`issue #${source.thread.number}: title and body`, `${source.thread.title}\n\n${source.thread.body}`)];
  let leftOut = 0;
  for (const comment of comments) {
    // The bot's own comments and the command itself add nothing the planner does not have.
    if (comment.id === source.commentId || comment.author === botLogin || isBot({ login: comment.author })) continue;
    if (!hasRole(await roleOf(comment.author), contextPermission)) {
      leftOut += 1;
      continue;
    }
    parts.push(untrusted(`comment by @${comment.author}`, comment.body));
  }
  if (leftOut > 0) {
    core.info(`${leftOut} thread comments by users below ${contextPermission} permission were left out of the planner's context.`);
    parts.push(`(${leftOut} comment${leftOut === 1 ? '' : 's'} by users without ${contextPermission} permission ${leftOut === 1 ? 'was' : 'were'} left out.)`);
  }
  return parts.join('\n\n');
}
