import type { GitHubClient } from './client.js';
import { graphqlReads } from './graphql-reads.js';
import { reviewThreadReads } from './graphql-review-threads.js';
import type { RepoRef, Thread, ThreadOptions } from './thread-api.js';
export type * from './review-api.js';
import { commentCalls } from './thread-comments.js';
import { issueCalls } from './thread-issues.js';
import { pullRequestCalls } from './thread-pulls.js';
import { repositoryCalls } from './thread-repository.js';
import { reviewReads } from './thread-reviews.js';
import { threadScope } from './thread-scope.js';

export type {
  ApprovalState,
  Comment,
  IssueRef,
  IssueText,
  LastEdit,
  PostCommentOptions,
  PullRequest,
  Reaction,
  RepoRef,
  Thread,
  ThreadOptions,
} from './thread-api.js';

/**
 * The thread of one repository, assembled from its parts: GraphQL reads (graphql-reads.ts and, for
 * resolved review threads, graphql-review-threads.ts), review reads (thread-reviews.ts), comment
 * writes (thread-comments.ts), pull request calls (thread-pulls.ts), issue calls (thread-issues.ts)
 * and repository calls (thread-repository.ts), all sharing one scope (thread-scope.ts) that redacts
 * `secrets` from every body posted and fits it under GitHub's size limit.
 */
export function createThread(
  octokit: GitHubClient,
  repoRef: RepoRef,
  secrets: readonly string[] = [],
  options: ThreadOptions = {},
): Thread {
  const scope = threadScope(octokit, repoRef, secrets, options);
  const reads = graphqlReads(scope);
  return {
    repoRef,
    ...reads,
    ...commentCalls(scope, reads.listComments),
    ...pullRequestCalls(scope),
    ...issueCalls(scope),
    ...repositoryCalls(scope),
    ...reviewReads(scope),
    ...reviewThreadReads(scope),
  };
}
