import { formatCost } from '../models/usage.js';
import { hasRole, type RepoRole } from '../config/permissions.js';
import { describeFinding, fixFor } from './finding-text.js';
import { estimateHigh, formatEstimate } from './cost-estimate.js';
import { isBlocking, type Finding } from './plan-checks.js';
import type { PlanChecks } from './stored-checks.js';

/**
 * Whether `/approve` may start a plan, as far as its checks and its estimate go. The stored checks
 * are what the plan comment showed, so a plan that showed a blocking finding stays blocked until it
 * is planned again; the same rules re-checked against the approving run's configuration catch what
 * that run would enforce differently (a tightened config, or a maintenance task's own
 * allowed-commands, which an approval on the thread does not have). Fails closed: a plan without
 * stored checks, or whose estimate has no number, cannot be held under a ceiling and needs the
 * over-budget override.
 */
export interface GateInput {
  planId: string;
  /** The checks the plan comment showed; absent for plans posted before checks existed. */
  stored: PlanChecks | undefined;
  /** The plan re-checked against the approving run's rules (existence is not judged again). */
  current: readonly Finding[];
  allowBlockedPlans: boolean;
  maxEstimatedCostUsd: number | undefined;
  /** The command was `/approve --over-budget`. */
  overBudget: boolean;
  /** The approver's role, as the permission API reported it. */
  role: RepoRole;
}

/** `held` says what holds the plan: its blocking findings, or its estimate against the ceiling. */
export type GateVerdict = { ok: true } | { ok: false; held: 'checks' | 'cost'; reason: string; fix: string };

/** Who may approve past `max-estimated-cost-usd`. */
export const overBudgetRole: RepoRole = 'maintain';

/** Blocking findings listed in a refusal; the count covers the rest. */
const listedInRefusal = 10;

export function approvalGate(input: GateInput): GateVerdict {
  const { planId } = input;
  const blocking = blockingFindings(input);
  if (blocking.findings.length > 0 && !input.allowBlockedPlans) {
    const total = blocking.findings.length + blocking.unlisted;
    const lines = blocking.findings.slice(0, listedInRefusal).map((f) => `- ${describeFinding(f, 'plain')}`);
    const more = total - Math.min(blocking.findings.length, listedInRefusal);
    if (more > 0) lines.push(`- … and ${more} more`);
    return {
      ok: false,
      held: 'checks',
      reason: `plan \`${planId}\` has ${total} blocking ${total === 1 ? 'finding' : 'findings'}:\n${lines.join('\n')}`,
      fix: fixFor(blocking.findings),
    };
  }
  const limit = input.maxEstimatedCostUsd;
  if (limit === undefined) return { ok: true };
  const estimate = input.stored?.estimate;
  const high = estimate ? estimateHigh(estimate) : null;
  if (high !== null && high <= limit) return { ok: true };
  const over =
    high !== null && estimate
      ? `the estimated execution cost of plan \`${planId}\`, ${formatEstimate(estimate)}, exceeds \`max-estimated-cost-usd\` (${formatCost(limit)})`
      : `plan \`${planId}\` has no cost estimate to hold to \`max-estimated-cost-usd\` (${formatCost(limit)}): ${estimate ? formatEstimate(estimate) : 'it was planned before estimates existed'}`;
  if (!input.overBudget) {
    return {
      ok: false,
      held: 'cost',
      reason: `${over}.`,
      fix: `Someone with ${overBudgetRole} permission or higher can approve it anyway with \`/approve --over-budget ${planId}\`; or ask for a smaller plan with \`/revise <feedback>\`.`,
    };
  }
  if (!hasRole(input.role, overBudgetRole)) {
    return {
      ok: false,
      held: 'cost',
      reason: `${over}, and \`/approve --over-budget\` needs ${overBudgetRole} permission or higher; this approver has ${input.role}.`,
      fix: `Ask someone with ${overBudgetRole} permission to approve it with \`/approve --over-budget ${planId}\`.`,
    };
  }
  return { ok: true };
}

/** Stored blocking findings, then current ones the stored list does not already hold; `unlisted` counts those left out of the record. */
function blockingFindings(input: GateInput): { findings: Finding[]; unlisted: number } {
  const stored = (input.stored?.findings ?? []).filter(isBlocking);
  const seen = new Set(stored.map(keyOf));
  const added = input.current.filter((f) => isBlocking(f) && !seen.has(keyOf(f)));
  // The record keeps only the first findings; the count of blocking ones stays exact.
  const unlisted = Math.max(0, (input.stored?.blocking ?? 0) - stored.length);
  return { findings: [...stored, ...added], unlisted };
}

/** Equal findings give equal keys whatever order their properties were written in. */
const keyOf = (finding: Finding) =>
  JSON.stringify(Object.entries(finding).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
