import { z } from 'zod';
import { commentIgnoreReason, commentOfEvent, notCommandReason, parseCommentCommand } from '../text/comment-command.js';
import { commandOf, userSchema, type Command, type CommandSource } from './command.js';

/**
 * Commands written in a pull request's review: in a review comment (`pull_request_review_comment`)
 * or in a review's body (`pull_request_review`). They are read like a thread comment, by the same
 * rules (who may command, first line only, never an edited one); the command acts on the pull
 * request and its replies go to the pull request's conversation.
 */

const pullRequestSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string().nullable().optional(),
});

const writtenSchema = z.object({
  id: z.number().int(),
  body: z.string().nullable().optional(),
  user: userSchema,
  html_url: z.string().optional(),
});

const reviewCommentEventSchema = z.object({
  action: z.string(),
  pull_request: pullRequestSchema,
  comment: writtenSchema.extend({ created_at: z.string() }),
});

const reviewEventSchema = z.object({
  action: z.string(),
  pull_request: pullRequestSchema,
  review: writtenSchema.extend({ submitted_at: z.string().nullable().optional() }),
});

/** Decides what a `pull_request_review_comment` or `pull_request_review` event asks for. */
export function commandFromReviewEvent(
  eventName: 'pull_request_review_comment' | 'pull_request_review',
  payload: unknown,
  botLogin: string,
  allowedBots: readonly string[] = [],
  prefix = '',
): Command {
  const read = readReviewEvent(eventName, payload);
  if (!read) return { kind: 'ignore', reason: `the event payload is not a ${eventName.replace(/_/g, ' ')}` };
  const { action, pull, written, createdAt } = read;
  const body = written.body ?? '';
  // A submitted review is the review's "created"; the same decision the entry point makes (entry/triage.ts).
  const created = action === commentOfEvent(eventName).created ? 'created' : action;
  const ignored = commentIgnoreReason({ action: created, author: written.user, body }, botLogin, allowedBots, prefix);
  if (ignored !== undefined) return { kind: 'ignore', reason: ignored };
  const parsedCommand = parseCommentCommand(body, prefix);
  if (!parsedCommand) return { kind: 'ignore', reason: notCommandReason(body, prefix) };
  const source: CommandSource = {
    thread: { number: pull.number, isPullRequest: true, title: pull.title, body: pull.body ?? '' },
    commentId: written.id,
    origin: { kind: eventName === 'pull_request_review' ? 'review' : 'review-comment', createdAt },
    commentUrl: written.html_url ?? '',
    author: written.user.login,
    body,
    ...(prefix ? { prefix } : {}),
  };
  return commandOf(parsedCommand, source);
}

function readReviewEvent(eventName: 'pull_request_review_comment' | 'pull_request_review', payload: unknown) {
  if (eventName === 'pull_request_review_comment') {
    const parsed = reviewCommentEventSchema.safeParse(payload);
    if (!parsed.success) return undefined;
    const { action, pull_request: pull, comment } = parsed.data;
    return { action, pull, written: comment, createdAt: comment.created_at };
  }
  const parsed = reviewEventSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const { action, pull_request: pull, review } = parsed.data;
  return { action, pull, written: review, createdAt: review.submitted_at ?? '' };
}
