import { plannerExecutorMachine } from '../machine/planner-executor.js';
import { reduce } from '../machine/reducer.js';
import type { CommandOf, FlowResult, RunContext } from '../run/run-context.js';
import { stripHidden } from '../text/untrusted.js';
import { commandOnLivePlan } from '../run/command-comment.js';
import { planAndPublish } from '../run/planning.js';
import { failUnlessKeys, refuse, refuseUnlessRole } from '../run/refuse.js';

/**
 * `/answer <text>`: answers the planner's question. Planning resumes from the recorded snapshot with
 * the answer in the planner's context, at the same base commit the question was asked about.
 */
export async function answerFlow(ctx: RunContext, command: CommandOf<'answer'>): Promise<FlowResult> {
  const { settings, thread } = ctx;
  const no = (reason: string, fix: string) => refuse(thread, command, '/answer', reason, fix);
  // Checked now, for whoever answers: the requester too may have lost the permission since asking.
  const allowed = await refuseUnlessRole(thread, command, '/answer', settings.triggerPermission, 'trigger-permission');
  if ('refused' in allowed) return allowed.refused;
  const noKey = await failUnlessKeys(ctx, command, '/answer', ['planner'], allowed.role);
  if (noKey) return noKey;
  const live = await commandOnLivePlan(ctx, command, '/answer');
  if ('refused' in live) return live.refused;
  const { record, comments } = live;
  if (record.status !== 'asking') {
    return no(
      'the planner has no open question on this thread.',
      'Use `/revise <feedback>` to change a plan, or `/plan` for a new one.',
    );
  }
  const text = stripHidden(command.text).trim();
  if (!text) return no('the answer is empty.', 'Write it after the command: `/answer <your answer>`.');
  await thread.react(command.commentId, 'eyes', command.origin);
  const snapshot = reduce(plannerExecutorMachine, record.snapshot, { type: 'answer', text });
  // The answer shapes the plan: its author is the plan's requester from here on (require-distinct-approver).
  return planAndPublish(ctx, {
    source: command,
    requestedBy: command.author,
    snapshot,
    base: { ...record.base, ...(record.sameBranch ? { sameBranch: true } : {}) },
    ...(record.reviewThreads ? { reviewThreads: record.reviewThreads } : {}),
    spent: record.usage,
    comments,
  });
}
