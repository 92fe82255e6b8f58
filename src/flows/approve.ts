import * as core from '@actions/core';
import type { Comment } from '../github/thread.js';
import type { Snapshot } from '../machine/types.js';
import { decodeRecord, hasRecordMarker, type PlanRecord } from '../record/plan-record.js';
import { verifyPlanComment } from '../record/verify.js';
import { renderPlanComment } from '../render/plan-comment.js';
import { renderProgressComment } from '../render/progress-comment.js';
import { pullRequestTitle, renderPullRequestBody } from '../render/pull-request.js';
import type { RunView } from '../render/run-view.js';
import { renderUsageTable } from '../render/usage-table.js';
import { commitAll, pushWithLease, startBranch } from '../repo/branch.js';
import { botIdentity } from '../repo/git.js';
import type { CommandOf, FlowResult, RunContext } from '../run-context.js';
import { refuse, refuseUnlessRole } from './refuse.js';
import { startTeamRun } from './run-team.js';

/**
 * `/approve`: verifies that the approver may approve and that the live plan is exactly the one
 * shown, then runs the executor on a fresh branch from the plan's base commit, commits and pushes
 * every cycle, and opens a pull request that carries the whole history.
 */
export async function approveFlow(ctx: RunContext, command: CommandOf<'approve'>): Promise<FlowResult> {
  const { settings, thread } = ctx;
  const issue = command.thread.number;
  const denied = await refuseUnlessRole(thread, command, '/approve', settings.approvePermission, 'Ask a maintainer to approve the plan.');
  if (denied) return denied;
  const found = await findLivePlan(ctx, issue, command.planId);
  if ('refusal' in found) return refuse(thread, command, '/approve', found.refusal, found.fix);
  const { comment, record: proposed } = found;
  if (!settings.executor.apiKey || !settings.planner.apiKey) {
    return refuse(
      thread,
      command,
      '/approve',
      'no API key is configured for the executor or the planner model.',
      'Set the `api-key` input (or `executor-api-key` and `planner-api-key`) from a repository secret.',
    );
  }

  const branch = `${settings.branchPrefix}${issue}-${proposed.planId}`;
  let record: PlanRecord = { ...proposed, status: 'executing', approvedBy: command.author, branch };
  await thread.react(command.commentId, 'rocket');
  await thread.updateComment(comment.id, renderPlanComment(record));
  core.info(`Plan ${record.planId} approved by @${command.author}; executing on ${branch}.`);

  await ensureCommit(ctx, record.base.ref, record.base.sha);
  await startBranch(ctx.git, branch, record.base.sha);

  const team = startTeamRun(ctx, record.snapshot, record.usage);
  const view = (snapshot: Snapshot, extra: Partial<RunView> = {}): RunView => ({
    planId: record.planId,
    issue,
    isPullRequest: command.thread.isPullRequest,
    approvedBy: command.author,
    requestedBy: record.requestedBy,
    branch,
    baseRef: record.base.ref,
    runUrl: ctx.runUrl,
    snapshot,
    usage: team.usage(),
    ...extra,
  });
  const progress = await thread.postComment(issue, renderProgressComment(view(team.run.snapshot)));

  const author = botIdentity(settings.botLogin);
  let pushed: string | undefined;
  const checkpoint = async (snapshot: Snapshot) => {
    const cycle = snapshot.context.history.length;
    const last = snapshot.context.history.at(-1);
    const title = (last?.directive.split('\n')[0] ?? '').slice(0, 60);
    const sha = await commitAll(ctx.git, `plangate: cycle ${cycle} of plan ${record.planId}: ${title}\n\nRefs #${issue}`, author);
    if (sha) {
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
    await thread.updateComment(comment.id, renderPlanComment({ ...record, status: 'aborted' })).catch(() => undefined);
    await thread
      .updateComment(progress.id, renderProgressComment(view(team.run.snapshot, { ended: { outcome: 'aborted', reason } })))
      .catch(() => undefined);
    throw error;
  }

  const aborted = final.abortReason !== undefined || final.trail.some((t) => t.to === 'abort');
  const ended: RunView['ended'] = aborted
    ? { outcome: 'aborted', reason: final.abortReason ?? lastResult(final) }
    : { outcome: 'done' };
  let pullRequest: { number: number; url: string } | undefined;
  if (pushed) {
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
  await thread.updateComment(comment.id, renderPlanComment(record));
  await thread.updateComment(progress.id, renderProgressComment(view(final, { ended, pullRequestUrl: pullRequest?.url })));
  await thread.react(command.commentId, aborted ? '-1' : 'hooray').catch(() => undefined);
  await ctx.writeSummary(
    [
      `### plangate: plan ${record.planId} ${aborted ? 'aborted' : 'done'}`,
      '',
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
  };
}

function lastResult(snapshot: Snapshot): string {
  return snapshot.context.history.at(-1)?.result ?? 'the executor aborted';
}

type Found = { comment: Comment; record: PlanRecord } | { refusal: string; fix: string };

/** The newest plan comment by the bot is the live plan; older ones are superseded. */
async function findLivePlan(ctx: RunContext, issue: number, planId: string | undefined): Promise<Found> {
  const { botLogin } = ctx.settings;
  const candidates = (await ctx.thread.listComments(issue)).filter((c) => c.author === botLogin && hasRecordMarker(c.body));
  const live = candidates.at(-1);
  if (!live) {
    return { refusal: 'there is no plan on this thread to approve.', fix: 'Ask for one first with `/plan <objective>`.' };
  }
  const verdict = verifyPlanComment(live, botLogin, renderPlanComment);
  if (!verdict.ok) {
    return { refusal: `the live plan cannot be trusted: ${verdict.reason}.`, fix: 'Ask for a new plan with `/plan`.' };
  }
  const { record } = verdict;
  if (planId !== undefined && planId !== record.planId) {
    const older = candidates.some((c) => {
      const decoded = decodeRecord(c.body);
      return decoded.ok && decoded.record.planId === planId;
    });
    return older
      ? { refusal: `plan \`${planId}\` was superseded by plan \`${record.planId}\`.`, fix: `Review plan \`${record.planId}\` and approve it with \`/approve ${record.planId}\`.` }
      : { refusal: `there is no plan \`${planId}\` on this thread.`, fix: `The live plan is \`${record.planId}\`; approve it with \`/approve ${record.planId}\`.` };
  }
  switch (record.status) {
    case 'proposed':
      return { comment: live, record };
    case 'approved':
    case 'executing':
      return { refusal: `plan \`${record.planId}\` is already executing.`, fix: 'Wait for the running job to finish.' };
    case 'done':
      return {
        refusal: `plan \`${record.planId}\` is already done${record.pullRequest ? ` (pull request #${record.pullRequest.number})` : ''}.`,
        fix: 'Ask for a new plan with `/plan` to do more.',
      };
    default:
      return { refusal: `plan \`${record.planId}\` is ${record.status}.`, fix: 'Ask for a new plan with `/plan`.' };
  }
}

/** Makes sure the plan's base commit is present, even in a shallow checkout. */
async function ensureCommit(ctx: RunContext, ref: string, sha: string): Promise<void> {
  try {
    await ctx.git(['cat-file', '-e', `${sha}^{commit}`]);
    return;
  } catch {
    // not present yet
  }
  try {
    await ctx.git(['fetch', '--no-tags', '--quiet', 'origin', ref]);
    await ctx.git(['cat-file', '-e', `${sha}^{commit}`]);
  } catch {
    await ctx.git(['fetch', '--no-tags', '--quiet', 'origin', sha]);
  }
}
