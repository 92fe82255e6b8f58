import type { Snapshot } from '../machine/types.js';
import { errorMessage } from '../text/error-message.js';
import type { FlowResult } from './run-context.js';
import type { Progress } from './checkpoint.js';
import type { ExecutionRun } from './execution-run.js';
import { writeExecutionSummary } from './job-summary.js';
import { ModelError } from '../models/model-error.js';
import { stopOnModelFailure } from './model-failure.js';
import type { RunEnding } from './run-ending.js';
import { ForeignPushError, PushDeniedError } from './work-branch.js';
import { PushRefusedError } from '../repo/push-gate.js';
import { describeStoppedDraft } from './publish.js';

/**
 * How an execution ends on the thread: the record's final status on the plan comment, the last
 * progress save, a 👎 on the command for an abort, the job summary and the flow's result. A run
 * that failed on the way ends here too: stopped for good (someone else pushed to its branch), or
 * left `executing` so a re-run resumes from its last checkpoint.
 */
export async function finishExecution(
  run: ExecutionRun,
  progress: Progress,
  final: Snapshot,
  ended: RunEnding,
): Promise<FlowResult> {
  const { ctx, pullRequest } = run;
  const aborted = ended.outcome === 'aborted';
  // The record keeps the approved snapshot: its hash must keep matching the plan that was shown.
  run.record = { ...run.record, status: aborted ? 'aborted' : 'done', ...(pullRequest ? { pullRequest } : {}) };
  await run.plan.write(run.record, run.cancel.cancelled);
  await progress.save(final, { ended });
  // Success needs no reaction: the progress comment and the pull request say so. An abort is flagged on the command.
  if (aborted)
    await ctx.thread.react(run.execution.source.commentId, '-1', run.execution.source.origin).catch(() => undefined);
  await writeExecutionSummary(run, final, ended);
  return {
    outcome: ended.outcome,
    planId: run.record.planId,
    branch: run.work.pushed ? run.record.branch : undefined,
    prNumber: pullRequest?.number,
    prUrl: pullRequest?.url,
    usage: run.team.totals(),
  };
}

/**
 * A run the cycles could not finish. A model that cannot be reached stops it resumably (model-failure.ts). Someone else's push to the work branch stops it for good
 * (aborted, their commits kept), as does a push the gate refused (repo/push-gate.ts: a re-run
 * would make the same commits again); anything else leaves the plan `executing`, the failure said in the
 * progress comment, so a re-run of the job or a new /approve resumes from the last checkpoint.
 */
export async function endOnFailure(run: ExecutionRun, progress: Progress, error: unknown): Promise<FlowResult> {
  const { ctx, record } = run;
  const snapshot = run.team.run.snapshot;
  if (error instanceof ModelError) return stopOnModelFailure(run, progress, error);
  if (error instanceof ForeignPushError || error instanceof PushRefusedError) {
    run.record = { ...record, status: 'aborted' };
    await run.plan.write(run.record, run.cancel.cancelled).catch(() => undefined);
    const reason = error instanceof PushRefusedError ? `${error.message} ${error.fix}` : error.message;
    const ended = { outcome: 'aborted' as const, reason };
    await progress.save(snapshot, { ended }).catch(() => undefined);
    await describeStoppedDraft(run, snapshot, ended);
    await ctx.thread.react(run.execution.source.commentId, '-1', run.execution.source.origin).catch(() => undefined);
    return { outcome: 'aborted', planId: record.planId, branch: record.branch, usage: run.team.totals() };
  }
  const reason = `${error instanceof PushDeniedError ? '' : 'the run was interrupted: '}${errorMessage(error)}`;
  await progress.save(snapshot, { interrupted: reason }).catch(() => undefined);
  throw error;
}
