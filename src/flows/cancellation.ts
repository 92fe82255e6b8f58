import type { Comment } from '../github/thread.js';
import type { RunContext } from '../run-context.js';
import { verifyRecordComment } from './live-record.js';

/**
 * How `/cancel` reaches a running execution: the plan comment's record says `cancelled`, and the
 * acknowledgement carries who cancelled. Shared by the cancel flow (writer) and the execution (reader).
 */

/** Hidden line in the bot's acknowledgement of a `/cancel`, naming the plan and who cancelled it. */
export function cancelMarker(planId: string, login: string): string {
  return `<!-- plangate:cancel ${planId} @${login} -->`;
}

/**
 * True when the comment is still this plan's own record (bot-authored, hash and signature intact)
 * and says `cancelled`: such a change is a cancellation, not an edit that breaks the approval.
 */
export function isCancelledRecord(ctx: RunContext, comment: Comment, planId: string): boolean {
  const verdict = verifyRecordComment(ctx, comment);
  return verdict.ok && verdict.record.planId === planId && verdict.record.status === 'cancelled';
}

/** Who cancelled the plan, from the bot's acknowledgement; undefined when it cannot be found. */
export function cancelledBy(comments: readonly Comment[], botLogin: string, planId: string): string | undefined {
  const pattern = new RegExp(`<!-- plangate:cancel ${planId} @([A-Za-z0-9-]+(?:\\[bot\\])?) -->`);
  for (const comment of [...comments].reverse()) {
    if (comment.author !== botLogin) continue;
    const login = pattern.exec(comment.body)?.[1];
    if (login) return login;
  }
  return undefined;
}
