import { initialSnapshot, plannerExecutorMachine, defaultPolicy } from '../machine/planner-executor.js';
import type { Snapshot } from '../machine/types.js';
import { emptyUsage, type RoleUsageSummary, type UsageLedger } from '../models/usage.js';
import { localPlanHash, newPlanId, savePlan, type LocalPlan } from './plan-store.js';
import { startLocalTeam, type LocalTeamSetup } from './local-team.js';

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

export type PlanningOutcome =
  | { kind: 'planned'; plan: LocalPlan; file: string; usage: RoleUsageSummary[] }
  | { kind: 'asked'; question: string; usage: RoleUsageSummary[] }
  | { kind: 'answered'; summary: string; usage: RoleUsageSummary[] }
  | { kind: 'failed'; reason: string; usage: RoleUsageSummary[] };

export async function planLocally(request: PlanningRequest): Promise<PlanningOutcome> {
  const { setup } = request;
  const start = initialSnapshot(request.objective, { ...defaultPolicy, maxIterations: request.maxIterations });
  const team = await startLocalTeam(setup, plannerExecutorMachine, start, request.base.sha);
  const snapshot = await team.drive({ until: (s) => s.state !== 'plan' });
  const usage = team.usage();
  if (snapshot.state === 'execute' && snapshot.context.plan !== undefined) {
    const plan = proposedPlan(request, 'planner-executor', snapshot, team.ledger());
    return { kind: 'planned', plan, file: savePlan(setup.repo.gitDir, plan), usage };
  }
  if (snapshot.state === 'ask' && snapshot.context.question) return { kind: 'asked', question: snapshot.context.question, usage };
  if (snapshot.state === 'done' && snapshot.abortReason === undefined && snapshot.context.summary !== undefined) {
    return { kind: 'answered', summary: snapshot.context.summary, usage };
  }
  return { kind: 'failed', reason: snapshot.abortReason ?? 'the planner stopped without staging a plan', usage };
}

/** A record waiting for approval, bound by its hash to the snapshot it carries. */
export function proposedPlan(request: Pick<PlanningRequest, 'setup' | 'base' | 'requestedBy'>, machine: LocalPlan['machine'], snapshot: Snapshot, usage: UsageLedger = emptyUsage()): LocalPlan {
  const { setup } = request;
  const bound = { snapshot, machine, base: request.base, allowedCommands: setup.allowedCommands, protectedPaths: setup.protectedPaths };
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
  };
}
