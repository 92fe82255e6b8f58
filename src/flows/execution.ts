import * as core from '@actions/core';
import type { CommandSource } from '../commands.js';
import type { Comment } from '../github/thread.js';
import { executorOnlyMachine } from '../machine/executor-only.js';
import { plannerExecutorMachine } from '../machine/planner-executor.js';
import type { Snapshot } from '../machine/types.js';
import { hashIssue, type PlanRecord } from '../record/plan-record.js';
import { renderProgressComment } from '../render/progress-comment.js';
import { pullRequestTitle, renderPullRequestBody } from '../render/pull-request.js';
import type { RunView } from '../render/run-view.js';
import { renderUsageTable } from '../render/usage-table.js';
import { commitAll, pushWithLease, startBranch } from '../repo/branch.js';
import { botIdentity } from '../repo/git.js';
import { removePersistedCredentials } from '../repo/git-credentials.js';
import type { FlowResult, RunContext } from '../run-context.js';
import { renderRecord } from './live-record.js';
import { startTeamRun } from './run-team.js';

/**
 * Carries out an approved record: a fresh branch from the plan's base commit, the machine driven to
 * its end with a commit, a lease-protected push and a progress update after every cycle, then a pull
 * request that carries the whole history. Shared by `/approve` and by the policies that execute
 * without one; it is not a flow of its own.
 */
export interface Execution {
  /** The record to carry out, already marked executing with its approver and branch. */
  record: PlanRecord & { approvedBy: string; branch: string };
  /** The plan comment to keep in step with the run; absent when no plan was posted. */
  planComment?: Comment;
  /** The command that started the run, for reactions and the thread. */
  source: CommandSource;
  /** Said in the progress comment and the pull request, e.g. why the planner is missing. */
  notice?: string;
}

export async function execute(ctx: RunContext, execution: Execution): Promise<FlowResult> {
  const { thread, settings } = ctx;
  const { source, notice, planComment } = execution;
  let record = execution.record;
  const { branch } = record;
  const issue = record.issue;
  const definition = record.machine === 'executor-only' ? executorOnlyMachine : plannerExecutorMachine;
  core.info(`Executing ${record.planId} (${record.machine}) on ${branch}, approved by ${record.approvedBy}.`);

  await ensureCommit(ctx, record.base.ref, record.base.sha);
  await startBranch(ctx.git, branch, record.base.sha);
  // Commands may read the workspace: credentials a checkout persisted there must go first.
  const credentials = await removePersistedCredentials(ctx.git);
  if (credentials.removed.length) core.info(`Removed persisted git credentials (${credentials.removed.join(', ')}); plangate passes its token to its own fetch and push only.`);
  if (credentials.kept.length) core.warning(`Git configuration plangate left in place may hold credentials the executor's commands can read: ${credentials.kept.join(', ')}.`);

  const team = startTeamRun(ctx, definition, record.snapshot, record.usage);
  const view = (snapshot: Snapshot, extra: Partial<RunView> = {}): RunView => ({
    planId: record.planId,
    issue,
    isPullRequest: source.thread.isPullRequest,
    approvedBy: record.approvedBy,
    requestedBy: record.requestedBy,
    branch,
    baseRef: record.base.ref,
    runUrl: ctx.runUrl,
    snapshot,
    usage: team.usage(),
    ...(notice ? { notice } : {}),
    ...extra,
  });
  const progress = await thread.postComment(issue, renderProgressComment(view(team.run.snapshot)));

  const author = botIdentity(settings.botLogin);
  let planBody = planComment?.body;
  const writePlan = async (next: PlanRecord) => {
    if (!planComment) return;
    // What GitHub stored is what a later check compares against.
    planBody = (await thread.updateComment(planComment.id, renderRecord(ctx, next))).body;
  };
  let pushed: string | undefined;
  const checkpoint = async (snapshot: Snapshot) => {
    const cycle = snapshot.context.history.length;
    const title = (snapshot.context.history.at(-1)?.directive.split('\n')[0] ?? '').slice(0, 60);
    const sha = await commitAll(ctx.git, `plangate: cycle ${cycle} of plan ${record.planId}: ${title}\n\nRefs #${issue}`, author);
    if (sha) {
      // The first push publishes the work: the approval must still hold right then.
      if (!pushed) await recheckApproval(ctx, record, planComment?.id, planBody);
      await pushWithLease(ctx.git, branch, pushed);
      pushed = sha;
    }
    await thread.updateComment(progress.id, renderProgressComment(view(snapshot)));
  };

  let final: Snapshot;
  try {
    final = await team.drive({ onCycle: checkpoint });
    // Anything left in the workspace after the last cycle (e.g. an aborted cycle) is kept too.
    await checkpoint(final);
  } catch (error) {
    // The run cannot go on (git or GitHub failed): never leave the plan looking as if it still runs.
    const reason = `the run failed: ${error instanceof Error ? error.message : String(error)}`;
    await writePlan({ ...record, status: 'aborted' }).catch(() => undefined);
    await thread
      .updateComment(progress.id, renderProgressComment(view(team.run.snapshot, { ended: { outcome: 'aborted', reason } })))
      .catch(() => undefined);
    throw error;
  }

  const lastCycle = final.context.history.at(-1);
  const aborted = final.abortReason !== undefined || lastCycle?.outcome === 'abort';
  const ended: RunView['ended'] = aborted
    ? { outcome: 'aborted', reason: final.abortReason ?? lastCycle?.result ?? 'the executor aborted' }
    : { outcome: 'done' };
  let pullRequest: { number: number; url: string } | undefined;
  if (pushed) {
    // And again right before the pull request asks anyone to merge it.
    await recheckApproval(ctx, record, planComment?.id, planBody);
    const body = renderPullRequestBody(view(final, { ended }));
    const existing = await thread.findOpenPullRequest(branch, record.base.ref);
    const pr = existing
      ? await thread.updatePullRequest(existing.number, { body })
      : await thread.createPullRequest({
          title: pullRequestTitle(view(final, { ended })),
          head: branch,
          base: record.base.ref,
          body,
          draft: aborted,
        });
    pullRequest = { number: pr.number, url: pr.url };
  }
  // The record keeps the approved snapshot: its hash must keep matching the plan that was shown.
  record = { ...record, status: aborted ? 'aborted' : 'done', ...(pullRequest ? { pullRequest } : {}) };
  await writePlan(record);
  await thread.updateComment(progress.id, renderProgressComment(view(final, { ended, pullRequestUrl: pullRequest?.url })));
  await thread.react(source.commentId, aborted ? '-1' : 'hooray').catch(() => undefined);
  await ctx.writeSummary(
    [
      `### plangate: plan ${record.planId} ${aborted ? 'aborted' : 'done'}`,
      '',
      ...(notice ? [`> ${notice}`, ''] : []),
      pullRequest ? `[Pull request #${pullRequest.number}](${pullRequest.url})` : 'No changes were made, so no pull request was opened.',
      ended.reason ? `\nReason: ${ended.reason}` : '',
      '',
      renderUsageTable(team.usage()),
    ].join('\n'),
  );
  return {
    outcome: aborted ? 'aborted' : 'done',
    planId: record.planId,
    branch: pushed ? branch : undefined,
    prNumber: pullRequest?.number,
    prUrl: pullRequest?.url,
    usage: team.totals(),
  };
}

/**
 * Re-validates an approval before work is published: the plan comment still reads as plangate left
 * it (no edit, no newer status) and the thread's title and body are those the plan was made from.
 */
async function recheckApproval(ctx: RunContext, record: PlanRecord, planCommentId: number | undefined, planBody: string | undefined): Promise<void> {
  const changed: string[] = [];
  if (planCommentId !== undefined) {
    const current = await ctx.thread.getComment(planCommentId).catch(() => undefined);
    if (current?.body !== planBody) changed.push('the plan comment was edited or removed');
  }
  const issue = await ctx.thread.getIssue(record.issue);
  if (hashIssue(issue.title, issue.body) !== record.issueHash) changed.push(`the title or description of #${record.issue} changed`);
  if (changed.length > 0) {
    throw new Error(`the approval of plan ${record.planId} no longer holds (${changed.join('; ')}); nothing more was pushed`);
  }
}

/** Makes sure the plan's base commit is present, even in a shallow checkout. */
async function ensureCommit(ctx: RunContext, ref: string, sha: string): Promise<void> {
  const present = () => ctx.git(['cat-file', '-e', `${sha}^{commit}`]).then(() => true, () => false);
  if (await present()) return;
  await ctx.git(['fetch', '--no-tags', '--quiet', 'origin', ref]).catch(() => undefined);
  if (await present()) return;
  await ctx.git(['fetch', '--no-tags', '--quiet', 'origin', sha]);
}
