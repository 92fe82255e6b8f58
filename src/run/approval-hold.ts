import { approvalGate, type GateVerdict } from '../checks/approval-gate.js';
import { checkPlan } from '../checks/plan-checks.js';
import type { RepoRole } from '../config/permissions.js';
import type { Settings } from '../config/settings.js';
import { hashIssue, type PlanRecord } from '../record/plan-record.js';
import type { Thread } from './command.js';

/**
 * The approval gate for a live plan under this run's settings: the checks its comment showed, the
 * same rules re-checked against this run's configuration, and the cost ceiling. `/approve` refuses
 * on it and `/status` reports it, so a status never offers an approval that `/approve` would refuse.
 * Only a proposed plan is judged: one already approved or running is past the gate.
 */
export function approvalHold(
  settings: Pick<Settings, 'protectedPaths' | 'allowedCommands' | 'allowBlockedPlans' | 'maxEstimatedCostUsd'>,
  record: PlanRecord,
  approver: { overBudget: boolean; role: RepoRole },
): GateVerdict {
  const { plan } = record.snapshot.context;
  if (record.status !== 'proposed' || !plan) return { ok: true };
  return approvalGate({
    planId: record.planId,
    stored: record.checks,
    current: checkPlan(plan, {
      protectedPaths: settings.protectedPaths,
      allowedCommands: settings.allowedCommands,
      maxIterations: record.snapshot.policy.maxIterations,
    }),
    allowBlockedPlans: settings.allowBlockedPlans,
    maxEstimatedCostUsd: settings.maxEstimatedCostUsd,
    overBudget: approver.overBudget,
    role: approver.role,
  });
}

/** Why an approval no longer fits the thread: the issue or pull request text changed after planning. */
export function threadChange(thread: Thread, record: PlanRecord): { reason: string; fix: string } | undefined {
  if (hashIssue(thread.title, thread.body) === record.issueHash) return undefined;
  return {
    reason: `the title or description of #${thread.number} changed after plan \`${record.planId}\` was made.`,
    fix: 'Ask for a new plan with `/plan` (or `/revise <feedback>`) so it reflects the current text.',
  };
}
