import { totalCost } from '../models/usage.js';
import { renderStatus } from '../render/status.js';
import type { CommandOf, FlowResult, RunContext } from '../run/run-context.js';
import { findLiveRecord } from '../run/live-record.js';
import { findCheckpoint } from '../run/checkpoint.js';
import { refuseUnlessRole } from '../run/refuse.js';
import { spellCommands } from '../text/comment-command.js';
import { approvalHold, threadChange } from '../run/approval-hold.js';
import type { PlanRecord } from '../record/plan-record.js';
import type { StatusView } from '../render/status.js';

/**
 * `/status`: where the thread's live plan stands, read from its record and, once it runs, from
 * the checkpoint in its progress comment. It changes nothing, so `read` permission is enough.
 */
export async function statusFlow(ctx: RunContext, command: CommandOf<'status'>): Promise<FlowResult> {
  const { thread, settings } = ctx;
  const issue = command.thread.number;
  const allowed = await refuseUnlessRole(thread, command, '/status', 'read');
  if ('refused' in allowed) return allowed.refused;
  const comments = await thread.listComments(issue);
  const live = await findLiveRecord(ctx, comments, issue);
  if (!live.ok) {
    await thread.postComment(issue, spellCommands(`@${command.author} ${live.refusal}\n\n${live.fix}`, command.prefix));
    return { outcome: 'answered' };
  }
  const { record, comment } = live;
  // Only plangate's own checkpoint says how far the run got: a forged one would mislead the reader.
  const { checkpoint } = await findCheckpoint(ctx, comments, record);
  const snapshot = checkpoint?.snapshot ?? record.snapshot;
  const { serverUrl, owner, repo } = settings.runner;
  const branch = record.branch;
  const pullRequest = record.pullRequest ?? checkpoint?.pullRequest;
  const body = renderStatus(command.author, {
    planId: record.planId,
    status: record.status,
    policy: record.policy,
    state: snapshot.state,
    requestedBy: record.requestedBy,
    ...(record.approvedBy ? { approvedBy: record.approvedBy } : {}),
    planUrl: comment.url,
    steps: snapshot.context.plan?.steps.length ?? 0,
    cycles: snapshot.context.history.length,
    maxIterations: snapshot.policy.maxIterations,
    // The checkpoint's ledger starts from the planning usage, so it covers the whole story.
    costUsd: totalCost(checkpoint?.usage ?? record.usage, settings.prices),
    ...(branch ? { branch: { name: branch, url: `${serverUrl}/${owner}/${repo}/tree/${branch}` } } : {}),
    ...(pullRequest ? { pullRequest } : {}),
    ...(checkpoint?.runId ? { jobUrl: `${serverUrl}/${owner}/${repo}/actions/runs/${checkpoint.runId}` } : {}),
    ...(record.supersededBy ? { note: `plan \`${record.supersededBy}\`` } : {}),
    ...holdOf(ctx, command, record),
  });
  await thread.postComment(issue, spellCommands(body, command.prefix));
  await thread.react(command.commentId, 'eyes', command.origin).catch(() => undefined);
  return { outcome: 'answered', planId: record.planId };
}

/**
 * What a plain `/approve` by a maintainer would run into, judged as `/approve` judges it, so the
 * reply offers only an approval that would be carried out.
 */
function holdOf(
  ctx: RunContext,
  command: CommandOf<'status'>,
  record: PlanRecord,
): Pick<StatusView, 'hold' | 'distinctApprover'> {
  const { settings } = ctx;
  const distinct = settings.requireDistinctApprover ? { distinctApprover: true } : {};
  if (record.status !== 'proposed' || record.policy === 'plan-only') return distinct;
  const changed = threadChange(command.thread, record);
  if (changed) return { ...distinct, hold: { held: 'thread', ...changed } };
  const gate = approvalHold(settings, record, { overBudget: false, role: settings.approvePermission });
  return gate.ok ? distinct : { ...distinct, hold: { held: gate.held, reason: gate.reason, fix: gate.fix } };
}
