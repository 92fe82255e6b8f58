import { z } from 'zod';
import { statusOf } from './errors.js';
import type { ChecksRead, FailingCheck, ReviewReads } from './review-api.js';
import {
  failingConclusions,
  rawAnnotationSchema,
  rawCheckRunsSchema,
  rawFileSchema,
  rawReviewCommentSchema,
  rawReviewSchema,
  toAnnotation,
  toFile,
  toReview,
  toReviewComment,
} from './review-shapes.js';
import type { ThreadScope } from './thread-scope.js';
import { errorMessage } from '../text/error-message.js';

/**
 * The thread's review reads: what the planner is shown of a pull request (files, review comments,
 * reviews, failing checks), and a command written in a review as it stands now. Reads only.
 */

/** Check runs whose annotations are read; more failing runs are listed by name only. */
const maxAnnotatedRuns = 10;
const annotationsPerRun = 50;

export function reviewReads(scope: ThreadScope): Omit<ReviewReads, 'reviewThreadStates'> {
  const { octokit, owner, repo } = scope;
  const page = { owner, repo, per_page: 100 };
  async function failingChecks(sha: string): Promise<ChecksRead> {
    let runs: z.infer<typeof rawCheckRunsSchema>['check_runs'];
    try {
      const { data } = await octokit.rest.checks.listForRef({ owner, repo, ref: sha, per_page: 100 });
      runs = rawCheckRunsSchema.parse(data).check_runs;
    } catch (error) {
      const status = statusOf(error);
      if (status === 403 || status === 404) return { readable: false, reason: errorMessage(error) };
      throw error;
    }
    const failing: FailingCheck[] = [];
    for (const run of runs.filter((r) => r.conclusion !== null && failingConclusions.includes(r.conclusion))) {
      const annotations =
        failing.length < maxAnnotatedRuns
          ? await octokit.rest.checks
              .listAnnotations({ owner, repo, check_run_id: run.id, per_page: annotationsPerRun })
              .then(({ data }) => z.array(rawAnnotationSchema).parse(data).map(toAnnotation))
              .catch(() => [])
          : [];
      failing.push({
        id: run.id,
        name: run.name,
        conclusion: run.conclusion ?? '',
        url: run.html_url ?? '',
        annotations,
      });
    }
    return { readable: true, failing };
  }

  return {
    async pullRequestFiles(pull) {
      const data = await octokit.paginate(octokit.rest.pulls.listFiles, { ...page, pull_number: pull });
      return z.array(rawFileSchema).parse(data).map(toFile);
    },
    async reviewComments(pull) {
      const data = await octokit.paginate(octokit.rest.pulls.listReviewComments, { ...page, pull_number: pull });
      return z.array(rawReviewCommentSchema).parse(data).map(toReviewComment);
    },
    async reviews(pull) {
      const data = await octokit.paginate(octokit.rest.pulls.listReviews, { ...page, pull_number: pull });
      return z.array(rawReviewSchema).parse(data).map(toReview);
    },
    failingChecks,
    async reviewCommandText(pull, id, kind) {
      try {
        if (kind === 'review') {
          const { data } = await octokit.rest.pulls.getReview({ owner, repo, pull_number: pull, review_id: id });
          // A review's body can be edited, but GitHub keeps no edit time: the text is what is compared.
          return { body: rawReviewSchema.parse(data).body ?? '', edited: false };
        }
        const { data } = await octokit.rest.pulls.getReviewComment({ owner, repo, comment_id: id });
        const comment = rawReviewCommentSchema.parse(data);
        return { body: comment.body, edited: comment.updated_at !== comment.created_at };
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw error;
      }
    },
  };
}
