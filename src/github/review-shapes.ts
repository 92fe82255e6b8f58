import { z } from 'zod';
import type { CheckAnnotation, PullRequestFile, ReviewComment, ReviewSummary } from './review-api.js';

/**
 * GitHub's answers for a pull request's review, parsed with zod: only the fields plangate reads,
 * each turned into the thread's own shape (review-api.ts).
 */

const user = z.object({ login: z.string() }).nullable();

export const rawFileSchema = z.object({
  filename: z.string(),
  status: z.string(),
  additions: z.number().int(),
  deletions: z.number().int(),
});

export const rawReviewCommentSchema = z.object({
  id: z.number().int(),
  html_url: z.string(),
  user,
  body: z.string(),
  path: z.string(),
  line: z.number().int().nullable().optional(),
  position: z.number().int().nullable().optional(),
  in_reply_to_id: z.number().int().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const rawReviewSchema = z.object({
  id: z.number().int(),
  html_url: z.string(),
  user,
  body: z.string().nullable(),
  state: z.string(),
});

export const rawCheckRunsSchema = z.object({
  check_runs: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      status: z.string(),
      conclusion: z.string().nullable(),
      html_url: z.string().nullable(),
    }),
  ),
});

export const rawAnnotationSchema = z.object({
  path: z.string(),
  start_line: z.number().int().nullable().optional(),
  annotation_level: z.string().nullable(),
  title: z.string().nullable().optional(),
  message: z.string().nullable(),
});

export const toFile = (raw: z.infer<typeof rawFileSchema>): PullRequestFile => ({
  path: raw.filename,
  status: raw.status,
  additions: raw.additions,
  deletions: raw.deletions,
});

/** A review comment whose `position` is null no longer applies to the diff: GitHub shows it as outdated. */
export const toReviewComment = (raw: z.infer<typeof rawReviewCommentSchema>): ReviewComment => ({
  id: raw.id,
  url: raw.html_url,
  author: raw.user?.login ?? '',
  body: raw.body,
  path: raw.path,
  line: raw.line ?? null,
  outdated: raw.position === null,
  ...(raw.in_reply_to_id !== undefined ? { inReplyTo: raw.in_reply_to_id } : {}),
});

export const toReview = (raw: z.infer<typeof rawReviewSchema>): ReviewSummary => ({
  id: raw.id,
  url: raw.html_url,
  author: raw.user?.login ?? '',
  state: raw.state,
  body: raw.body ?? '',
});

export const toAnnotation = (raw: z.infer<typeof rawAnnotationSchema>): CheckAnnotation => ({
  path: raw.path,
  line: raw.start_line ?? null,
  level: raw.annotation_level ?? '',
  title: raw.title ?? '',
  message: raw.message ?? '',
});

/** The conclusions that mean a check did not pass. */
export const failingConclusions: readonly string[] = ['failure', 'timed_out', 'cancelled', 'action_required'];
