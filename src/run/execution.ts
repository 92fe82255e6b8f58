import * as core from '@actions/core';
import type { Snapshot } from '../machine/types.js';
import type { FlowResult, RunContext } from './run-context.js';
import { cancelledAtStart, watchForCancel } from './cancel-watch.js';
import { findCheckpoint, openProgress, type Progress } from './checkpoint.js';
import { driveCycles, executionBudget } from './cycles.js';
import { startExecutionRun, type Execution, type ExecutionRun } from './execution-run.js';
import { endOnFailure, finishExecution } from './outcome.js';
import { syncPlanComment } from './plan-comment-sync.js';
import { publishPullRequest } from './publish.js';
import { refuse } from './refuse.js';
import { errorMessage } from '../text/error-message.js';
import { redact } from '../text/redact.js';
import { runEnding, type RunEnding } from './run-ending.js';
import { UnadoptedBranchError } from './work-branch.js';
import { amendmentGate, requestAmendment } from './amendment.js';
import { budgetWidening, widening } from './scope-widening.js';
import { openDraftPullRequest } from './draft-pull-request.js';

export type { ApprovedRecord, Execution } from './execution-run.js';

/**
 * Carries out an approved record, one execution per issue at a time. The steps, each in a module of
 * its own: the plan comment marked executing (plan-comment-sync.ts), a `/cancel` that came first
 * (cancel-watch.ts), an earlier attempt's checkpoint (checkpoint.ts), the work branch and team
 * (execution-run.ts), the draft pull request opened before any executor spend (draft-pull-request.ts),
 * the cycles (cycles.ts), the pull request filled in (publish.ts), the end (outcome.ts).
 */
export async function execute(ctx: RunContext, execution: Execution): Promise<FlowResult> {
  const { record, source } = execution;
  // An approval grants a scope; a plan made before approvals named one grants nothing to carry out.
  if (!record.scope)
    return refuse(
      ctx.thread,
      source,
      '/approve',
      `plan \`${record.planId}\` was made before plangate's approvals named what a run may change, run and spend.`,
      'Ask for a new plan with `/plan`: its comment shows what an approval of it allows.',
    );
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

async function executeLocked(ctx: RunContext, asked: Execution): Promise<FlowResult> {
  let execution = asked;
  const { record } = execution;
  const plan = await syncPlanComment(ctx, record, execution.planComment);
  const refused = await cancelledAtStart(ctx, record, plan, execution.source);
  if (refused) return refused;
  const cancel = watchForCancel(ctx, record.planId, record.issue, plan);
  const { previous, checkpoint } = await findCheckpoint(ctx, execution.comments, record);
  const gate = amendmentGate(record.planId, checkpoint, execution);
  if ('reason' in gate) return refuse(ctx.thread, execution.source, '/approve', gate.reason, gate.fix);
  execution = gate.execution;
  core.info(
    `${checkpoint ? 'Resuming' : 'Executing'} ${record.planId} (${record.machine}) on ${record.branch}, approved by ${record.approvedBy}.`,
  );
  let run: ExecutionRun;
  try {
    run = await startExecutionRun(ctx, execution, checkpoint, { plan, cancel });
  } catch (error) {
    if (!(error instanceof UnadoptedBranchError)) throw error;
    return refuse(ctx.thread, execution.source, '/approve', error.message, error.fix);
  }
  const progress = await openProgress(run, previous);
  // A job being stopped (cancelled, or out of time) acts no more: the progress comment goes back to
  // the last finished cycle and says so, and the run asks, runs and pushes nothing after the signal.
  let stoppedBy: string | undefined;
  const withdraw = ctx.onStop?.((signal) => {
    stoppedBy = signal;
    return progress.stop(signal);
  });
  const halted = () => stoppedBy !== undefined;
  const stopped = (): FlowResult => {
    core.info(`The job was stopped by ${stoppedBy}; plan ${record.planId} resumes from its last finished cycle.`);
    return { outcome: 'failed', planId: record.planId, usage: run.team.totals() };
  };
  try {
    return (await driveToEnd(run, progress, halted)) ?? stopped();
  } catch (error) {
    // Once stopped, a failure is the stop's doing (it ended the run's commands), and the progress
    // comment already says the job stopped and where a re-run resumes: no second reply says otherwise.
    if (!halted()) throw error;
    core.info(`After the stop, the run ended on: ${redact(errorMessage(error), ctx.secrets)}`);
    return stopped();
  } finally {
    withdraw?.();
  }
}

/** The cycles, the pull request and the end, once the progress comment is up; undefined once halted. */
async function driveToEnd(
  run: ExecutionRun,
  progress: Progress,
  halted: () => boolean,
): Promise<FlowResult | undefined> {
  let final: Snapshot;
  const budget = executionBudget(run);
  try {
    // Proven before the executor spends anything: plangate may push the branch and open its pull request.
    const refused = await openDraftPullRequest(run, progress);
    if (refused) return refused;
    if (halted()) return undefined;
    final = await driveCycles(run, progress, halted, budget);
  } catch (error) {
    // A failure after the signal is the stop's doing (a refused push, an ended command): it is
    // logged as such below, and says nothing on the thread.
    if (halted()) throw error;
    return endOnFailure(run, progress, error);
  }
  if (halted()) return undefined;
  const need = budget.spent !== undefined ? budgetWidening(run, budget.spent) : widening(run, final);
  if (need)
    return requestAmendment(run, progress, final, need, budget.spent !== undefined ? progress.lastCycleEnd() : final);
  // A cancel during the last cycle has no next cycle to stop; the run still ends as cancelled.
  const lateCancel = await run.cancel.lateCancel();
  let ending: RunEnding = lateCancel !== undefined ? { outcome: 'aborted', reason: lateCancel } : runEnding(final);
  if (run.work.pushed) {
    const published = await publishPullRequest(run, progress, final, ending);
    if ('failed' in published) return published.failed;
    ending = published.ending;
    if (halted()) return undefined;
  }
  return finishExecution(run, progress, final, ending);
}
