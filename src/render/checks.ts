import { formatCost, type RoleUsageSummary } from '../models/usage.js';
import { code, escapeHtml } from '../text/markdown.js';
import { formatEstimate, type CostEstimate } from '../checks/cost-estimate.js';
import type { Finding } from '../checks/plan-checks.js';
import { describeFinding, fixFor } from '../checks/finding-text.js';
import type { PlanChecks } from '../checks/stored-checks.js';

/**
 * The plan-checks section of the plan comment and the estimate beside the actual cost, for the
 * pull request and the job summary. Pure functions of the stored checks: the plan comment is
 * re-rendered to verify it. The words for one finding are checks/finding-text.ts's.
 */
const severityIcon: Record<Finding['severity'], string> = { blocking: '⛔', warning: '⚠️', info: 'ℹ️' };
const bullet = (finding: Finding) => `- ${severityIcon[finding.severity]} ${describeFinding(finding)}`;

/**
 * The checks section of the plan comment, above the approve instruction. `open` (the plan still
 * waits for approval) adds how to fix what blocks it.
 */
export function renderChecks(checks: PlanChecks, open: boolean): string {
  const { findings, omitted, blocking } = checks;
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  const caveat = findings.some((f) => f.kind === 'commands-cannot-run')
    ? 'but commands cannot run on this runner'
    : 'but a verify command is not in `allowed-commands`, so that step goes unverified unless it is allowed';
  const head =
    blocking > 0
      ? `⛔ **Checks failed**: ${blocking} blocking ${blocking === 1 ? 'finding' : 'findings'}; this plan cannot be approved as it is.`
      : warnings > 0
        ? `✅ **Checks passed** with ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}: no step touches a protected path and the steps fit \`max-iterations\`, ${caveat}.`
        : `✅ **Checks passed**: no step touches a protected path, every verify command is allowed, the steps fit \`max-iterations\`.`;
  const lines = [head];
  if (findings.length > 0) lines.push('', ...findings.map(bullet));
  if (omitted > 0) lines.push(`- … and ${omitted} more ${omitted === 1 ? 'finding' : 'findings'} not shown.`);
  if (open && blocking > 0) lines.push('', fixFor(findings.filter((f) => f.severity === 'blocking')));
  lines.push('', `**Execution cost**: ${estimateText(checks.estimate)}`);
  return lines.join('\n');
}

function estimateText(estimate: CostEstimate): string {
  const what = `executor ${code(estimate.model)}, ${estimate.steps} ${estimate.steps === 1 ? 'step' : 'steps'}`;
  if (estimate.kind === 'unknown') return `${escapeHtml(formatEstimate(estimate))} (${what}).`;
  return `${formatEstimate(estimate)} for the ${what}, from planning's measured usage; planning each next step and the summary come on top.`;
}

/** The executor's actual cost from the usage rows: what the estimate predicted. */
export function executorActual(rows: readonly RoleUsageSummary[]): number | null {
  const executor = rows.find((r) => r.role === 'executor');
  return executor ? executor.costUsd : 0;
}

/** Estimate beside actual, for the pull request and the job summary once the run has spent it. */
export function renderCostComparison(estimate: CostEstimate, rows: readonly RoleUsageSummary[]): string {
  return `**Execution cost** (executor ${code(estimate.model)}): ${escapeHtml(formatEstimate(estimate))} · actual ${formatCost(executorActual(rows))}`;
}
