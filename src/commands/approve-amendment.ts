import { approvalExpiry } from '../checks/approval-age.js';
import type { AmendmentRecord } from '../record/amendment-record.js';
import type { Comment } from '../github/thread.js';
import { renderAmendment } from '../run/amendment.js';
import { threadChange } from '../run/approval-hold.js';
import type { LivePlan } from '../run/command-comment.js';
import { execute } from '../run/execution.js';
import { postedBefore } from '../run/live-record.js';
import { refuse } from '../run/refuse.js';
import type { CommandOf, FlowResult, RunContext } from '../run/run-context.js';

/**
 * `/approve <amendment id>`: a maintainer grants what a stopped run asked for. Bound like a plan's
 * approval: by someone with `approve-permission` (checked before this), to the exact amendment the
 * bot posted for the live plan while it executes, written after it and still young; the run then
 * resumes from its checkpoint with the wider scope (run/execution.ts checks it waits for this one).
 */
export async function approveAmendment(
  ctx: RunContext,
  command: CommandOf<'approve'>,
  live: LivePlan,
  found: { comment: Comment; amendment: AmendmentRecord },
): Promise<FlowResult> {
  const { settings, thread } = ctx;
  const { record, comment: planComment, comments } = live;
  const { comment, amendment } = found;
  const id = amendment.amendmentId;
  const no = (reason: string, fix: string) => refuse(thread, command, '/approve', reason, fix);
  const createdAt = command.origin?.createdAt ?? comments.find((c) => c.id === command.commentId)?.createdAt ?? '';
  const expired = approvalExpiry({
    planId: id,
    createdAt,
    now: ctx.now(),
    maxAgeHours: settings.approvalMaxAgeHours,
  });
  if (expired) return no(expired.reason, expired.fix);
  if (!postedBefore(comment, { id: command.origin ? Number.MAX_SAFE_INTEGER : command.commentId, createdAt }))
    return no(
      `amendment \`${id}\` was posted after this approval was written.`,
      `Review it and reply \`/approve ${id}\`.`,
    );
  if (record.status !== 'executing')
    return no(
      `plan \`${record.planId}\` is ${record.status}, so amendment \`${id}\` no longer applies.`,
      'Ask for a new plan with `/plan`.',
    );
  if (amendment.status === 'superseded')
    return no(`amendment \`${id}\` was superseded.`, 'Approve the amendment the progress comment names.');
  if (settings.requireDistinctApprover && command.author === record.requestedBy)
    return no(
      `@${command.author} asked for plan \`${record.planId}\`, and this repository requires a different person to approve its amendments.`,
      'Ask another maintainer to approve.',
    );
  const changed = threadChange(command.thread, record);
  if (changed) return no(changed.reason, changed.fix);
  const approvedBy = amendment.approvedBy ?? command.author;
  if (amendment.status === 'proposed')
    await thread.updateComment(comment.id, renderAmendment(ctx, { ...amendment, status: 'approved', approvedBy }));
  await thread.react(command.commentId, 'rocket', command.origin);
  if (!record.approvedBy || !record.branch) throw new Error(`plan ${record.planId} is executing without a branch`);
  return execute(ctx, {
    record: { ...record, approvedBy: record.approvedBy, branch: record.branch },
    planComment,
    source: command,
    comments,
    amendment: { ...amendment, approvedBy },
  });
}
