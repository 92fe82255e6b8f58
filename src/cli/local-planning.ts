import { initialSnapshot, plannerExecutorMachine, defaultPolicy } from '../machine/planner-executor.js';
import type { Snapshot } from '../machine/types.js';
import { emptyUsage, type RoleUsageSummary, type UsageLedger } from '../models/usage.js';
import { localPlanHash, newPlanId, savePlan, type LocalPlan } from './plan-store.js';
import { startLocalTeam, type LocalTeamSetup } from './local-team.js';
import { planningOutcome, type PlanningOutcome as EngineOutcome } from '../run/planning-outcome.js';
import { estimateExecutionCost, plannerUsageSince } from '../checks/cost-estimate.js';
import { deriveScope, unplannedScope } from '../checks/scope-derivation.js';
import type { ApprovedScope } from '../scope/approved-scope.js';

/**
 * Planning as `plangate plan` and `plangate run "<objective>"` share it: the read-only planner works
 * in the clean checkout (which is its base commit) until it stages a plan, a question or a
 * no-change answer, exactly as in the action; a plan is saved as a proposed local record.
 */
export interface PlanningRequest {
  setup: LocalTeamSetup;
  objective: string;
  base: { ref: string; sha: string };
  requestedBy: string;
  maxIterations: number;
}

/** The engine's outcome (run/planning-outcome.ts), a plan saved as a local record, and what planning cost. */
export type PlanningOutcome = (
  { kind: 'planned'; plan: LocalPlan; file: string } | Exclude<EngineOutcome, { kind: 'planned' }>
) & { usage: RoleUsageSummary[] };

export async function planLocally(request: PlanningRequest): Promise<PlanningOutcome> {
  const { setup } = request;
  const start = initialSnapshot(request.objective, { ...defaultPolicy, maxIterations: request.maxIterations });
  const team = await startLocalTeam(setup, plannerExecutorMachine, start, request.base.sha);
  // A provider that cannot be reached ends the command with its cause and fix, not as a failed plan.
  const snapshot = await team.drive({ until: (s) => s.state !== 'plan', stopOnModelError: true });
  const usage = team.usage();
  // What counts as a plan, a question or an answer is the action's rule (run/planning-outcome.ts).
  const outcome = planningOutcome(snapshot);
  if (outcome.kind !== 'planned') return { ...outcome, usage };
  const plan = proposedPlan(request, 'planner-executor', snapshot, team.ledger());
  return { kind: 'planned', plan, file: savePlan(setup.repo.gitDir, plan), usage };
}

/** A record waiting for approval, bound by its hash to the snapshot it carries. */
export function proposedPlan(
  request: Pick<PlanningRequest, 'setup' | 'base' | 'requestedBy'>,
  machine: LocalPlan['machine'],
  snapshot: Snapshot,
  usage: UsageLedger = emptyUsage(),
): LocalPlan {
  const { setup } = request;
  const bound = {
    snapshot,
    machine,
    base: request.base,
    allowedCommands: setup.allowedCommands,
    protectedPaths: setup.protectedPaths,
    scope: localScope(setup, snapshot, usage),
  };
  return {
    v: 1,
    planId: newPlanId(setup.repo.gitDir),
    planHash: localPlanHash(bound),
    status: 'proposed',
    machine,
    base: request.base,
    requestedBy: request.requestedBy,
    models: { planner: setup.planner.model, executor: setup.executor.model },
    allowedCommands: setup.allowedCommands,
    protectedPaths: setup.protectedPaths,
    createdAt: new Date().toISOString(),
    snapshot,
    usage,
    scope: bound.scope,
  };
}

/**
 * Steps the local run carries out at once: one. It works in the one checkout, a step after another,
 * whatever the plan lets run together, so the scope of a plan that orders its steps says 1 (not the
 * action's `parallel-steps`), and the plan it shows is in that order.
 */
const localParallelSteps = 1;

/** The scope an approval of the plan grants, as the action derives it; a run with no plan gets the open one. */
function localScope(setup: LocalTeamSetup, snapshot: Snapshot, usage: UsageLedger): ApprovedScope {
  const { plan } = snapshot.context;
  const { maxIterations } = snapshot.policy;
  if (!plan) return unplannedScope({ allowedCommands: setup.allowedCommands, maxIterations });
  const planning = plannerUsageSince(usage, emptyUsage());
  const estimate = estimateExecutionCost({
    planning,
    steps: plan.steps.length,
    executorModel: setup.executor.model,
    prices: setup.prices,
  });
  return deriveScope({
    plan,
    allowedCommands: setup.allowedCommands,
    planning,
    estimate,
    maxIterations,
    parallelSteps: localParallelSteps,
  });
}
