import type { CommandOf, FlowResult, RunContext } from '../run/run-context.js';
import type { PlanRecord } from '../record/plan-record.js';
import { approvalExpiry } from '../checks/approval-age.js';
import { approvalHold, threadChange } from '../run/approval-hold.js';
import { commandOnLivePlan } from '../run/command-comment.js';
import { planLiveAt, postedBefore } from '../run/live-record.js';
import { execute } from '../run/execution.js';
import { branchFor } from '../run/work-base.js';
import { failUnlessKeys, refuse, refuseUnlessRole } from '../run/refuse.js';
import { findAmendment } from '../run/amendment.js';
import { approveAmendment } from './approve-amendment.js';

/**
 * `/approve`: verifies that the approver may approve and that the live plan is exactly the one
 * shown and still open, then carries it out.
 */
export async function approveFlow(ctx: RunContext, command: CommandOf<'approve'>): Promise<FlowResult> {
  const { settings, thread } = ctx;
  const issue = command.thread.number;
  const no = (reason: string, fix: string) => refuse(thread, command, '/approve', reason, fix);
  const allowed = await refuseUnlessRole(thread, command, '/approve', settings.approvePermission, 'approve-permission');
  if ('refused' in allowed) return allowed.refused;
  const noKey = await failUnlessKeys(ctx, command, '/approve', ['executor', 'planner'], allowed.role);
  if (noKey) return noKey;
  const live = await commandOnLivePlan(ctx, command, '/approve');
  if ('refused' in live) return live.refused;
  const { comment, record, comments } = live;
  // `/approve <amendment id>` widens a run that stopped to ask for more.
  if (command.planId !== undefined && command.planId !== record.planId) {
    const found = await findAmendment(ctx, comments, record, command.planId);
    if (found && 'refusal' in found) return no(found.refusal, 'Ask for a new plan with `/plan`.');
    if (found) return approveAmendment(ctx, command, live, found);
  }
  const refusal = approvalRefusal(ctx, command, live);
  if (refusal) return no(refusal.reason, refusal.fix);
  // The checks bind an approval like the plan does: what the comment showed, and what this run would enforce.
  const gate = approvalHold(settings, record, { overBudget: command.overBudget === true, role: allowed.role });
  if (!gate.ok) return no(gate.reason, gate.fix);

  const executing = {
    ...record,
    status: 'executing' as const,
    approvedBy: record.approvedBy ?? command.author,
    branch: branchFor(ctx, issue, record.planId, record),
  };
  await thread.react(command.commentId, 'rocket', command.origin);
  return execute(ctx, { record: executing, planComment: comment, source: command, comments });
}

type Refusal = { reason: string; fix: string };
type LivePlan = Extract<Awaited<ReturnType<typeof commandOnLivePlan>>, { record: PlanRecord }>;

/** Why this approval cannot approve the live plan: too old, the wrong plan, a changed thread, the wrong person. */
function approvalRefusal(ctx: RunContext, command: CommandOf<'approve'>, live: LivePlan): Refusal | undefined {
  const { settings } = ctx;
  const no = (reason: string, fix: string): Refusal => ({ reason, fix });
  const { comment, record, comments } = live;
  const id = record.planId;
  // An approval approves the plan that was live when its comment was written: never one posted after
  // it (by a /revise while the approval waited in the queue, or before a re-run of an old approval job).
  // One written in a review is not among the thread's comments; its own time orders it all the same.
  const approval = command.origin
    ? {
        id: Number.MAX_SAFE_INTEGER,
        nodeId: '',
        body: command.body,
        author: command.author,
        url: command.commentUrl,
        createdAt: command.origin.createdAt,
        updatedAt: command.origin.createdAt,
      }
    : comments.find((c) => c.id === command.commentId);
  // An approval counts for a while only (approval-max-age-hours), by GitHub's time of its comment:
  // a re-run of an old job replays the event, and must not execute on it weeks later.
  const expired = approvalExpiry({
    planId: id,
    createdAt: approval?.createdAt ?? '',
    now: ctx.now(),
    maxAgeHours: settings.approvalMaxAgeHours,
  });
  if (expired) return expired;
  if (approval && !postedBefore(comment, approval)) {
    const seen = planLiveAt(ctx, comments, approval);
    return no(
      `plan \`${id}\` was posted after this approval was written${seen ? `; the approval was for plan \`${seen}\`, which plan \`${id}\` replaced` : ''}.`,
      `Review plan \`${id}\` and approve it with a new comment: \`/approve ${id}\`.`,
    );
  }
  if (command.planId !== undefined && command.planId !== id) {
    return live.earlierIds.includes(command.planId)
      ? no(
          `plan \`${command.planId}\` was superseded by plan \`${id}\`.`,
          `Review plan \`${id}\` and approve it with \`/approve ${id}\`.`,
        )
      : no(
          `there is no plan \`${command.planId}\` on this thread.`,
          `The live plan is \`${id}\`; approve it with \`/approve ${id}\`.`,
        );
  }
  const notOpen = statusRefusal(record);
  if (notOpen) return notOpen;
  if (settings.requireDistinctApprover && command.author === record.requestedBy) {
    return no(
      `@${command.author} asked for plan \`${id}\`, and this repository requires a different person to approve it.`,
      'Ask another maintainer to approve.',
    );
  }
  // The approval is bound to the thread the plan was made from, as well as to the plan itself.
  const changed = threadChange(command.thread, record);
  if (changed) return changed;
  if (record.policy === 'plan-only') {
    return no(
      `plan \`${id}\` was made under the \`plan-only\` policy and is not for execution.`,
      'Change the `policy` input to `plan-for-approval` and ask for a new plan.',
    );
  }
  return undefined;
}

/**
 * Why a plan in this status cannot be approved; undefined for a proposed plan, and for one already
 * approved or executing: either it runs right now (the lock will say so, with its job) or an earlier
 * run died, and the approval resumes it.
 */
function statusRefusal(record: PlanRecord): { reason: string; fix: string } | undefined {
  const id = record.planId;
  switch (record.status) {
    case 'proposed':
    case 'approved':
    case 'executing':
      return undefined;
    case 'asking':
      return {
        reason: `the planner asked a question and has no plan yet.`,
        fix: 'Answer it with `/answer <your answer>`; the plan follows.',
      };
    case 'answered':
      return {
        reason: 'the latest `/plan` found nothing to change, so there is no plan to approve.',
        fix: 'Comment `/plan` with a new objective.',
      };
    case 'done':
      return {
        reason: `plan \`${id}\` is already done${record.pullRequest ? `: ${record.pullRequest.url}` : ''}.`,
        fix: 'Ask for a new plan with `/plan` to do more.',
      };
    default:
      return { reason: `plan \`${id}\` is ${record.status}.`, fix: 'Ask for a new plan with `/plan`.' };
  }
}
