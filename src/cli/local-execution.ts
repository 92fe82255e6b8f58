import { createBudget } from '../agents/budget.js';
import { executorOnlyMachine } from '../machine/executor-only.js';
import { plannerExecutorMachine } from '../machine/planner-executor.js';
import type { Snapshot } from '../machine/types.js';
import type { RoleUsageSummary } from '../models/usage.js';
import { commitTrailers, withTrailers } from '../render/commit-trailers.js';
import { commitAll, startBranch } from '../repo/branch.js';
import { startLocalTeam, type LocalTeamSetup } from './local-team.js';
import { savePlan, type LocalPlan } from './plan-store.js';

/**
 * Carries out an approved local plan the way the action does, minus GitHub: a new branch from the
 * plan's base commit, the machine driven to its end (the planner revising as the executor reports),
 * one commit per cycle with the action's trailers, and the record kept in step. Nothing is pushed.
 */
export interface ExecutionRequest {
  setup: LocalTeamSetup;
  /** Approved: carries its approver; its snapshot holds the policy bounds the run enforces. */
  plan: LocalPlan & { approvedBy: string };
  /** Checked by the caller: a valid name that no branch has yet. */
  branch: string;
  /** The user, as git commits for them. */
  author: { name: string; email: string };
  maxCostUsd?: number;
}

export interface ExecutionOutcome {
  final: Snapshot;
  plan: LocalPlan;
  usage: RoleUsageSummary[];
  /** Commits made on the branch. */
  commits: number;
  /** Why the run stopped short; undefined when it finished. */
  abortReason?: string;
}

export async function executeLocally(request: ExecutionRequest): Promise<ExecutionOutcome> {
  const { setup, branch, author } = request;
  const { git, gitDir } = setup.repo;
  let plan: LocalPlan = { ...request.plan, status: 'executing', branch };
  await startBranch(git, branch, plan.base.sha);
  savePlan(gitDir, plan);

  const definition = plan.machine === 'executor-only' ? executorOnlyMachine : plannerExecutorMachine;
  const team = await startLocalTeam(setup, definition, plan.snapshot, plan.base.sha, plan.usage);
  // The committer is the user; the trailers name the plan and the approval, as on the action's commits.
  const trailers = commitTrailers({ planId: plan.planId, approvedBy: request.plan.approvedBy, requestedBy: plan.requestedBy, botLogin: author.name });
  let commits = 0;
  const commitCycle = async (s: Snapshot) => {
    const title = (s.context.history.at(-1)?.directive.split('\n')[0] ?? '').slice(0, 60);
    const message = withTrailers(`plangate: cycle ${s.context.history.length} of plan ${plan.planId}: ${title}`, trailers);
    if ((await commitAll(git, message, author, setup.protectedPaths)).sha) commits += 1;
  };
  const budget =
    request.maxCostUsd === undefined
      ? undefined
      : createBudget({ now: Date.now, startedAt: Date.now(), maxCostUsd: request.maxCostUsd, spentUsd: () => team.totals().costUsd });
  const final = await team.drive({ ...(budget ? { budget } : {}), onCycle: commitCycle });
  // Anything left after the last cycle (e.g. a cycle cut short by an abort) is kept too.
  await commitCycle(final);

  const lastCycle = final.context.history.at(-1);
  const aborted = final.abortReason !== undefined || lastCycle?.outcome === 'abort';
  // The record keeps the approved snapshot, so its hash still matches the plan that was shown.
  plan = { ...plan, status: aborted ? 'aborted' : 'done', usage: team.ledger() };
  savePlan(gitDir, plan);
  return {
    final,
    plan,
    usage: team.usage(),
    commits,
    ...(aborted ? { abortReason: final.abortReason ?? lastCycle?.result ?? 'the executor aborted' } : {}),
  };
}
