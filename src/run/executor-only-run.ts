import * as core from '@actions/core';
import { executorOnlySnapshot } from '../machine/executor-only.js';
import { emptyUsage } from '../models/usage.js';
import { hashIssue, hashPlan, planIdFor } from '../record/plan-record.js';
import { unplannedScope } from '../checks/scope-derivation.js';
import type { ApprovedScope } from '../scope/approved-scope.js';
import type { FlowResult, RunContext } from './run-context.js';
import { execute } from './execution.js';
import type { PlanningRequest, RecordDraft } from './plan-draft.js';
import { branchFor } from './work-base.js';

/**
 * Execution with no planner: the `executor-only` policy, and `plan-first` when its planner failed.
 * The executor works the objective directly; the run is still recorded (progress comment,
 * checkpoints) and the pull request carries its history. No plan comment is posted.
 */

/** Said in the progress comment and the PR when plan-first loses its planner. */
export const plannerFailedNotice = 'Planner failed; continuing with the executor only.';

/** The `executor-only` policy: the command's objective is the executor's one directive. */
export async function executeWithoutPlanner(ctx: RunContext, request: PlanningRequest): Promise<FlowResult> {
  const { thread, settings } = ctx;
  const { source, snapshot, base } = request;
  const issue = source.thread.number;
  const planId = planIdFor(`${thread.repoRef.owner}/${thread.repoRef.repo}`, issue, source.commentId);
  const scope = scopeWithoutPlan(ctx, snapshot.policy.maxIterations);
  return execute(ctx, {
    record: {
      v: 1,
      planId,
      planHash: hashPlan(snapshot.context, undefined, scope),
      scope,
      status: 'executing',
      repository: `${thread.repoRef.owner}/${thread.repoRef.repo}`,
      issue,
      requestedBy: request.requestedBy,
      commandCommentId: source.commentId,
      base: { ref: base.ref, sha: base.sha },
      ...(base.sameBranch ? { sameBranch: true as const } : {}),
      models: { planner: ctx.planner.model, executor: ctx.executor.model },
      policy: settings.policy,
      machine: 'executor-only',
      planningCostUsd: 0,
      issueHash: hashIssue(source.thread.title, source.thread.body),
      snapshot,
      usage: emptyUsage(),
      approvedBy: request.requestedBy,
      branch: base.sameBranch ? base.ref : branchFor(ctx, issue, planId),
    },
    source,
    comments: request.comments,
    notice: 'Executor-only policy: no planner; the executor worked the objective directly.',
  });
}

/** `plan-first` without a plan: the executor works the objective alone, and the run says why. */
export async function executeAfterPlannerFailed(
  ctx: RunContext,
  request: PlanningRequest,
  draft: RecordDraft,
  reason: string,
): Promise<FlowResult> {
  core.warning(`Planner failed (${reason}); continuing with the executor only.`);
  const fallback = draft(
    'executing',
    executorOnlySnapshot(request.snapshot.context.objective, request.snapshot.policy),
    'executor-only',
    undefined,
    scopeWithoutPlan(ctx, request.snapshot.policy.maxIterations),
  );
  return execute(ctx, {
    record: {
      ...fallback,
      approvedBy: request.requestedBy,
      branch: branchFor(ctx, request.source.thread.number, fallback.planId, fallback),
    },
    source: request.source,
    comments: request.comments,
    notice: `${plannerFailedNotice} (${reason})`,
  });
}

/** The configuration's bounds as the scope of a run no plan describes. */
function scopeWithoutPlan(ctx: RunContext, maxIterations: number): ApprovedScope {
  const { settings } = ctx;
  return unplannedScope({
    allowedCommands: settings.allowedCommands,
    maxIterations,
    ...(settings.maxCostUsd !== undefined ? { maxCostUsd: settings.maxCostUsd } : {}),
    ...(settings.network === 'sealed' ? { network: settings.allowedDestinations } : {}),
  });
}
