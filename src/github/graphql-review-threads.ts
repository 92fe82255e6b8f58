import { z } from 'zod';
import type { ReviewReads, ReviewThreadState } from './review-api.js';
import type { ThreadScope } from './thread-scope.js';

/**
 * Which of a pull request's review threads are resolved, and by whom. REST lists review comments
 * but cannot tell a resolved thread; GraphQL's `reviewThreads` can. Each thread is named by its first
 * comment, whose id is read from its URL (`…#discussion_r<id>`), the same id REST gives the comment.
 */

const REVIEW_THREADS_QUERY = `query plangateReviewThreads($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          isResolved
          resolvedBy { login }
          comments(first: 1) { nodes { url } }
        }
      }
    }
  }
}`;

const reviewThreadsAnswer = z.object({
  repository: z.object({
    pullRequest: z.object({
      reviewThreads: z.object({
        pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
        nodes: z.array(
          z.object({
            isResolved: z.boolean(),
            resolvedBy: z.object({ login: z.string() }).nullable(),
            comments: z.object({ nodes: z.array(z.object({ url: z.string() })) }),
          }),
        ),
      }),
    }),
  }),
});

/** The comment id in a review comment's URL; undefined when the URL does not carry one. */
export function reviewCommentIdOf(url: string): number | undefined {
  const match = /#discussion_r(\d+)$/.exec(url);
  return match ? Number(match[1]) : undefined;
}

/** At most this many pages of a hundred threads: a bound on calls, not a limit any review reaches. */
const maxPages = 10;

export function reviewThreadReads({ octokit, owner, repo }: ThreadScope): Pick<ReviewReads, 'reviewThreadStates'> {
  return {
    async reviewThreadStates(pull) {
      const states: ReviewThreadState[] = [];
      let after: string | null = null;
      for (let page = 0; page < maxPages; page += 1) {
        const answer = reviewThreadsAnswer.parse(
          await octokit.graphql(REVIEW_THREADS_QUERY, { owner, name: repo, number: pull, after }),
        );
        const { pageInfo, nodes } = answer.repository.pullRequest.reviewThreads;
        for (const node of nodes) {
          const first = node.comments.nodes[0];
          const id = first ? reviewCommentIdOf(first.url) : undefined;
          if (id !== undefined)
            states.push({
              firstCommentId: id,
              resolved: node.isResolved,
              resolvedBy: node.isResolved ? (node.resolvedBy?.login ?? null) : null,
            });
        }
        if (!pageInfo.hasNextPage || pageInfo.endCursor === null || pageInfo.endCursor === after) break;
        after = pageInfo.endCursor;
      }
      return states;
    },
  };
}
