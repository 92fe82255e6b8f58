import type { Comment, Thread } from '../github/thread.js';
import type { Git } from '../repo/git.js';
import type { RunContext } from './run-context.js';
import { verifyRecordComment } from './live-record.js';

/**
 * How `/cancel` reaches a running execution: a signal ref on origin tells the run to stop, the plan
 * comment's record says `cancelled`, and the acknowledgement carries who cancelled. Shared by the
 * cancel flow (writer) and the execution (reader).
 */

/** Hidden line in the bot's acknowledgement of a `/cancel`, naming the plan and who cancelled it. */
export function cancelMarker(planId: string, login: string): string {
  return `<!-- plangate:cancel ${planId} @${login} -->`;
}

/**
 * True when the comment is still this plan's own record (bot-authored, hash and signature intact)
 * and says `cancelled`: such a change is a cancellation, not an edit that breaks the approval.
 */
export function isCancelledRecord(ctx: RunContext, comment: Comment, planId: string, issue: number): boolean {
  const verdict = verifyRecordComment(ctx, comment, issue);
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

/**
 * The signal a running execution polls between cycles: a ref on origin, one per plan, so a signal
 * left behind (say, by a `/cancel` of a run that had already died) never stops another plan.
 * `/cancel` creates it through the REST API; the execution reads it with `git ls-remote`, which is
 * git traffic rather than a REST call, so watching for a cancel costs no API call per cycle.
 */
export function cancelSignalRef(issue: number, planId: string): string {
  return `refs/plangate/cancel/${issue}/${planId}`;
}

/** Raises the signal at a commit origin has (the plan's base); a signal already up is left as it is. */
export async function raiseCancelSignal(thread: Thread, issue: number, planId: string, sha: string): Promise<void> {
  await thread.createRef(cancelSignalRef(issue, planId), sha);
}

/** Whether the signal is up. A failed look is no signal: the run goes on, and the next cycle looks again. */
export async function cancelSignalled(git: Git, issue: number, planId: string): Promise<boolean> {
  const ref = cancelSignalRef(issue, planId);
  const out = await git(['ls-remote', 'origin', ref]).catch(() => '');
  // ls-remote matches by tail; only the exact name counts.
  return out.split('\n').some((line) => line.split('\t')[1] === ref);
}

/** Takes the signal down once the run has acted on it; best effort, since a stale one stops nothing else. */
export async function clearCancelSignal(git: Git, issue: number, planId: string): Promise<void> {
  await git(['push', '--quiet', 'origin', `:${cancelSignalRef(issue, planId)}`]).catch(() => undefined);
}
