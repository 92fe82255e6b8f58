import * as core from '@actions/core';
import { hasRole, type RepoRole } from '../config/permissions.js';
import { isBot } from '../text/comment-command.js';
import type { FlowResult, RunContext } from './run-context.js';
import { planAndPublish, type PlanningRequest } from './planning.js';
import { renderReviewContext, type ReviewContext, type ReviewThreadRef } from './review-context-text.js';
import type { CommandSource } from './command.js';
import type { Comment } from '../github/thread.js';
import { threadContext } from './thread-context.js';
import { errorMessage } from '../text/error-message.js';
import type { ReviewComment } from '../github/thread.js';
import type { ResolvedBase } from './work-base.js';

/**
 * The review comments without the threads resolved by someone `trusted` (who has
 * `context-permission`), and how many threads that left out. A thread resolved by anyone else, or by
 * someone GitHub does not name, still counts as open: a pull request's author may resolve any
 * thread, and must not hide a maintainer's feedback from the planner that way. When GraphQL cannot
 * say which are resolved, every thread is kept and the log says so.
 */
async function withoutResolved(
  ctx: RunContext,
  pull: number,
  comments: readonly ReviewComment[],
  trusted: (login: string) => Promise<boolean>,
): Promise<{ comments: ReviewComment[]; resolved: number }> {
  const resolvedIds = new Set<number>();
  const stillOpen: string[] = [];
  try {
    for (const state of await ctx.thread.reviewThreadStates(pull)) {
      if (!state.resolved) continue;
      if (state.resolvedBy !== null && (await trusted(state.resolvedBy))) resolvedIds.add(state.firstCommentId);
      else stillOpen.push(state.resolvedBy === null ? 'someone GitHub does not name' : `@${state.resolvedBy}`);
    }
  } catch (error) {
    core.info(`Which review threads are resolved could not be read, so all are shown: ${errorMessage(error)}`);
    return { comments: [...comments], resolved: 0 };
  }
  if (stillOpen.length > 0)
    core.info(
      `${stillOpen.length} resolved review thread(s) count as open: resolved by ${[...new Set(stillOpen)].join(', ')}, without ${ctx.settings.contextPermission} permission.`,
    );
  const kept = comments.filter((c) => !resolvedIds.has(c.inReplyTo ?? c.id));
  const resolved = new Set(comments.filter((c) => !kept.includes(c)).map((c) => c.inReplyTo ?? c.id)).size;
  return { comments: kept, resolved };
}

/**
 * Reads what the planner learns of a pull request under review: its changed files, the review
 * threads and reviews of users with `context-permission` (anyone can review a public repository's
 * pull request) except threads such a user resolved, and the head's failing checks.
 * renderReviewContext makes the text.
 */
export async function reviewContext(
  ctx: RunContext,
  pull: { number: number; headSha: string },
  known: ReadonlyMap<string, RepoRole>,
): Promise<ReviewContext> {
  const { thread, settings } = ctx;
  const roles = new Map(known);
  const allowed = async (login: string): Promise<boolean> => {
    if (login === settings.botLogin || isBot({ login })) return false;
    let role = roles.get(login);
    if (!role) {
      role = await thread.permissionOf(login);
      roles.set(login, role);
    }
    return hasRole(role, settings.contextPermission);
  };
  const [files, open, reviews, checks] = await Promise.all([
    thread.pullRequestFiles(pull.number),
    thread.reviewComments(pull.number).then((all) => withoutResolved(ctx, pull.number, all, allowed)),
    thread.reviews(pull.number),
    thread.failingChecks(pull.headSha),
  ]);
  let leftOut = 0;
  const keep = async <T extends { author: string }>(items: readonly T[]): Promise<T[]> => {
    const kept: T[] = [];
    for (const item of items) {
      if (await allowed(item.author)) kept.push(item);
      else if (item.author !== settings.botLogin && !isBot({ login: item.author })) leftOut += 1;
    }
    return kept;
  };
  const keptComments = await keep(open.comments);
  const keptReviews = await keep(reviews);
  if (!checks.readable) core.info(`The pull request's check runs could not be read: ${checks.reason}`);
  return renderReviewContext({
    pull: pull.number,
    files,
    comments: keptComments,
    reviews: keptReviews,
    checks,
    leftOut,
    resolved: open.resolved,
    contextPermission: settings.contextPermission,
  });
}

/**
 * The planner's context for a thread: the thread itself (thread-context.ts) and, on a pull request,
 * its review. Answers the review threads given, for the record.
 */
export async function planningContext(
  ctx: RunContext,
  source: CommandSource,
  comments: readonly Comment[],
  known: ReadonlyMap<string, RepoRole>,
  base: ResolvedBase,
): Promise<{ thread: string; reviewThreads: ReviewThreadRef[] }> {
  const thread = await threadContext(ctx, source, comments, known);
  if (!base.pull) return { thread, reviewThreads: [] };
  const review = await reviewContext(ctx, base.pull, known);
  return { thread: `${thread}\n\n${review.text}`, reviewThreads: review.threads };
}

/**
 * `/plan` and `/revise`: gives the planner the thread (and a pull request's review) as `known`
 * authors may shape it, then plans and posts; the review threads it was given go on the record.
 */
export async function planInThread(
  ctx: RunContext,
  request: Omit<PlanningRequest, 'reviewThreads'>,
  known: ReadonlyMap<string, RepoRole>,
): Promise<FlowResult> {
  const given = await planningContext(ctx, request.source, request.comments, known, request.base);
  request.snapshot.context.thread = given.thread;
  return planAndPublish(ctx, { ...request, reviewThreads: given.reviewThreads });
}
