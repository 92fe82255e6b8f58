import * as core from '@actions/core';
import type { Snapshot } from '../machine/types.js';
import { emptyUsage, type UsageLedger } from '../models/usage.js';
import type { PlanRecord } from '../record/plan-record.js';
import { approvalGate } from '../checks/approval-gate.js';
import { plannerUsageSince } from '../checks/cost-estimate.js';
import { checksForStagedPlan } from '../checks/plan-checks-run.js';
import type { PlanChecks } from '../checks/stored-checks.js';
import { deriveScope } from '../checks/scope-derivation.js';
import type { ApprovedScope } from '../scope/approved-scope.js';
import type { Plan } from '../machine/fields.js';
import { renderChecks } from '../render/checks.js';
import { planMarker } from '../render/plan-comment.js';
import { renderSummaryDetails } from '../render/summary-details.js';
import { renderUsageTable } from '../render/usage-table.js';
import type { FlowResult, RunContext } from './run-context.js';
import { execute } from './execution.js';
import { renderRecord } from './live-record.js';
import type { PlanningRequest } from './plan-draft.js';
import type { PlanningOutcome } from './planning-outcome.js';
import { usageTotals, type TeamRun } from './run-team.js';
import { branchFor } from './work-base.js';

/**
 * What plangate does with what the planner staged: a plan is checked and posted for approval (or,
 * under `plan-first`, shown and carried out at once when /approve would take it); a question or a
 * no-change answer is posted; no plan at all is said on the thread.
 */

/**
 * The terms a plan is posted with: its checks (its problems against this repository's rules, and the
 * cost estimate) and the scope an approval of it grants, derived from the plan and that estimate.
 */
export async function stagedPlanChecks(
  ctx: RunContext,
  request: PlanningRequest,
  plan: Plan,
  snapshot: Snapshot,
  ledger: UsageLedger,
): Promise<{ checks: PlanChecks; scope: ApprovedScope }> {
  const { settings } = ctx;
  const planning = plannerUsageSince(ledger, request.spent ?? emptyUsage());
  const checks = await checksForStagedPlan({
    plan,
    rules: {
      protectedPaths: settings.protectedPaths,
      allowedCommands: settings.allowedCommands,
      maxIterations: snapshot.policy.maxIterations,
      commandsRefused: await ctx.sandbox.refusal(),
      ...(settings.network === 'sealed' ? { allowedNetwork: settings.allowedDestinations } : {}),
    },
    git: ctx.git,
    baseSha: request.base.sha,
    planning,
    executorModel: ctx.executor.model,
    prices: settings.prices,
  });
  const scope = deriveScope({
    plan,
    allowedCommands: settings.allowedCommands,
    planning,
    estimate: checks.estimate,
    maxIterations: snapshot.policy.maxIterations,
    parallelSteps: settings.parallelSteps,
    ...(settings.maxCostUsd !== undefined ? { maxCostUsd: settings.maxCostUsd } : {}),
    ...(settings.timeoutMinutes !== undefined ? { timeoutMinutes: settings.timeoutMinutes } : {}),
    ...(settings.network === 'sealed' ? { network: settings.allowedDestinations } : {}),
  });
  return { checks, scope };
}

/** plan-first runs at once only a plan that /approve would take; anything else waits for a maintainer. */
export function runsAtOnce(ctx: RunContext, posted: PlanRecord, checks: PlanChecks | undefined): boolean {
  const { settings } = ctx;
  if (settings.policy !== 'plan-first') return false;
  const held =
    checks &&
    approvalGate({
      planId: posted.planId,
      stored: checks,
      current: [],
      allowBlockedPlans: settings.allowBlockedPlans,
      maxEstimatedCostUsd: settings.maxEstimatedCostUsd,
      overBudget: false,
      role: 'none',
    });
  if (held && !held.ok) core.warning(`plan-first: plan ${posted.planId} waits for /approve: ${held.reason}`);
  return !held || held.ok;
}

/** plan-first: the plan is shown, then carried out in the same run; the requester's command is the approval. */
export async function executeAtOnce(
  ctx: RunContext,
  request: PlanningRequest,
  posted: PlanRecord,
): Promise<FlowResult> {
  const { thread } = ctx;
  const { source } = request;
  const executing = {
    ...posted,
    status: 'executing' as const,
    approvedBy: request.requestedBy,
    branch: branchFor(ctx, posted.issue, posted.planId, posted),
  };
  const comment = await thread.postComment(posted.issue, renderRecord(ctx, executing), {
    dedupe: planMarker(posted.planId),
  });
  await thread.react(source.commentId, 'rocket', source.origin).catch(() => undefined);
  return execute(ctx, { record: executing, planComment: comment, source, comments: request.comments });
}

/** Posts the record (a plan to approve, a question, an answer) and the job summary. */
export async function postPlanRecord(
  ctx: RunContext,
  posted: PlanRecord,
  outcome: Exclude<PlanningOutcome, { kind: 'failed' }>,
  team: TeamRun,
): Promise<FlowResult> {
  const comment = await ctx.thread.postComment(posted.issue, renderRecord(ctx, posted), {
    dedupe: planMarker(posted.planId),
  });
  core.info(`Posted ${posted.status} record ${posted.planId}: ${comment.url}`);
  const what =
    outcome.kind === 'asked'
      ? 'a question'
      : outcome.kind === 'answered'
        ? 'an answer (nothing to change)'
        : `plan ${posted.planId}`;
  const { checks } = posted;
  await ctx.writeSummary(
    [
      `### plangate: posted ${what}`,
      '',
      `[Comment](${comment.url})`,
      '',
      ...(checks ? [renderChecks(checks, true), ''] : []),
      renderUsageTable(team.usage()),
      '',
      renderSummaryDetails(posted.snapshot.context),
    ].join('\n'),
  );
  return { outcome: outcome.kind, planId: posted.planId, usage: usageTotals(team.ledger(), ctx) };
}

/** No plan, no question, no answer: said on the thread, with nothing to approve. */
export async function planningFailed(
  ctx: RunContext,
  request: PlanningRequest,
  reason: string,
  ledger: UsageLedger,
): Promise<FlowResult> {
  const { thread } = ctx;
  const { source } = request;
  await thread.postComment(
    source.thread.number,
    `@${request.requestedBy} planning failed: ${reason}\n\nNo plan was posted, so there is nothing to approve. Try \`/plan\` again, perhaps with a more specific objective.`,
  );
  await thread.react(source.commentId, '-1', source.origin).catch(() => undefined);
  return { outcome: 'failed', usage: usageTotals(ledger, ctx) };
}

/**
 * Said when the job is stopped (cancelled, out of time) while the planner works. A re-run of the job
 * plans afresh: nothing was recorded for this command (planning.ts's answeredBefore).
 */
export async function planningStopped(ctx: RunContext, request: PlanningRequest, signal: string): Promise<void> {
  await ctx.thread.postComment(
    request.source.thread.number,
    `@${request.requestedBy} planning stopped: the job was stopped by ${signal} (cancelled, or out of time) while the planner worked.\n\nNo plan was posted, so there is nothing to approve. Re-run the job to plan again.`,
  );
}
