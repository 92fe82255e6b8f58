import type { ChecksRead, PullRequestFile, ReviewComment, ReviewSummary } from '../github/review-api.js';
import { clip } from '../text/limits.js';
import { stripHidden, untrusted, untrustedPlain } from '../text/untrusted.js';
import type { ReviewThreadRef } from '../render/review-threads.js';

export type { ReviewThreadRef } from '../render/review-threads.js';

/**
 * The planner's view of a pull request's review, as text: the changed files, the open review
 * threads (resolved ones only counted), the review summaries and the failing checks, every part
 * written by someone else fenced as untrusted data (as GitHub shows it: nothing hidden) and the whole bounded,
 * with notices for what was left out.
 * Pure: the caller has read GitHub and dropped what users below `context-permission` wrote.
 */

/** What the caller read and kept: comments and reviews are already filtered by their authors' permission. */
export interface ReviewContextInput {
  pull: number;
  files: readonly PullRequestFile[];
  comments: readonly ReviewComment[];
  reviews: readonly ReviewSummary[];
  checks: ChecksRead;
  /** Comments and reviews left out because their authors lack `context-permission`. */
  leftOut: number;
  /** Review threads left out because someone with `context-permission` resolved them. */
  resolved?: number;
  contextPermission: string;
}

export interface ReviewContext {
  text: string;
  threads: ReviewThreadRef[];
}

/** Bounds, so a long review cannot crowd out the task: each part is cut with a notice. */
export const reviewLimits = {
  files: 6_000,
  comment: 3_000,
  threads: 30_000,
  reviews: 10_000,
  checks: 12_000,
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The review threads: each first comment with its replies, oldest first, keyed by the first comment. */
export function groupThreads(comments: readonly ReviewComment[]): ReviewComment[][] {
  const threads = new Map<number, ReviewComment[]>();
  for (const comment of comments) {
    const root = comment.inReplyTo ?? comment.id;
    threads.set(root, [...(threads.get(root) ?? []), comment]);
  }
  return [...threads.values()];
}

const where = (c: Pick<ReviewComment, 'path' | 'line'>) => `${c.path}${c.line !== null ? `:${c.line}` : ''}`;

function filesPart(input: ReviewContextInput): string {
  if (input.files.length === 0) return '';
  const lines = input.files.map((f) => `${f.path} (${f.status}, +${f.additions} -${f.deletions})`).join('\n');
  return untrustedPlain(`changed files of pull request #${input.pull}`, clip(lines, reviewLimits.files));
}

function threadsPart(input: ReviewContextInput): { text: string; threads: ReviewThreadRef[] } {
  const parts: string[] = [];
  const given: ReviewThreadRef[] = [];
  let room = reviewLimits.threads;
  let skipped = 0;
  for (const thread of groupThreads(input.comments)) {
    const first = thread[0];
    if (!first) continue;
    if (room <= 0) {
      skipped += 1;
      continue;
    }
    const state = first.outdated ? ' (outdated: the code it was made on has changed since)' : '';
    // Each comment is Markdown GitHub renders on its own; the handles before them are plangate's.
    const text = thread.map((c) => `@${c.author}: ${clip(stripHidden(c.body), reviewLimits.comment)}`).join('\n\n');
    const block = untrustedPlain(
      `review thread on ${where(first)}${state}`,
      clip(text, Math.min(room, 4 * reviewLimits.comment)),
    );
    room -= block.length;
    parts.push(block);
    given.push({ url: first.url, path: first.path, line: first.line, author: first.author, outdated: first.outdated });
  }
  if (skipped > 0)
    parts.push(
      `(${plural(skipped, 'more review thread')} did not fit and ${skipped === 1 ? 'was' : 'were'} left out.)`,
    );
  return { text: parts.join('\n\n'), threads: given };
}

function reviewsPart(input: ReviewContextInput): string {
  const said = input.reviews.filter((r) => r.body.trim() !== '' || r.state === 'CHANGES_REQUESTED');
  const parts: string[] = [];
  let room = reviewLimits.reviews;
  let skipped = 0;
  for (const review of said) {
    if (room <= 0) {
      skipped += 1;
      continue;
    }
    const block = untrusted(
      `review by @${review.author} (${review.state})`,
      review.body,
      Math.min(room, reviewLimits.comment),
    );
    room -= block.length;
    parts.push(block);
  }
  if (skipped > 0)
    parts.push(`(${plural(skipped, 'more review')} did not fit and ${skipped === 1 ? 'was' : 'were'} left out.)`);
  return parts.join('\n\n');
}

function checksPart(checks: ChecksRead): string {
  if (!checks.readable) {
    return '(The check runs of the pull request could not be read: the workflow may lack `checks: read`. Failing checks, if any, are not shown here.)';
  }
  if (checks.failing.length === 0) return "(No check run on the pull request's head has failed.)";
  const lines = checks.failing.map((run) => {
    const notes = run.annotations.map(
      (a) => `  ${a.path}${a.line !== null ? `:${a.line}` : ''}: ${[a.title, a.message].filter(Boolean).join(': ')}`,
    );
    return [`${run.name}: ${run.conclusion}`, ...notes].join('\n');
  });
  return untrustedPlain('failing check runs and their annotations', clip(lines.join('\n'), reviewLimits.checks));
}

/** The review as the planner's first message holds it, and the threads it was given. */
export function renderReviewContext(input: ReviewContextInput): ReviewContext {
  const threads = threadsPart(input);
  const leftOut =
    input.leftOut > 0
      ? `(${plural(input.leftOut, 'review comment or review', 'review comments or reviews')} by users without ${input.contextPermission} permission ${input.leftOut === 1 ? 'was' : 'were'} left out.)`
      : '';
  const resolved = input.resolved
    ? `(${plural(input.resolved, 'resolved review thread')} ${input.resolved === 1 ? 'was' : 'were'} left out.)`
    : '';
  const text = [
    `Pull request #${input.pull} under review. What reviewers and checks said follows; address it where the objective asks you to.`,
    filesPart(input),
    threads.text,
    resolved,
    reviewsPart(input),
    leftOut,
    checksPart(input.checks),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
  return { text, threads: threads.threads };
}
