import * as core from '@actions/core';
import type { CommandOf, FlowResult, RunContext } from '../run/run-context.js';
import { cancelMarker, raiseCancelSignal } from '../run/cancellation.js';
import { commandOnLivePlan } from '../run/command-comment.js';
import { renderRecord } from '../run/live-record.js';
import { refuse, refuseUnlessRole } from '../run/refuse.js';
import { spellCommands } from '../text/comment-command.js';

/**
 * `/cancel`: withdraws the live plan. The record keeps everything but its status, so the comment
 * stays verifiable and a later `/approve` is refused by status. A running execution is not stopped
 * from here (it runs in another job): this raises its cancel signal, which it looks for as it starts
 * and after every cycle; it stops before the next one and fills in its draft pull request with what it has.
 */
export async function cancelFlow(ctx: RunContext, command: CommandOf<'cancel'>): Promise<FlowResult> {
  const { thread, settings } = ctx;
  const issue = command.thread.number;
  const no = (reason: string, fix: string) => refuse(thread, command, '/cancel', reason, fix);
  const allowed = await refuseUnlessRole(thread, command, '/cancel', settings.triggerPermission, 'trigger-permission');
  if ('refused' in allowed) return allowed.refused;
  const live = await commandOnLivePlan(ctx, command, '/cancel');
  if ('refused' in live) return live.refused;
  const { comment, record } = live;
  const id = record.planId;
  let said: string;
  switch (record.status) {
    case 'proposed':
    case 'asking':
    case 'answered':
      said = `plan \`${id}\` is cancelled; it can no longer be approved. Ask for a new one with \`/plan\`.`;
      break;
    case 'approved':
    case 'executing':
      said = `plan \`${id}\` is cancelled. The running execution stops before its next cycle, pushes what it has and fills in its draft pull request, saying so.`;
      break;
    default:
      return no(
        `plan \`${id}\` is already ${record.status}.`,
        'There is nothing to cancel; ask for a new plan with `/plan`.',
      );
  }
  // The signal first: if it cannot be raised, nothing is marked and the failure says so. A proposed
  // plan gets one too: an /approve that read it as proposed a moment ago may be starting in another
  // job, and its "executing" mark could overwrite "cancelled"; the signal is what that job checks.
  if (record.status === 'proposed' || record.status === 'approved' || record.status === 'executing') {
    await raiseCancelSignal(thread, issue, id, record.base.sha);
  }
  await thread.updateComment(comment.id, renderRecord(ctx, { ...record, status: 'cancelled' }));
  core.notice(`Plan ${id} was cancelled by @${command.author}.`);
  // The marker tells a running execution who cancelled, for the reason its pull request gives.
  await thread.postComment(
    issue,
    `@${command.author} ${spellCommands(said, command.prefix)}\n${cancelMarker(id, command.author)}`,
  );
  await thread.react(command.commentId, '+1', command.origin).catch(() => undefined);
  return { outcome: 'aborted', planId: id };
}
