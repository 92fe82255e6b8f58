import * as core from '@actions/core';
import type { RoleUsageSummary, UsageLedger } from '../models/usage.js';
import type { ModelError } from '../models/model-error.js';
import { renderUsageTable } from '../render/usage-table.js';
import type { Progress } from './checkpoint.js';
import type { ExecutionRun } from './execution-run.js';
import type { PlanningRequest } from './plan-draft.js';
import type { FlowResult, RunContext } from './run-context.js';
import { usageTotals } from './run-team.js';

/**
 * A provider plangate could not get an answer from (after model-retries) stops the run without
 * giving the plan up. The cause and its fix (provider-error.ts) are said the same way in the log,
 * on the thread (with a 😕 on the command) and in the job summary. Planning posts no plan; an
 * execution keeps the work of its finished cycles pushed and its checkpoint at the last finished
 * cycle, so a re-run of the job or a new `/approve` resumes from there.
 */

/** A stopped execution, as the command's failure report says it; its cause is the model's failure. */
export class ExecutionStopped extends Error {
  override readonly name = 'ExecutionStopped';

  constructor(
    message: string,
    readonly modelError: ModelError,
  ) {
    super(message);
  }
}

/** Planning without a provider: nothing posted but the reason and what to do. */
export async function planningModelFailed(
  ctx: RunContext,
  request: PlanningRequest,
  error: ModelError,
  team: { ledger(): UsageLedger; usage(): RoleUsageSummary[] },
): Promise<FlowResult> {
  const { source } = request;
  const text = `planning failed: ${error.message}\n\nNo plan was posted, so there is nothing to approve. Re-run the job, or post the command again, once this is fixed.`;
  core.error(`Planning stopped: ${error.message}`);
  await ctx.thread.postComment(source.thread.number, `@${request.requestedBy} ${text}`);
  await ctx.thread.react(source.commentId, 'confused').catch(() => undefined);
  await ctx.writeSummary(
    ['### plangate: planning stopped', '', error.message, '', renderUsageTable(team.usage())].join('\n'),
  );
  return { outcome: 'failed', usage: usageTotals(team.ledger(), ctx) };
}

/**
 * Ends an execution whose model could not be reached: the progress comment (and its checkpoint)
 * goes back to the last finished cycle, says where the run stopped and why, and the stop is thrown
 * on for the command's failure report, which replies on the thread.
 */
export async function stopOnModelFailure(run: ExecutionRun, progress: Progress, error: ModelError): Promise<never> {
  const { record } = run;
  const resumeFrom = progress.lastCycleEnd();
  const finished = resumeFrom.context.history.length;
  const kept =
    finished === 0
      ? 'No cycle had finished, so nothing was pushed'
      : `The work of the ${finished === 1 ? 'first cycle' : `first ${finished} cycles`} is committed and pushed to \`${record.branch}\``;
  const where = `Execution of plan \`${record.planId}\` stopped in cycle ${finished + 1}`;
  const text = `${where}: ${error.message}\n\n${kept}; re-run the job, or comment \`/approve\` again, to resume from the last finished cycle.`;
  await progress
    .save(resumeFrom, { interrupted: `stopped in cycle ${finished + 1}: ${error.message}` })
    .catch(() => undefined);
  await run.ctx
    .writeSummary(
      [`### plangate: plan ${record.planId} stopped`, '', text, '', renderUsageTable(run.team.usage())].join('\n'),
    )
    .catch(() => undefined);
  throw new ExecutionStopped(text, error);
}
