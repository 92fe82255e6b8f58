import { checkStored } from './read-back.js';
import { statusOf } from './errors.js';
import { toPull } from './rest-shapes.js';
import { createOnce, NO_BLIND_RETRY, type ThreadScope } from './thread-scope.js';
import type { PullRequest, Thread } from './thread-api.js';
import { errorMessage } from '../text/error-message.js';

/**
 * The thread's pull request calls. A run's work lands as one pull request per branch: opening it is
 * a creating write that adopts the open one from the same head into the same base (a lost earlier
 * attempt's, or a racing run's) instead of failing or opening a second.
 */

/** GitHub's 422 when an open pull request from the head into the base exists already. */
function isPullExists(error: unknown): boolean {
  if (statusOf(error) !== 422) return false;
  return /already exists/i.test(errorMessage(error));
}

/** Takes a draft out of draft; the answer is not needed beyond it succeeding. */
const MARK_READY_MUTATION = `mutation MarkReady($input: MarkPullRequestReadyForReviewInput!) {
  markPullRequestReadyForReview(input: $input) {
    pullRequest {
      isDraft
    }
  }
}`;

/** The pull request calls of a thread. */
export type PullRequestCalls = Pick<
  Thread,
  | 'pullRequest'
  | 'findOpenPullRequest'
  | 'createPullRequest'
  | 'updatePullRequest'
  | 'markPullRequestReady'
  | 'listOpenPullRequests'
  | 'requestReviewers'
>;

/** Pull request calls for one repository; see Thread (thread-api.ts) for each call's promise. */
export function pullRequestCalls(scope: ThreadScope): PullRequestCalls {
  const { octokit, owner, repo, safe, safeTitle } = scope;

  async function findOpenPullRequest(head: string, base: string): Promise<PullRequest | undefined> {
    const { data } = await octokit.rest.pulls.list({
      owner,
      repo,
      state: 'open',
      head: `${owner}:${head}`,
      base,
      per_page: 1,
    });
    const first = data[0];
    return first ? toPull(first) : undefined;
  }

  async function updatePullRequest(
    number: number,
    input: { title?: string; body?: string; state?: 'open' | 'closed' },
  ): Promise<PullRequest> {
    const body = input.body === undefined ? undefined : await safe(input.body);
    const title = input.title === undefined ? undefined : await safeTitle(input.title);
    const { data } = await octokit.rest.pulls.update({ owner, repo, pull_number: number, ...input, body, title });
    const pull = toPull(data);
    if (body !== undefined) checkStored(`body of pull request #${number}`, body, pull.body);
    return pull;
  }

  return {
    async pullRequest(number) {
      const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number });
      return toPull(data);
    },
    findOpenPullRequest,
    async createPullRequest(input) {
      const { head, base } = input;
      const body = await safe(input.body);
      const title = await safeTitle(input.title);
      const sent = { ...input, title, body };
      // One open pull request per head and base: one found is this branch's, so it is brought up to date.
      const adopt = async (found: PullRequest) =>
        found.body === body && found.title === title ? found : updatePullRequest(found.number, { title, body });
      const pull = await createOnce(
        scope,
        async () => {
          try {
            const { data } = await octokit.rest.pulls.create({ owner, repo, ...sent, request: NO_BLIND_RETRY });
            return toPull(data);
          } catch (error) {
            // A racing run, or a lost attempt GitHub did store, opened it first: that one is ours too.
            const found = isPullExists(error) ? await findOpenPullRequest(head, base) : undefined;
            if (found) return adopt(found);
            throw error;
          }
        },
        async () => {
          const found = await findOpenPullRequest(head, base);
          return found ? adopt(found) : undefined;
        },
      );
      checkStored(`body of pull request #${pull.number}`, body, pull.body);
      return pull;
    },
    updatePullRequest,
    async markPullRequestReady(nodeId) {
      // Marking a pull request that is ready already changes nothing, so plugin retries stay on.
      await octokit.graphql(MARK_READY_MUTATION, { input: { pullRequestId: nodeId } });
    },
    async listOpenPullRequests() {
      const pulls = await octokit.paginate(octokit.rest.pulls.list, { owner, repo, state: 'open', per_page: 100 });
      return pulls.map(toPull);
    },
    async requestReviewers(pullNumber, reviewers) {
      // Requesting the same reviewer twice leaves one request, so plugin retries stay on.
      const { data } = await octokit.rest.pulls.requestReviewers({
        owner,
        repo,
        pull_number: pullNumber,
        reviewers: [...reviewers],
      });
      return (data.requested_reviewers ?? []).map((user) => user.login);
    },
  };
}
