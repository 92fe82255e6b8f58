import * as core from '@actions/core';
import { plannerExecutorMachine } from '../machine/planner-executor.js';
import { emptyUsage } from '../models/usage.js';
import { hasRecordMarker, planIdFor } from '../record/plan-record.js';
import { planMarker } from '../render/plan-comment.js';
import { checkoutCommit } from '../repo/branch.js';
import { readRepositoryInstructions } from '../agents/repository-instructions.js';
import type { FlowResult, RunContext } from './run-context.js';
import { execute } from './execution.js';
import { executeAfterPlannerFailed } from './executor-only-run.js';
import { supersedeEarlier, verifyRecordComment } from './live-record.js';
import { instructionsCommit } from './instructions-source.js';
import { recordDraft, type PlanningRequest } from './plan-draft.js';
import {
  executeAtOnce,
  planningFailed,
  planningStopped,
  postPlanRecord,
  runsAtOnce,
  stagedPlanChecks,
} from './plan-publication.js';
import { planningOutcome } from './planning-outcome.js';
import { startTeamRun, usageTotals, type TeamRun } from './run-team.js';
import { planningModelFailed } from './model-failure.js';
import { ModelError } from '../models/model-error.js';
import type { Snapshot } from '../machine/types.js';

export type { PlanningRequest } from './plan-draft.js';

/**
 * Planning as `/plan`, `/revise` and `/answer` share it: the read-only planner works at the base
 * commit until it stages a plan, a question or a no-change answer; plangate posts that with its
 * record and, as the policy says, waits, executes at once, or only advises (plan-publication.ts).
 */
export async function planAndPublish(ctx: RunContext, request: PlanningRequest): Promise<FlowResult> {
  const again = await answeredBefore(ctx, request);
  if (again) return again;
  await checkoutCommit(ctx.git, request.base.sha);
  // From the trusted side: the base commit when it is the default branch's (the one the plan is bound
  // to, so the executor reads the same bytes later), else the default branch's (see instructions-source.ts).
  const instructions = await readRepositoryInstructions(ctx.git, instructionsCommit(request.base, ctx.trusted));
  const team = startTeamRun(ctx, plannerExecutorMachine, request.snapshot, request.spent ?? emptyUsage(), instructions);
  // The planner's work and the plan's checks take minutes: a job stopped then would leave only the
  // 👀 reaction, so the stop is said on the thread. That reply says no plan was posted, so in the
  // seconds before the process ends the planner is asked nothing more and the run posts nothing more,
  // whatever the planner came back with.
  let stoppedBy: string | undefined;
  const withdraw = ctx.onStop?.((signal) => {
    stoppedBy = signal;
    return planningStopped(ctx, request, signal);
  });
  let answer: (() => Promise<FlowResult>) | undefined;
  try {
    answer = await planned(ctx, request, team, () => stoppedBy !== undefined);
  } catch (error) {
    // Once stopped, a failure is the stop's doing (it ended the run's processes), and the reply said so.
    if (stoppedBy === undefined) throw error;
  } finally {
    withdraw?.();
  }
  if (stoppedBy !== undefined || answer === undefined) {
    core.info(`The job was stopped by ${stoppedBy ?? 'a signal'} while it planned; nothing more is posted.`);
    return { outcome: 'failed', usage: usageTotals(team.ledger(), ctx) };
  }
  return answer();
}

/**
 * Drives the planner and checks what it staged, writing nothing to the thread; returns the step
 * that says the outcome there (posts the plan, the question, the answer, or the failure), or
 * undefined when the job was stopped (`halted`) while the planner worked.
 */
async function planned(
  ctx: RunContext,
  request: PlanningRequest,
  team: TeamRun,
  halted: () => boolean,
): Promise<(() => Promise<FlowResult>) | undefined> {
  const { settings } = ctx;
  let snapshot: Snapshot;
  let modelFailure: ModelError | undefined;
  try {
    snapshot = await team.drive({ until: (s) => s.state !== 'plan', stopOnModelError: true, halted });
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    modelFailure = error;
    snapshot = team.run.snapshot;
  }
  if (halted()) return undefined;
  const ledger = team.ledger();
  // Servers that did not start are named in the plan comment: the plan was made without them.
  const mcpFailures = (await ctx.mcp?.start())?.failures ?? [];
  const draft = recordDraft(ctx, request, ledger, mcpFailures);

  if (modelFailure) {
    const failure = modelFailure;
    // plan-first's executor may live on another endpoint: it still gets its chance.
    if (settings.policy === 'plan-first') return () => executeAfterPlannerFailed(ctx, request, draft, failure.message);
    return () => planningModelFailed(ctx, request, failure, team);
  }
  const outcome = planningOutcome(snapshot);
  if (outcome.kind === 'failed') {
    if (settings.policy === 'plan-first') return () => executeAfterPlannerFailed(ctx, request, draft, outcome.reason);
    return () => planningFailed(ctx, request, outcome.reason, ledger);
  }
  const terms =
    outcome.kind === 'planned' ? await stagedPlanChecks(ctx, request, outcome.plan, snapshot, ledger) : undefined;
  const checks = terms?.checks;
  const status = outcome.kind === 'asked' ? 'asking' : outcome.kind === 'answered' ? 'answered' : 'proposed';
  const posted = draft(status, snapshot, undefined, checks, terms?.scope);
  return async () => {
    await supersedeEarlier(ctx, request.comments, posted.planId, posted.issue);
    if (outcome.kind === 'planned' && runsAtOnce(ctx, posted, checks)) return executeAtOnce(ctx, request, posted);
    return postPlanRecord(ctx, posted, outcome, team);
  };
}

/**
 * A re-run of the same command (a retried job) finds the record it already posted: it never plans or
 * posts twice. A plan-first execution that was cut short resumes instead.
 */
async function answeredBefore(ctx: RunContext, request: PlanningRequest): Promise<FlowResult | undefined> {
  const { thread } = ctx;
  const planId = planIdFor(
    `${thread.repoRef.owner}/${thread.repoRef.repo}`,
    request.source.thread.number,
    request.source.commentId,
  );
  const comment = request.comments.find(
    (c) => c.author === ctx.settings.botLogin && hasRecordMarker(c.body) && c.body.includes(planMarker(planId)),
  );
  const verdict = comment ? verifyRecordComment(ctx, comment, request.source.thread.number) : undefined;
  if (!comment || !verdict?.ok || verdict.record.planId !== planId) return undefined;
  const { record } = verdict;
  core.info(`Command already answered by record ${planId} (${record.status}); not planning again.`);
  if (record.status === 'executing' && record.approvedBy && record.branch) {
    return execute(ctx, {
      record: { ...record, approvedBy: record.approvedBy, branch: record.branch },
      planComment: comment,
      source: request.source,
      comments: request.comments,
    });
  }
  const outcome =
    record.status === 'asking'
      ? 'asked'
      : record.status === 'answered'
        ? 'answered'
        : record.status === 'proposed'
          ? 'planned'
          : record.status === 'done'
            ? 'done'
            : 'aborted';
  return {
    outcome,
    planId,
    ...(record.pullRequest ? { prNumber: record.pullRequest.number, prUrl: record.pullRequest.url } : {}),
  };
}
