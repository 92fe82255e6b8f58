import * as core from '@actions/core';
import type { Snapshot } from '../machine/types.js';
import { explainGitHubError } from '../github/errors.js';
import { historyChunkMarker, renderHistoryChunks } from '../render/history.js';
import { pullRequestHistoryFits, pullRequestTitle, renderPullRequestBody } from '../render/pull-request.js';
import { stackPullRequestBody } from '../render/pull-request-sections.js';
import { errorMessage } from '../text/error-message.js';
import type { FlowResult, RunContext } from './run-context.js';
import { recheckApproval } from './approval-recheck.js';
import type { Progress } from './checkpoint.js';
import { executionView, type ExecutionRun } from './execution-run.js';
import type { RunEnding } from './run-ending.js';
import { plannedActual } from './contract-report.js';

/**
 * The pull request that proposes a run's pushed work: the draft opened as the run started
 * (draft-pull-request.ts) filled in, and marked ready unless the run aborted or `pr-draft` keeps
 * drafts; opened here only when the run has none (a run that started before drafts, or whose
 * branch is a pull request's own). The approval is checked again right before, and the full
 * history goes in comments on it when the body cannot hold it. A run that ends with nothing to land
 * fills its draft in and closes it: nothing is proposed, and the reason stays readable there.
 */
export type Publication = { ending: RunEnding } | { failed: FlowResult };

/**
 * Publishes the work; the run must have pushed something. Answers how the run ended (a `cancelled`
 * mark found on the plan comment turns it into an abort), or the result to end with when GitHub
 * refused the pull request for a reason the user must fix.
 */
export async function publishPullRequest(
  run: ExecutionRun,
  progress: Progress,
  final: Snapshot,
  ending: RunEnding,
): Promise<Publication> {
  const { ctx, record } = run;
  let ended = ending;
  // Right before the pull request asks anyone to merge it, the approval must still hold.
  try {
    // The plan comment may say `cancelled` by now although the signal was missed (a failed look).
    if ((await recheckApproval(ctx, record, run.plan)) && !run.cancel.cancelled) {
      ended = { outcome: 'aborted', reason: await run.cancel.noteCancel() };
    }
  } catch (error) {
    await progress.save(final, { interrupted: errorMessage(error) }).catch(() => undefined);
    throw error;
  }
  // What a reviewer will find in the files tab, in short; a failing diff only costs the section.
  const diffStat = await ctx.git(['diff', '--stat=100', `${record.base.sha}..${run.work.pushed}`]).catch(() => '');
  const contract = await plannedActual(run, final);
  const view = executionView(run, final, { ended, diffStat, ...(contract ? { contract } : {}) });
  const fits = pullRequestHistoryFits(view, { serverFailures: run.serverFailures });
  const body = renderPullRequestBody(view, {
    serverFailures: run.serverFailures,
    ...(fits ? {} : { fullHistoryIn: 'comments' as const }),
  });
  const title = pullRequestTitle(view);
  const empty = !record.sameBranch && (await nothingToLand(ctx, record.base.sha, run.work.pushed));
  if (empty && !run.pullRequest) return { ending: ended };
  const ready = ended.outcome !== 'aborted' && !ctx.settings.prDraft;
  let pr: { number: number; url: string };
  try {
    pr = record.sameBranch
      ? await updateOwnPullRequest(ctx, record.issue, body)
      : run.pullRequest
        ? await fillInPullRequest(
            ctx,
            run.pullRequest.number,
            { title, body },
            empty ? 'close' : ready ? 'ready' : 'draft',
          )
        : await ctx.thread.createPullRequest({
            title,
            head: record.branch,
            base: record.base.ref,
            body,
            draft: !ready,
          });
  } catch (error) {
    return { failed: await pullRequestRefused(run, progress, final, error) };
  }
  if (empty) {
    // Closed, it proposes nothing: the plan comment and the outputs name no pull request, and the
    // branch that held only the start commit goes (unless someone pushed to it since).
    core.info(`Plan ${record.planId} ended with nothing to land; its draft pull request #${pr.number} is closed.`);
    run.pullRequest = undefined;
    await run.work.discard().catch((error: unknown) => {
      core.warning(`Could not delete ${record.branch}, which holds nothing to land: ${errorMessage(error)}`);
    });
    return { ending: ended };
  }
  if (!record.sameBranch) await dressPullRequest(ctx, pr.number, record.approvedBy);
  run.pullRequest = { number: pr.number, url: pr.url };
  // The PR body says where the full history is: here, in parts, each posted once.
  if (!fits) await postHistory(ctx, pr.number, final, record.planId);
  return { ending: ended };
}

/**
 * The run's own pull request given its final title and body, then marked ready, left a draft, or
 * closed. Each step is safe to repeat: a re-run after a failure here does them again, once more.
 */
async function fillInPullRequest(
  ctx: RunContext,
  number: number,
  text: { title: string; body: string },
  end: 'ready' | 'draft' | 'close',
): Promise<{ number: number; url: string }> {
  const pull = await ctx.thread.updatePullRequest(number, { ...text, ...(end === 'close' ? { state: 'closed' } : {}) });
  if (end === 'ready' && pull.draft) await ctx.thread.markPullRequestReady(pull.nodeId);
  return pull;
}

/** Whether the work branch's tip changes nothing against the plan's base (only the start commit, or nothing, pushed). */
async function nothingToLand(ctx: RunContext, base: string, pushed: string | undefined): Promise<boolean> {
  if (pushed === undefined) return true;
  const [from, to] = await Promise.all([
    ctx.git(['rev-parse', `${base}^{tree}`]),
    ctx.git(['rev-parse', `${pushed}^{tree}`]),
  ]);
  return from === to;
}

/**
 * A run stopped for good on the way (someone else pushed to its branch) leaves its draft saying why
 * instead of "in progress". Best effort: the thread already says it, and the draft stays a draft.
 */
export async function describeStoppedDraft(run: ExecutionRun, s: Snapshot, ended: RunEnding): Promise<void> {
  if (!run.pullRequest || run.record.sameBranch) return;
  const view = executionView(run, s, { ended });
  const body = renderPullRequestBody(view, { serverFailures: run.serverFailures });
  await run.ctx.thread
    .updatePullRequest(run.pullRequest.number, { title: pullRequestTitle(view), body })
    .catch((error: unknown) =>
      core.warning(
        `Could not update draft pull request #${run.pullRequest?.number}: ${explainGitHubError(error).message}`,
      ),
    );
}

/**
 * A run on a pull request's own branch opens none: that pull request's body gains the run, with the
 * runs it showed before collapsed below it (pull-request-sections.ts).
 */
async function updateOwnPullRequest(
  ctx: RunContext,
  number: number,
  body: string,
): Promise<{ number: number; url: string }> {
  const pull = await ctx.thread.pullRequest(number);
  return ctx.thread.updatePullRequest(number, { body: stackPullRequestBody(pull.body, body) });
}

/**
 * The work is pushed and checkpointed as finished: a re-run only opens the pull request. A refusal
 * the user must fix (pull requests disabled, a missing permission) is said on the thread and fails
 * the run; anything else is thrown.
 */
async function pullRequestRefused(
  run: ExecutionRun,
  progress: Progress,
  final: Snapshot,
  error: unknown,
): Promise<FlowResult> {
  const { ctx, record, execution } = run;
  const { kind, message } = explainGitHubError(error);
  await progress
    .save(final, { interrupted: `the pull request could not be opened: ${message}` })
    .catch(() => undefined);
  if (kind !== 'pull-requests-disabled' && kind !== 'missing-permission') throw error;
  const { planId, branch } = record;
  // A draft opened as the run started proves the permission; losing it since is said the same way.
  await ctx.thread.postComment(
    record.issue,
    `@${execution.source.author} the work for plan \`${planId}\` is pushed to \`${branch}\`, but the pull request could not be opened: ${message}\n\nFix that, then re-run the job (or comment \`/approve ${planId}\`); plangate will open the pull request once.`,
  );
  return { outcome: 'failed', planId, branch, usage: run.team.totals() };
}

/** The history that did not fit the pull request's body, as comments on it, each posted once. */
async function postHistory(ctx: RunContext, pullNumber: number, final: Snapshot, planId: string): Promise<void> {
  const parts = renderHistoryChunks(final.context.history, planId);
  for (const [i, part] of parts.entries()) {
    await ctx.thread.postComment(pullNumber, part, { dedupe: historyChunkMarker(planId, i + 1) });
  }
}

/**
 * Labels and the approver as reviewer make the pull request land in the queues maintainers watch.
 * Neither is worth failing a run whose work is already pushed: a refusal becomes a warning.
 */
async function dressPullRequest(ctx: RunContext, number: number, approvedBy: string): Promise<void> {
  const { thread, settings } = ctx;
  if (settings.prLabels.length > 0) {
    await thread.addLabels(number, settings.prLabels).catch((error: unknown) => {
      core.warning(
        `Could not label pull request #${number} (${settings.prLabels.join(', ')}): ${explainGitHubError(error).message}`,
      );
    });
  }
  // GitHub refuses a review request to the pull request's author, which is the bot itself.
  const account = (login: string) => login.replace(/\[bot\]$/, '').toLowerCase();
  if (approvedBy === '' || approvedBy.endsWith('[bot]') || account(approvedBy) === account(settings.botLogin)) return;
  await thread.requestReviewers(number, [approvedBy]).catch((error: unknown) => {
    core.warning(
      `Could not request a review of pull request #${number} from @${approvedBy}: ${explainGitHubError(error).message}`,
    );
  });
}
