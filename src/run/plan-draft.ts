import type { CommandSource } from './command.js';
import type { Comment } from '../github/thread.js';
import type { ServerFailure } from '../mcp/capability-hub.js';
import type { Snapshot } from '../machine/types.js';
import type { UsageLedger } from '../models/usage.js';
import { hashIssue, hashPlan, planIdFor, type PlanRecord } from '../record/plan-record.js';
import type { PlanChecks } from '../checks/stored-checks.js';
import type { ApprovedScope } from '../scope/approved-scope.js';
import type { RunContext } from './run-context.js';
import { usageTotals } from './run-team.js';
import type { ResolvedBase } from './work-base.js';
import type { ReviewThreadRef } from './review-context-text.js';

/**
 * Planning as `/plan`, `/revise` and `/answer` share it: the read-only planner works at the base
 * commit until it stages a plan, a question or a no-change answer; plangate posts that with its
 * record and, as the policy says, waits, executes at once, or only advises.
 */
export interface PlanningRequest {
  source: CommandSource;
  requestedBy: string;
  snapshot: Snapshot;
  base: ResolvedBase;
  /** The review threads the planner was given, on a pull request. */
  reviewThreads?: readonly ReviewThreadRef[];
  spent?: UsageLedger;
  /** The thread's comments as read at the start of the run; earlier records among them are superseded. */
  comments: readonly Comment[];
}

/** The record of what one planning run produced, in the status it is posted with. */
export type RecordDraft = (
  status: PlanRecord['status'],
  s: Snapshot,
  machine?: PlanRecord['machine'],
  checks?: PlanChecks,
  scope?: ApprovedScope,
) => PlanRecord;

/**
 * Binds everything a planning run's record states besides its status and content: the plan id
 * (from the command comment, so a re-run finds it), the thread's text, the models, the cost so far.
 */
export function recordDraft(
  ctx: RunContext,
  request: PlanningRequest,
  ledger: UsageLedger,
  mcpFailures: readonly ServerFailure[],
): RecordDraft {
  const { thread, settings } = ctx;
  const { source } = request;
  const issue = source.thread.number;
  const repository = `${thread.repoRef.owner}/${thread.repoRef.repo}`;
  return (status, s, machine = 'planner-executor', checks, scope) => ({
    v: 1,
    planId: planIdFor(repository, issue, source.commentId),
    planHash: hashPlan(s.context, checks, scope),
    status,
    repository,
    issue,
    requestedBy: request.requestedBy,
    commandCommentId: source.commentId,
    base: { ref: request.base.ref, sha: request.base.sha },
    ...(request.base.sameBranch ? { sameBranch: true as const } : {}),
    ...(request.reviewThreads?.length ? { reviewThreads: [...request.reviewThreads] } : {}),
    models: { planner: ctx.planner.model, executor: ctx.executor.model },
    policy: settings.policy,
    machine,
    planningCostUsd: usageTotals(ledger, ctx).costUsd,
    issueHash: hashIssue(source.thread.title, source.thread.body),
    postedAt: new Date().toISOString(),
    snapshot: s,
    usage: ledger,
    ...(checks ? { checks } : {}),
    ...(scope ? { scope } : {}),
    ...(mcpFailures.length > 0 ? { mcpFailures: [...mcpFailures] } : {}),
    ...(settings.commandPrefix ? { commandPrefix: settings.commandPrefix } : {}),
  });
}
