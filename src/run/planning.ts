import * as core from '@actions/core';
import type { CommandSource } from './command.js';
import { executorOnlySnapshot } from '../machine/executor-only.js';
import { plannerExecutorMachine } from '../machine/planner-executor.js';
import type { Snapshot } from '../machine/types.js';
import { emptyUsage, type UsageLedger } from '../models/usage.js';
import { hasRecordMarker, hashContext, hashIssue, hashPlan, planIdFor, type PlanRecord } from '../record/plan-record.js';
import { approvalGate } from '../checks/approval-gate.js';
import { renderChecks } from '../render/checks.js';
import { plannerUsageSince } from '../checks/cost-estimate.js';
import { checksForStagedPlan } from '../checks/plan-checks-run.js';
import type { PlanChecks } from '../checks/stored-checks.js';
import type { Comment } from '../github/thread.js';
import { renderUsageTable } from '../render/usage-table.js';
import { planMarker } from '../render/plan-comment.js';
import { renderSummaryDetails } from '../render/summary-details.js';
import { checkoutCommit, fetchBranch } from '../repo/branch.js';
import { readRepositoryInstructions } from '../agents/repository-instructions.js';
import type { FlowResult, RunContext } from './run-context.js';
import { execute } from './execution.js';
import { renderRecord, supersedeEarlier, verifyRecordComment } from './live-record.js';
import { instructionsCommit } from './instructions-source.js';
import { startTeamRun, usageTotals } from './run-team.js';

/**
 * Planning as `/plan`, `/revise` and `/answer` share it: the read-only planner works at the base
 * commit until it stages a plan, a question or a no-change answer; plangate posts that with its
 * record and, as the policy says, waits, executes at once, or only advises.
 */
export interface PlanningRequest {
  source: CommandSource;
  requestedBy: string;
  snapshot: Snapshot;
  base: Base;
  spent?: UsageLedger;
  /** The thread's comments as read at the start of the run; earlier records among them are superseded. */
  comments: readonly Comment[];
}

export interface Base {
  ref: string;
  sha: string;
}

/** Said in the progress comment and the PR when plan-first loses its planner. */
export const plannerFailedNotice = 'Planner failed; continuing with the executor only.';

export async function planAndPublish(ctx: RunContext, request: PlanningRequest): Promise<FlowResult> {
  const { thread, settings } = ctx;
  const { source } = request;
  const issue = source.thread.number;
  const again = await answeredBefore(ctx, request);
  if (again) return again;
  await checkoutCommit(ctx.git, request.base.sha);
  // From the trusted side: the base commit when it is the default branch's (the one the plan is bound
  // to, so the executor reads the same bytes later), else the default branch's (see instructions-source.ts).
  const instructions = await readRepositoryInstructions(ctx.git, instructionsCommit(request.base, ctx.trusted));
  const team = startTeamRun(ctx, plannerExecutorMachine, request.snapshot, request.spent ?? emptyUsage(), instructions);
  const snapshot = await team.drive({ until: (s) => s.state !== 'plan' });
  const ledger = team.ledger();
  // Servers that did not start are named in the plan comment: the plan was made without them.
  const mcpFailures = (await ctx.mcp?.start())?.failures ?? [];
  const record = (status: PlanRecord['status'], s: Snapshot, machine: PlanRecord['machine'] = 'planner-executor', checks?: PlanChecks): PlanRecord => ({
    v: 1,
    planId: planIdFor(`${thread.repoRef.owner}/${thread.repoRef.repo}`, issue, source.commentId),
    planHash: hashPlan(s.context, checks),
    status,
    repository: `${thread.repoRef.owner}/${thread.repoRef.repo}`,
    issue,
    requestedBy: request.requestedBy,
    commandCommentId: source.commentId,
    base: request.base,
    models: { planner: ctx.planner.model, executor: ctx.executor.model },
    policy: settings.policy,
    machine,
    planningCostUsd: usageTotals(ledger, ctx).costUsd,
    issueHash: hashIssue(source.thread.title, source.thread.body),
    postedAt: new Date().toISOString(),
    snapshot: s,
    usage: ledger,
    ...(checks ? { checks } : {}),
    ...(mcpFailures.length > 0 ? { mcpFailures: [...mcpFailures] } : {}),
  });

  const planned = snapshot.state === 'execute' && snapshot.context.plan !== undefined;
  const asking = snapshot.state === 'ask';
  const answered = snapshot.state === 'done' && snapshot.abortReason === undefined && snapshot.context.summary !== undefined;
  if (!planned && !asking && !answered) {
    const reason = snapshot.abortReason ?? 'the planner stopped without staging a plan';
    if (settings.policy === 'plan-first') {
      core.warning(`Planner failed (${reason}); continuing with the executor only.`);
      const fallback = record('executing', executorOnlySnapshot(request.snapshot.context.objective, request.snapshot.policy), 'executor-only');
      return execute(ctx, {
        record: { ...fallback, approvedBy: request.requestedBy, branch: branchFor(ctx, issue, fallback.planId) },
        source,
        comments: request.comments,
        notice: `${plannerFailedNotice} (${reason})`,
      });
    }
    await thread.postComment(
      issue,
      `@${request.requestedBy} planning failed: ${reason}\n\nNo plan was posted, so there is nothing to approve. Try \`/plan\` again, perhaps with a more specific objective.`,
    );
    await thread.react(source.commentId, '-1').catch(() => undefined);
    return { outcome: 'failed', usage: usageTotals(ledger, ctx) };
  }

  const status: PlanRecord['status'] = asking ? 'asking' : answered ? 'answered' : 'proposed';
  const plan = planned ? snapshot.context.plan : undefined;
  const checks = plan
    ? await checksForStagedPlan({
        plan,
        rules: {
          protectedPaths: settings.protectedPaths,
          allowedCommands: settings.allowedCommands,
          maxIterations: snapshot.policy.maxIterations,
          commandsRefused: await ctx.sandbox.refusal(),
        },
        git: ctx.git,
        baseSha: request.base.sha,
        planning: plannerUsageSince(ledger, request.spent ?? emptyUsage()),
        executorModel: ctx.executor.model,
        prices: settings.prices,
      })
    : undefined;
  const posted = record(status, snapshot, undefined, checks);
  await supersedeEarlier(ctx, request.comments, posted.planId, issue);
  // plan-first runs at once only a plan that /approve would take; anything else waits for a maintainer.
  const held = checks && approvalGate({ planId: posted.planId, stored: checks, current: [], allowBlockedPlans: settings.allowBlockedPlans, maxEstimatedCostUsd: settings.maxEstimatedCostUsd, overBudget: false, role: 'none' });
  if (planned && settings.policy === 'plan-first' && held && !held.ok) core.warning(`plan-first: plan ${posted.planId} waits for /approve: ${held.reason}`);
  if (planned && settings.policy === 'plan-first' && (!held || held.ok)) {
    // plan-first: the plan is shown, then carried out in the same run; the requester's command is the approval.
    const executing = { ...posted, status: 'executing' as const, approvedBy: request.requestedBy, branch: branchFor(ctx, issue, posted.planId) };
    const comment = await thread.postComment(issue, renderRecord(ctx, executing), { dedupe: planMarker(posted.planId) });
    await thread.react(source.commentId, 'rocket').catch(() => undefined);
    return execute(ctx, { record: executing, planComment: comment, source, comments: request.comments });
  }
  const comment = await thread.postComment(issue, renderRecord(ctx, posted), { dedupe: planMarker(posted.planId) });
  core.info(`Posted ${status} record ${posted.planId}: ${comment.url}`);
  const what = asking ? 'a question' : answered ? 'an answer (nothing to change)' : `plan ${posted.planId}`;
  await ctx.writeSummary(
    [`### plangate: posted ${what}`, '', `[Comment](${comment.url})`, '', ...(checks ? [renderChecks(checks, true), ''] : []), renderUsageTable(team.usage()), '', renderSummaryDetails(snapshot.context)].join('\n'),
  );
  return {
    outcome: asking ? 'asked' : answered ? 'answered' : 'planned',
    planId: posted.planId,
    usage: usageTotals(ledger, ctx),
  };
}

/**
 * A re-run of the same command (a retried job) finds the record it already posted: it never plans or
 * posts twice. A plan-first execution that was cut short resumes instead.
 */
async function answeredBefore(ctx: RunContext, request: PlanningRequest): Promise<FlowResult | undefined> {
  const { thread } = ctx;
  const planId = planIdFor(`${thread.repoRef.owner}/${thread.repoRef.repo}`, request.source.thread.number, request.source.commentId);
  const comment = request.comments.find((c) => c.author === ctx.settings.botLogin && hasRecordMarker(c.body) && c.body.includes(planMarker(planId)));
  const verdict = comment ? verifyRecordComment(ctx, comment, request.source.thread.number) : undefined;
  if (!comment || !verdict?.ok || verdict.record.planId !== planId) return undefined;
  const { record } = verdict;
  core.info(`Command already answered by record ${planId} (${record.status}); not planning again.`);
  if (record.status === 'executing' && record.approvedBy && record.branch) {
    return execute(ctx, { record: { ...record, approvedBy: record.approvedBy, branch: record.branch }, planComment: comment, source: request.source, comments: request.comments });
  }
  const outcome = record.status === 'asking' ? 'asked' : record.status === 'answered' ? 'answered' : record.status === 'proposed' ? 'planned' : record.status === 'done' ? 'done' : 'aborted';
  return { outcome, planId, ...(record.pullRequest ? { prNumber: record.pullRequest.number, prUrl: record.pullRequest.url } : {}) };
}

/**
 * The `executor-only` policy: no planner, no plan comment. The executor works the objective
 * directly; the run is still recorded (progress comment, checkpoints) and the PR carries its history.
 */
export async function executeWithoutPlanner(ctx: RunContext, request: PlanningRequest): Promise<FlowResult> {
  const { thread, settings } = ctx;
  const { source, snapshot, base } = request;
  const issue = source.thread.number;
  const planId = planIdFor(`${thread.repoRef.owner}/${thread.repoRef.repo}`, issue, source.commentId);
  return execute(ctx, {
    record: {
      v: 1,
      planId,
      planHash: hashContext(snapshot.context),
      status: 'executing',
      repository: `${thread.repoRef.owner}/${thread.repoRef.repo}`,
      issue,
      requestedBy: request.requestedBy,
      commandCommentId: source.commentId,
      base,
      models: { planner: ctx.planner.model, executor: ctx.executor.model },
      policy: settings.policy,
      machine: 'executor-only',
      planningCostUsd: 0,
      issueHash: hashIssue(source.thread.title, source.thread.body),
      snapshot,
      usage: emptyUsage(),
      approvedBy: request.requestedBy,
      branch: branchFor(ctx, issue, planId),
    },
    source,
    comments: request.comments,
    notice: 'Executor-only policy: no planner; the executor worked the objective directly.',
  });
}

export function branchFor(ctx: RunContext, issue: number, planId: string): string {
  return `${ctx.settings.branchPrefix}${issue}-${planId}`;
}

export type BaseOrRefusal = Base | { refusal: string; fix: string };

/** Where the work starts: a pull request's head, the configured base branch, or the default branch. */
export async function resolveBase(ctx: RunContext, source: CommandSource): Promise<BaseOrRefusal> {
  let ref = ctx.settings.baseBranch;
  if (source.thread.isPullRequest) {
    const pull = await ctx.thread.pullRequest(source.thread.number);
    if (!pull.sameRepo) {
      return {
        refusal: 'this pull request comes from a fork; plangate cannot push to its branch.',
        fix: 'Run /plan on an issue instead, or on a pull request from a branch of this repository.',
      };
    }
    ref = pull.headRef;
  }
  if (!ref) ref = await ctx.thread.defaultBranch();
  try {
    return { ref, sha: await fetchBranch(ctx.git, ref) };
  } catch (error) {
    return {
      refusal: `the base branch \`${ref}\` could not be fetched (${error instanceof Error ? error.message : String(error)}).`,
      fix: 'Check the `base-branch` input and that the workflow checks out the repository with actions/checkout.',
    };
  }
}
