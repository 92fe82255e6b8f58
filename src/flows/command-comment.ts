import type { CommandSource } from '../commands.js';
import type { Comment } from '../github/thread.js';
import type { FlowResult, RunContext } from '../run-context.js';
import { refuse } from './refuse.js';

/**
 * A command is carried out only as it was first written: if its comment was edited or deleted
 * since, someone changed their mind (or the text), and plangate asks for the command again.
 */
export async function refuseIfEdited(
  ctx: RunContext,
  source: CommandSource,
  command: string,
  comments: readonly Comment[],
): Promise<FlowResult | undefined> {
  const current = comments.find((c) => c.id === source.commentId);
  if (current && current.body === source.body && current.updatedAt === current.createdAt) return undefined;
  const what = current ? 'was edited after it was posted' : 'was deleted';
  return refuse(ctx.thread, source, command, `the command comment ${what}; plangate acts only on a command as first written.`, 'Post the command again in a new comment.');
}
