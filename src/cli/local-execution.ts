import type { Snapshot } from '../machine/types.js';
import type { RoleUsageSummary } from '../models/usage.js';
import { commitTrailers, withTrailers } from '../render/commit-trailers.js';
import { commitAll, startBranch } from '../repo/branch.js';
import { cycleCommitMessage } from '../run/cycle-commit.js';
import { runBudget } from '../run/run-budget.js';
import { runEnding } from '../run/run-ending.js';
import { machineFor } from '../run/run-team.js';
import { startLocalTeam, type LocalTeamSetup } from './local-team.js';
import { savePlan, type LocalPlan } from './plan-store.js';
import { isEmptyDelta, scopeDelta } from '../checks/scope-derivation.js';
import type { ScopeDelta } from '../scope/approved-scope.js';

/** What a local user does when the run needs more: the CLI posts no amendment to approve. */
const widenLocally =
  'The work so far is on the branch; to go on, plan again with an objective that names what more is needed';

function describeDelta(delta: ScopeDelta): string {
  return [
    ...(delta.paths?.length ? [`changes to ${delta.paths.join(', ')}`] : []),
    ...(delta.commands?.length ? [`the commands ${delta.commands.join(', ')}`] : []),
  ].join(' and ');
}

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

  const { scope } = plan;
  if (!scope) throw new Error(`plan ${plan.planId} was saved before plans named what a run may change; plan again`);
  const team = await startLocalTeam(setup, machineFor(plan.machine), plan.snapshot, plan.base.sha, plan.usage, scope);
  // The committer is the user; the trailers name the plan and the approval, as on the action's commits.
  const trailers = commitTrailers({
    planId: plan.planId,
    approvedBy: request.plan.approvedBy,
    requestedBy: plan.requestedBy,
    botLogin: author.name,
  });
  let commits = 0;
  const commitCycle = async (s: Snapshot) => {
    // The action's message without its `Refs #<issue>` line: a local plan has no thread.
    const message = withTrailers(cycleCommitMessage(s, plan.planId), trailers);
    if ((await commitAll(git, message, author, setup.protectedPaths, scope)).sha) commits += 1;
  };
  // The action's budget: the approved scope's, and --max-cost-usd when given.
  const budget = runBudget({ maxCostUsd: request.maxCostUsd }, () => team.totals().costUsd, Date.now, {
    budget: scope.budget,
    ledger: () => team.ledger(),
    atApproval: plan.usage,
    prices: setup.prices,
  });
  // As in the action, a revision that needs more than the approval allows stops the run.
  const wider = (s: Snapshot) => {
    const delta =
      s.context.plan && s.state === 'execute' ? scopeDelta(scope, s.context.plan, plan.allowedCommands) : {};
    return isEmptyDelta(delta) ? undefined : delta;
  };
  const final = await team.drive({ budget, onCycle: commitCycle, until: (s) => wider(s) !== undefined });
  // Anything left after the last cycle (e.g. a cycle cut short by an abort) is kept too.
  await commitCycle(final);

  const needs = wider(final);
  const beyond =
    budget.spent ??
    (needs ? `the revised plan needs ${describeDelta(needs)}, beyond what the approval allows` : undefined);
  const ending =
    beyond !== undefined ? { outcome: 'aborted' as const, reason: `${beyond}. ${widenLocally}` } : runEnding(final);
  // The record keeps the approved snapshot, so its hash still matches the plan that was shown.
  plan = { ...plan, status: ending.outcome, usage: team.ledger() };
  savePlan(gitDir, plan);
  return {
    final,
    plan,
    usage: team.usage(),
    commits,
    ...(ending.outcome === 'aborted' ? { abortReason: ending.reason } : {}),
  };
}
