import * as core from '@actions/core';
import type { CommandSource } from './command.js';
import type { Comment } from '../github/thread.js';
import { executorOnlyMachine } from '../machine/executor-only.js';
import { plannerExecutorMachine } from '../machine/planner-executor.js';
import type { Snapshot } from '../machine/types.js';
import { hashIssue, type PlanRecord } from '../record/plan-record.js';
import { decodeRunRecord, encodeRunRecord, type RunRecord } from '../record/run-record.js';
import { fitBody, githubBodyLimit } from '../text/limits.js';
import { progressMarker, renderProgressComment } from '../render/progress-comment.js';
import { pullRequestHistoryFits, pullRequestTitle, renderPullRequestBody } from '../render/pull-request.js';
import { historyChunkMarker, renderHistoryChunks } from '../render/history.js';
import { renderSummaryDetails } from '../render/summary-details.js';
import { createBudget } from '../agents/budget.js';
import { readRepositoryInstructions } from '../agents/repository-instructions.js';
import type { RunView } from '../render/run-view.js';
import { renderUsageTable } from '../render/usage-table.js';
import { renderCostComparison } from '../render/checks.js';
import { commitTrailers } from '../render/commit-trailers.js';
import { renderDiagram } from '../render/diagram.js';
import { botIdentity } from '../repo/git.js';
import { mergeKeptOut, stageChecked, type KeptOutChange } from '../repo/change-gate.js';
import type { FlowResult, RunContext } from './run-context.js';
import { renderRecord } from './live-record.js';
import { cancelledBy, cancelSignalled, clearCancelSignal, isCancelledRecord } from './cancellation.js';
import { instructionsCommit } from './instructions-source.js';
import { startTeamRun } from './run-team.js';
import { createNotices } from '../agents/notices.js';
import { ForeignPushError, openWorkBranch, PushDeniedError } from './work-branch.js';
import { refuse } from './refuse.js';
import { explainGitHubError } from '../github/errors.js';

/**
 * Carries out an approved record: the work branch (fresh from the plan's base commit, or resumed
 * from the last checkpoint), the machine driven to its end with a commit, a lease-protected push and
 * a checkpoint in the progress comment after every cycle, then one pull request that carries the
 * whole history. Shared by `/approve` and the policies that execute without one; not a flow itself.
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
  /** The thread's comments as read at the start of the run: an earlier attempt's checkpoint is among them. */
  comments: readonly Comment[];
  /** The clock the progress comment's elapsed time reads; tests pass a fixed one. */
  now?: () => number;
}

/** The run record can grow with a long history; past this it is left out rather than cut. */
const maxCheckpointChars = 48_000;

/** Kept-out changes the checkpoint carries: enough to report, never enough to crowd the record out. */
const maxRecordedKeptOut = 100;
const maxRecordedKeptOutChars = 8_000;

/** The first kept-out changes (by path) that fit the checkpoint's share. */
function recordedKeptOut(keptOut: readonly KeptOutChange[]): KeptOutChange[] {
  const out: KeptOutChange[] = [];
  let chars = 0;
  for (const change of keptOut) {
    chars += change.path.length + change.reason.length + 40;
    if (out.length >= maxRecordedKeptOut || chars > maxRecordedKeptOutChars) break;
    out.push(change);
  }
  return out;
}

export async function execute(ctx: RunContext, execution: Execution): Promise<FlowResult> {
  const { record, source } = execution;
  // One execution per issue: a second one answers with the job that holds the lock.
  const lock = await ctx.lock.acquire(record.issue, record.base.sha);
  if (!lock.acquired) {
    const { holder } = lock;
    const where = holder.runUrl ? `in ${holder.runUrl}` : `in run ${holder.runId}`;
    return refuse(
      ctx.thread,
      source,
      '/approve',
      `plan \`${record.planId}\` is executing ${where}${holder.problem ? ` (${holder.problem})` : ''}.`,
      'Wait for that job to finish; if it died, re-run it or comment `/approve` again to resume.',
    );
  }
  try {
    return await executeLocked(ctx, execution);
  } finally {
    await lock.release();
  }
}

async function executeLocked(ctx: RunContext, execution: Execution): Promise<FlowResult> {
  const { thread, settings } = ctx;
  const { source, notice } = execution;
  let record = execution.record;
  const { branch, planId, issue } = record;
  let planComment = execution.planComment;
  if (planComment && planComment.body !== renderRecord(ctx, record)) {
    planComment = await thread.updateComment(planComment.id, renderRecord(ctx, record));
  }
  // A /cancel that read the plan as still proposed raised the signal while this job was starting;
  // the "executing" mark just written may have overwritten its "cancelled", so the signal decides.
  if (await cancelSignalled(ctx.git, issue, planId)) {
    if (planComment) await thread.updateComment(planComment.id, renderRecord(ctx, { ...record, status: 'cancelled' }));
    await clearCancelSignal(ctx.git, issue, planId);
    return refuse(thread, source, '/approve', `plan \`${planId}\` was cancelled while this approval was starting.`, 'Ask for a new plan with `/plan`.');
  }
  const definition = record.machine === 'executor-only' ? executorOnlyMachine : plannerExecutorMachine;

  // An earlier attempt of this plan (a killed or failed job, an earlier /approve) left a checkpoint.
  const previous = execution.comments.find((c) => c.author === settings.botLogin && c.body.includes(progressMarker(planId)));
  const checkpoint = previous ? await trustedCheckpoint(ctx, previous, planId) : undefined;
  const snapshot = checkpoint?.snapshot ?? record.snapshot;
  core.info(`${checkpoint ? 'Resuming' : 'Executing'} ${planId} (${record.machine}) on ${branch}, approved by ${record.approvedBy}.`);

  await ensureCommit(ctx, record.base.ref, record.base.sha);
  let planBody = planComment?.body;
  const author = botIdentity(settings.botLogin);
  const work = await openWorkBranch(ctx.git, {
    branch,
    baseSha: record.base.sha,
    author,
    checkpointed: checkpoint?.pushed,
    protectedPaths: settings.protectedPaths,
    trailers: commitTrailers({ planId, approvedBy: record.approvedBy, requestedBy: record.requestedBy, botLogin: settings.botLogin }),
  });

  // The base commit's (the default branch's, for work based elsewhere), never the work branch's: the
  // executor may have rewritten them there.
  const instructions = await readRepositoryInstructions(ctx.git, instructionsCommit(record.base, ctx.trusted));
  /** Changes the commit gate kept out over the whole run, a resumed one included. */
  let keptOut: KeptOutChange[] = checkpoint?.keptOut ?? [];
  // What the host says to the executor between its turns: changes the commit gate kept out.
  const notices = createNotices();
  const told = new Set<string>();
  /** Records what the gate kept out and tells the executor what it has not been told yet. */
  const keep = (found: readonly KeptOutChange[]): string | undefined => {
    keptOut = mergeKeptOut(keptOut, found);
    const fresh = found.filter((c) => !told.has(`${c.path}\0${c.change}`));
    for (const c of fresh) told.add(`${c.path}\0${c.change}`);
    return fresh.length > 0 ? keptOutNotice(fresh) : undefined;
  };
  const team = startTeamRun(ctx, definition, snapshot, checkpoint?.usage ?? record.usage, instructions, {
    notices,
    // Checked right after each command, so the command's own result says what will not land.
    afterCommand: async () => keep(await stageChecked(ctx.git, settings.protectedPaths)),
  });
  // Started before the first progress comment (the team's drive gets the same answer), so servers
  // that did not start are named there from the first post on, and in the pull request.
  const serverFailures = (await ctx.mcp?.start())?.failures ?? [];
  let pullRequest = checkpoint?.pullRequest;
  const now = execution.now ?? Date.now;
  const startedAt = checkpoint?.startedAt ?? now();
  const { serverUrl, owner, repo } = settings.runner;
  const branchUrl = `${serverUrl}/${owner}/${repo}/tree/${branch}`;
  const view = (s: Snapshot, extra: Partial<RunView> = {}): RunView => ({
    planId,
    issue,
    isPullRequest: source.thread.isPullRequest,
    approvedBy: record.approvedBy,
    requestedBy: record.requestedBy,
    branch,
    baseRef: record.base.ref,
    runUrl: ctx.runUrl,
    snapshot: s,
    ...(record.snapshot.context.plan ? { approvedPlan: record.snapshot.context.plan } : {}),
    usage: team.usage(),
    ...(notice ? { notice } : {}),
    ...(record.checks ? { estimate: record.checks.estimate } : {}),
    ...(pullRequest ? { pullRequestUrl: pullRequest.url } : {}),
    ...(keptOut.length > 0 ? { keptOut } : {}),
    ...extra,
  });
  /** The progress comment with the checkpoint at its end; the checkpoint is never cut. */
  const progressBody = (s: Snapshot, extra: Partial<RunView> = {}) => {
    const run: RunRecord = { v: 1, planId, snapshot: s, usage: team.ledger(), runId: settings.runner.runId, ...(work.pushed ? { pushed: work.pushed } : {}), ...(pullRequest ? { pullRequest } : {}), ...(keptOut.length > 0 ? { keptOut: recordedKeptOut(keptOut) } : {}), startedAt };
    const marker = encodeRunRecord(run);
    const visible = renderProgressComment(view(s, extra), { startedAt, now, branchUrl, serverFailures });
    if (marker.length > maxCheckpointChars) {
      core.warning(`The checkpoint of plan ${planId} is too large to save (${marker.length} characters); a re-run would start from the approved plan on the same branch.`);
      return visible;
    }
    return `${fitBody(visible, githubBodyLimit - marker.length - 1)}\n${marker}`;
  };
  const progress = previous
    ? await thread.updateComment(previous.id, progressBody(team.run.snapshot))
    : await thread.postComment(issue, progressBody(team.run.snapshot), { dedupe: progressMarker(planId) });
  const saveProgress = (s: Snapshot, extra: Partial<RunView> = {}) => thread.updateComment(progress.id, progressBody(s, extra));
  /** Set once a `/cancel` is seen: the run's end then keeps the record `cancelled`. */
  let cancelled = false;
  const writePlan = async (next: PlanRecord) => {
    if (!planComment) return;
    const written = cancelled && next.status !== 'executing' ? { ...next, status: 'cancelled' as const } : next;
    // What GitHub stored is what a later check compares against.
    planBody = (await thread.updateComment(planComment.id, renderRecord(ctx, written))).body;
  };
  const commitCycle = async (s: Snapshot) => {
    const cycle = s.context.history.length;
    const title = (s.context.history.at(-1)?.directive.split('\n')[0] ?? '').slice(0, 60);
    const committed = await work.checkpoint(`plangate: cycle ${cycle} of plan ${planId}: ${title}\n\nRefs #${issue}`);
    const notice = keep(committed.keptOut);
    if (notice) notices.post(notice);
  };

  /**
   * `/cancel` runs in another job: it raises the plan's cancel signal on origin and marks the plan
   * comment. One `git ls-remote` per cycle sees the signal (git traffic, no API call), and a host
   * abort sends the run down the ordinary abort path: commit, push, draft pull request.
   */
  const stopIfCancelled = async (s: Snapshot) => {
    if (!planComment || cancelled || (s.state !== 'replan' && s.state !== 'execute')) return;
    if (!(await cancelSignalled(ctx.git, issue, planId))) return;
    team.run.dispatch({ type: 'abort', reason: await noteCancel() });
  };
  /** Remembers a seen `/cancel` and answers the reason to give for it. */
  const noteCancel = async (): Promise<string> => {
    cancelled = true;
    // Seen is enough: from here the run remembers it, and the plan comment keeps the plan withdrawn.
    await clearCancelSignal(ctx.git, issue, planId);
    const by = cancelledBy(await thread.listComments(issue).catch(() => []), settings.botLogin, planId);
    return by ? `cancelled by @${by}` : 'cancelled on the thread';
  };

  let final: Snapshot;
  try {
    const budget = createBudget({
      now: Date.now,
      startedAt: Date.now(),
      timeoutMinutes: settings.timeoutMinutes,
      maxCostUsd: settings.maxCostUsd,
      spentUsd: () => team.totals().costUsd,
    });
    final = await team.drive({
      budget,
      onCycle: async (s) => {
        await commitCycle(s);
        await saveProgress(s);
        await stopIfCancelled(s);
      },
    });
    // Anything left in the workspace after the last cycle (e.g. an aborted cycle) is kept too. Its
    // checkpoint is the final save below (or the failure's): a job killed before that finishes again.
    await commitCycle(final);
  } catch (error) {
    if (error instanceof ForeignPushError) {
      const ended = { outcome: 'aborted' as const, reason: error.message };
      record = { ...record, status: 'aborted' };
      await writePlan(record).catch(() => undefined);
      await saveProgress(team.run.snapshot, { ended }).catch(() => undefined);
      await thread.react(source.commentId, '-1').catch(() => undefined);
      return { outcome: 'aborted', planId, branch, usage: team.totals() };
    }
    // The plan stays `executing`: a re-run of the job or a new /approve resumes from the last checkpoint.
    const reason = `${error instanceof PushDeniedError ? '' : 'the run was interrupted: '}${error instanceof Error ? error.message : String(error)}`;
    await saveProgress(team.run.snapshot, { interrupted: reason }).catch(() => undefined);
    throw error;
  }

  const lastCycle = final.context.history.at(-1);
  // A cancel during the last cycle has no next cycle to stop; the run still ends as cancelled.
  const lateCancel = planComment && !cancelled && (await cancelSignalled(ctx.git, issue, planId)) ? await noteCancel() : undefined;
  let aborted = lateCancel !== undefined || final.abortReason !== undefined || lastCycle?.outcome === 'abort';
  let ended: RunView['ended'] = aborted
    ? { outcome: 'aborted', reason: lateCancel ?? final.abortReason ?? lastCycle?.result ?? 'the executor aborted' }
    : { outcome: 'done' };
  if (work.pushed) {
    // Right before the pull request asks anyone to merge it, the approval must still hold.
    try {
      // The plan comment may say `cancelled` by now although the signal was missed (a failed look).
      if ((await recheckApproval(ctx, record, planComment, planBody)) && !cancelled) {
        aborted = true;
        ended = { outcome: 'aborted', reason: await noteCancel() };
      }
    } catch (error) {
      await saveProgress(final, { interrupted: error instanceof Error ? error.message : String(error) }).catch(() => undefined);
      throw error;
    }
    // What a reviewer will find in the files tab, in short; a failing diff only costs the section.
    const diffStat = await ctx.git(['diff', '--stat=100', `${record.base.sha}..${work.pushed}`]).catch(() => '');
    const finalView = view(final, { ended, diffStat });
    const fits = pullRequestHistoryFits(finalView, { serverFailures });
    const body = renderPullRequestBody(finalView, { serverFailures, ...(fits ? {} : { fullHistoryIn: 'comments' as const }) });
    let pr: { number: number; url: string };
    try {
      pr = pullRequest
        ? await thread.updatePullRequest(pullRequest.number, { body })
        : await thread.createPullRequest({ title: pullRequestTitle(finalView), head: branch, base: record.base.ref, body, draft: aborted || settings.prDraft });
    } catch (error) {
      // The work is pushed and checkpointed as finished: a re-run only opens the pull request.
      const { kind, message } = explainGitHubError(error);
      await saveProgress(final, { interrupted: `the pull request could not be opened: ${message}` }).catch(() => undefined);
      if (kind === 'pull-requests-disabled' || kind === 'missing-permission') {
        await thread.postComment(
          issue,
          `@${source.author} the work for plan \`${planId}\` is pushed to \`${branch}\`, but the pull request could not be opened: ${message}\n\nFix that, then re-run the job (or comment \`/approve ${planId}\`); plangate will open the pull request once.`,
        );
        return { outcome: 'failed', planId, branch, usage: team.totals() };
      }
      throw error;
    }
    if (!pullRequest) await dressPullRequest(ctx, pr.number, record.approvedBy);
    pullRequest = { number: pr.number, url: pr.url };
    if (!fits) {
      // The PR body says where the full history is: here, in parts, each posted once.
      const parts = renderHistoryChunks(final.context.history, planId);
      for (const [i, part] of parts.entries()) {
        await thread.postComment(pr.number, part, { dedupe: historyChunkMarker(planId, i + 1) });
      }
    }
  }
  // The record keeps the approved snapshot: its hash must keep matching the plan that was shown.
  record = { ...record, status: aborted ? 'aborted' : 'done', ...(pullRequest ? { pullRequest } : {}) };
  await writePlan(record);
  await saveProgress(final, { ended });
  // Success needs no reaction: the progress comment and the pull request say so. An abort is flagged on the command.
  if (aborted) await thread.react(source.commentId, '-1').catch(() => undefined);
  await ctx.writeSummary(
    [
      `### plangate: plan ${planId} ${aborted ? 'aborted' : 'done'}`,
      '',
      ...(notice ? [`> ${notice}`, ''] : []),
      pullRequest ? `[Pull request #${pullRequest.number}](${pullRequest.url})` : 'No changes were made, so no pull request was opened.',
      ended.reason ? `\nReason: ${ended.reason}` : '',
      '',
      renderDiagram(final),
      '',
      renderUsageTable(team.usage()),
      '',
      ...(record.checks ? [renderCostComparison(record.checks.estimate, team.usage()), ''] : []),
      renderSummaryDetails(final.context),
    ].join('\n'),
  );
  return {
    outcome: aborted ? 'aborted' : 'done',
    planId,
    branch: work.pushed ? branch : undefined,
    prNumber: pullRequest?.number,
    prUrl: pullRequest?.url,
    usage: team.totals(),
  };
}

/**
 * Labels and the approver as reviewer make the pull request land in the queues maintainers watch.
 * Neither is worth failing a run whose work is already pushed: a refusal becomes a warning.
 */
async function dressPullRequest(ctx: RunContext, number: number, approvedBy: string): Promise<void> {
  const { thread, settings } = ctx;
  if (settings.prLabels.length > 0) {
    await thread.addLabels(number, settings.prLabels).catch((error: unknown) => {
      core.warning(`Could not label pull request #${number} (${settings.prLabels.join(', ')}): ${explainGitHubError(error).message}`);
    });
  }
  // GitHub refuses a review request to the pull request's author, which is the bot itself.
  const account = (login: string) => login.replace(/\[bot\]$/, '').toLowerCase();
  if (approvedBy === '' || approvedBy.endsWith('[bot]') || account(approvedBy) === account(settings.botLogin)) return;
  await thread.requestReviewers(number, [approvedBy]).catch((error: unknown) => {
    core.warning(`Could not request a review of pull request #${number} from @${approvedBy}: ${explainGitHubError(error).message}`);
  });
}

/**
 * A checkpoint is resumed only from a progress comment the bot wrote and last edited: a forged or
 * edited checkpoint could otherwise hand the executor different directives.
 */
async function trustedCheckpoint(ctx: RunContext, comment: Comment, planId: string): Promise<RunRecord | undefined> {
  const run = decodeRunRecord(comment.body);
  if (!run || run.planId !== planId) return undefined;
  // The thread listing says who last edited it; only a comment from elsewhere needs asking.
  const editor = comment.editor !== undefined ? comment.editor : (await ctx.thread.lastEditor(comment.nodeId)).editor;
  // Exactly the bot (the thread spells an app's bot as REST does): nothing folded.
  if (editor !== null && editor !== ctx.settings.botLogin) {
    core.warning(`The checkpoint of plan ${planId} was edited by @${editor}; starting from the approved plan instead.`);
    return undefined;
  }
  return run;
}

/**
 * Re-validates an approval right before its work is proposed for merging, in one read: the plan
 * comment still reads as plangate left it (no edit, no newer status) and the thread's title and body
 * are those the plan was made from. Work pushed before is only on the work branch; the pull request
 * is what asks anyone to take it, so it is never opened for a plan that changed mid-run. Answers
 * true when the only change is plangate's own `cancelled` mark: the run must then end as cancelled.
 */
async function recheckApproval(ctx: RunContext, record: PlanRecord & { branch: string }, planComment: Comment | undefined, planBody: string | undefined): Promise<boolean> {
  const changed: string[] = [];
  let cancelledByBot = false;
  const state = await ctx.thread.approvalState(record.issue, planComment?.nodeId);
  if (planComment) {
    const current = state.commentBody === null || state.commentBody === undefined ? undefined : { ...planComment, body: state.commentBody };
    // A cancellation that lands after the last cycle's look is not an edit: the work is kept and
    // published. Only if plangate wrote it, though: anyone else's edit voids the approval.
    cancelledByBot = current !== undefined && isCancelledRecord(ctx, current, record.planId, record.issue) && state.commentEditor === ctx.settings.botLogin;
    if (current?.body !== planBody && !cancelledByBot) changed.push('the plan comment was edited or removed');
  }
  if (hashIssue(state.title, state.body) !== record.issueHash) changed.push(`the title or description of #${record.issue} changed`);
  if (changed.length > 0) {
    throw new Error(
      `the approval of plan ${record.planId} no longer holds (${changed.join('; ')}); its work stays on ${record.branch} and no pull request was opened`,
    );
  }
  return cancelledByBot;
}


/** Makes sure the plan's base commit is present, even in a shallow checkout. */
async function ensureCommit(ctx: RunContext, ref: string, sha: string): Promise<void> {
  const present = () => ctx.git(['cat-file', '-e', `${sha}^{commit}`]).then(() => true, () => false);
  if (await present()) return;
  await ctx.git(['fetch', '--no-tags', '--quiet', 'origin', ref]).catch(() => undefined);
  if (await present()) return;
  await ctx.git(['fetch', '--no-tags', '--quiet', 'origin', sha]);
}

/** The executor's word for changes the commit gate dropped: what, why, and that the tree was put back. */
function keptOutNotice(keptOut: readonly KeptOutChange[]): string {
  const lines = keptOut.slice(0, 20).map((c) => `- ${c.path} (${c.change}): ${c.reason}`);
  if (keptOut.length > 20) lines.push(`- and ${keptOut.length - 20} more`);
  return [
    'plangate kept these changes out of the last commit, because nobody may change these paths through plangate; protected files were put back as they were:',
    ...lines,
    'Do not try to change them another way; if the objective needs them changed, say so in your result.',
  ].join('\n');
}
