import { initialSnapshot } from '../machine/planner-executor.js';
import type { CommandOf, FlowResult, RunContext } from '../run/run-context.js';
import { stripHidden } from '../text/untrusted.js';
import { commandOnLivePlan } from '../run/command-comment.js';
import { planInThread } from '../run/review-context.js';
import { resolveBase } from '../run/work-base.js';
import { failUnlessKeys, refuse, refuseUnlessRole } from '../run/refuse.js';

/**
 * `/revise <feedback>`: the planner plans again from the live plan and the maintainer's feedback.
 * The result is a new plan with a new id; the old one is marked superseded by it.
 */
export async function reviseFlow(ctx: RunContext, command: CommandOf<'revise'>): Promise<FlowResult> {
  const { settings, thread } = ctx;
  const no = (reason: string, fix: string) => refuse(thread, command, '/revise', reason, fix);
  const allowed = await refuseUnlessRole(thread, command, '/revise', settings.triggerPermission, 'trigger-permission');
  if ('refused' in allowed) return allowed.refused;
  const noKey = await failUnlessKeys(ctx, command, '/revise', ['planner'], allowed.role);
  if (noKey) return noKey;
  const feedback = stripHidden(command.feedback).trim();
  if (!feedback) return no('there is no feedback.', 'Say what to change: `/revise <feedback>`.');
  const live = await commandOnLivePlan(ctx, command, '/revise');
  if ('refused' in live) return live.refused;
  const { record, comments } = live;
  const { plan } = record.snapshot.context;
  if (record.status !== 'proposed' || !plan) {
    return no(
      `plan \`${record.planId}\` is ${record.status}, so there is nothing to revise.`,
      'Ask for a new plan with `/plan <objective>`.',
    );
  }
  await thread.react(command.commentId, 'eyes', command.origin);
  const base = await resolveBase(ctx, command);
  if ('refusal' in base) return no(base.refusal, base.fix);
  const { context, policy } = record.snapshot;
  const snapshot = initialSnapshot(context.objective, policy);
  snapshot.context = {
    ...snapshot.context,
    ...(context.clarifications ? { clarifications: context.clarifications } : {}),
    revisions: [...(context.revisions ?? []), { plan, feedback }],
  };
  // Whoever steered the revision asked for the plan it makes (require-distinct-approver).
  return planInThread(
    ctx,
    { source: command, requestedBy: command.author, snapshot, base, spent: record.usage, comments },
    new Map([[command.author, allowed.role]]),
  );
}
