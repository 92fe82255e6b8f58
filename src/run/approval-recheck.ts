import { hashIssue } from '../record/plan-record.js';
import type { RunContext } from './run-context.js';
import { isCancelledRecord } from './cancellation.js';
import type { ApprovedRecord } from './execution-run.js';
import type { PlanCommentSync } from './plan-comment-sync.js';

/**
 * Re-validates an approval right before its work is proposed for merging, in one read: the plan
 * comment still reads as plangate left it (no edit, no newer status) and the thread's title and body
 * are those the plan was made from. Work pushed before is only on the work branch; the pull request
 * is what asks anyone to take it, so it is never opened for a plan that changed mid-run. Answers
 * true when the only change is plangate's own `cancelled` mark: the run must then end as cancelled.
 */
export async function recheckApproval(
  ctx: RunContext,
  record: ApprovedRecord,
  plan: PlanCommentSync,
): Promise<boolean> {
  const changed: string[] = [];
  let cancelledByBot = false;
  const planComment = plan.comment;
  const state = await ctx.thread.approvalState(record.issue, planComment?.nodeId);
  if (planComment) {
    const current =
      state.commentBody === null || state.commentBody === undefined
        ? undefined
        : { ...planComment, body: state.commentBody };
    // A cancellation that lands after the last cycle's look is not an edit: the work is kept and
    // published. Only if plangate wrote it, though: anyone else's edit voids the approval.
    cancelledByBot =
      current !== undefined &&
      isCancelledRecord(ctx, current, record.planId, record.issue) &&
      state.commentEditor === ctx.settings.botLogin;
    if (current?.body !== plan.body && !cancelledByBot) changed.push('the plan comment was edited or removed');
  }
  if (hashIssue(state.title, state.body) !== record.issueHash)
    changed.push(`the title or description of #${record.issue} changed`);
  if (changed.length > 0) {
    throw new Error(
      `the approval of plan ${record.planId} no longer holds (${changed.join('; ')}); its work stays on ${record.branch} and no pull request was opened`,
    );
  }
  return cancelledByBot;
}
