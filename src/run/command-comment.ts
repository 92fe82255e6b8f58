import type { CommandSource } from './command.js';
import type { Comment } from '../github/thread.js';
import type { FlowResult, RunContext } from './run-context.js';
import { findLiveRecord, type LiveRecord } from './live-record.js';
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
  const current = await commandAsStored(ctx, source, comments);
  if (current && current.body === source.body && !current.edited) return undefined;
  const what = current ? 'was edited after it was posted' : 'was deleted';
  return refuse(
    ctx.thread,
    source,
    command,
    `the command comment ${what}; plangate acts only on a command as first written.`,
    'Post the command again in a new comment.',
  );
}

/** The command's comment as GitHub holds it now: on the thread, or in the pull request's review. */
async function commandAsStored(
  ctx: RunContext,
  source: CommandSource,
  comments: readonly Comment[],
): Promise<{ body: string; edited: boolean } | undefined> {
  if (source.origin) return ctx.thread.reviewCommandText(source.thread.number, source.commentId, source.origin.kind);
  const current = comments.find((c) => c.id === source.commentId);
  return current && { body: current.body, edited: current.updatedAt !== current.createdAt };
}

/** The live plan a command acts on, with the thread it was read from. */
export type LivePlan = Extract<LiveRecord, { ok: true }> & { comments: Comment[] };

/**
 * Reads the thread for a command that acts on the live plan (/approve, /revise, /answer, /cancel):
 * refused when its comment was edited or deleted, or when the thread holds no plan it can trust.
 */
export async function commandOnLivePlan(
  ctx: RunContext,
  source: CommandSource,
  command: string,
): Promise<{ refused: FlowResult } | LivePlan> {
  const comments = await ctx.thread.listComments(source.thread.number);
  const edited = await refuseIfEdited(ctx, source, command, comments);
  if (edited) return { refused: edited };
  const live = await findLiveRecord(ctx, comments, source.thread.number);
  if (!live.ok) return { refused: await refuse(ctx.thread, source, command, live.refusal, live.fix) };
  return { ...live, comments };
}
