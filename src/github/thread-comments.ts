import { randomBytes } from 'node:crypto';
import { checkStored } from './read-back.js';
import { toComment } from './rest-shapes.js';
import { createOnce, NO_BLIND_RETRY, type ThreadScope } from './thread-scope.js';
import type { Thread } from './thread-api.js';
import { githubBodyLimit } from '../text/limits.js';

/**
 * The thread's comment calls over REST. A new comment notifies everyone watching, so posting one
 * is a creating write (at most once, found again by a marker after a lost answer); editing and
 * reacting are idempotent and keep Octokit's own retries.
 */

/** The hidden tail that lets a comment posted without `dedupe` be recognised after a lost answer. */
function nonceMarker(): string {
  return `<!-- plangate:post ${randomBytes(8).toString('hex')} -->`;
}

/** The comment calls of a thread; `listComments` is how a lost comment is found again. */
export type CommentCalls = Pick<Thread, 'react' | 'postComment' | 'updateComment' | 'getComment'>;

/** Comment calls for one repository; see Thread (thread-api.ts) for each call's promise. */
export function commentCalls(scope: ThreadScope, listComments: Thread['listComments']): CommentCalls {
  const { octokit, owner, repo, botLogin, safe } = scope;
  return {
    async react(commentId, content, on) {
      // Reacting twice is harmless (GitHub answers 200 with the existing reaction), so plugin retries stay on.
      if (on?.kind === 'review') return;
      if (on?.kind === 'review-comment') {
        await octokit.rest.reactions.createForPullRequestReviewComment({ owner, repo, comment_id: commentId, content });
        return;
      }
      await octokit.rest.reactions.createForIssueComment({ owner, repo, comment_id: commentId, content });
    },
    async postComment(issue, body, postOptions = {}) {
      let sent: string;
      let dedupe: string;
      if (postOptions.dedupe !== undefined) {
        dedupe = postOptions.dedupe;
        sent = await safe(body);
        // Checked before sending: a marker lost to redaction or cutting could never find the comment again.
        if (dedupe === '' || !sent.includes(dedupe)) {
          throw new Error(`postComment on #${issue}: the dedupe marker is not in the body as it would be posted`);
        }
      } else {
        dedupe = nonceMarker();
        const tail = `\n\n${dedupe}`;
        sent = (await safe(body, githubBodyLimit - tail.length)) + tail;
      }
      const comment = await createOnce(
        scope,
        async () => {
          const { data } = await octokit.rest.issues.createComment({
            owner,
            repo,
            issue_number: issue,
            body: sent,
            request: NO_BLIND_RETRY,
          });
          return toComment(data);
        },
        async () => (await listComments(issue)).find((c) => c.author === botLogin && c.body.includes(dedupe)),
      );
      checkStored(`comment on #${issue}`, sent, comment.body);
      return comment;
    },
    async updateComment(commentId, body) {
      // An edit is idempotent: sending the same body twice leaves the same comment, so plugin retries stay on.
      const sent = await safe(body);
      const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: commentId, body: sent });
      const comment = toComment(data);
      checkStored(`comment ${commentId}`, sent, comment.body);
      return comment;
    },
    async getComment(commentId) {
      const { data } = await octokit.rest.issues.getComment({ owner, repo, comment_id: commentId });
      return toComment(data);
    },
  };
}
