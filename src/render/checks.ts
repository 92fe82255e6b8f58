import { formatCost, type RoleUsageSummary } from '../models/usage.js';
import { code, escapeHtml } from '../text/markdown.js';
import { formatEstimate, type CostEstimate } from '../checks/cost-estimate.js';
import type { Finding } from '../checks/plan-checks.js';
import { describeFinding, fixFor, type FindingStyle } from '../checks/finding-text.js';
import type { PlanChecks } from '../checks/stored-checks.js';

/**
 * The plan-checks section of the plan comment (and of the local command's plan, as plain text) and
 * the estimate beside the actual cost, for the pull request and the job summary. Pure functions of the stored checks: the plan comment is
 * re-rendered to verify it. The words for one finding are checks/finding-text.ts's.
 */
const severityIcon: Record<Finding['severity'], string> = { blocking: '⛔', warning: '⚠️', info: 'ℹ️' };

/** How the section is written: Markdown for GitHub, or plain text for the terminal, with the fix its host offers. */
interface ChecksForm {
  style: FindingStyle;
  /** What to do about the blocking findings; absent: the plan is past fixing (no longer open). */
  fix?: (blocking: readonly Finding[]) => string;
}

function checksLines(checks: PlanChecks, form: ChecksForm): string[] {
  const { findings, omitted, blocking } = checks;
  const bold = (text: string) => (form.style === 'markdown' ? `**${text}**` : text);
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  const caveat = findings.some((f) => f.kind === 'commands-cannot-run')
    ? 'but commands cannot run on this runner'
    : 'but a verify command is not in `allowed-commands`, so that step goes unverified unless it is allowed';
  const head =
    blocking > 0
      ? `⛔ ${bold('Checks failed')}: ${blocking} blocking ${blocking === 1 ? 'finding' : 'findings'}; this plan cannot be approved as it is.`
      : warnings > 0
        ? `✅ ${bold('Checks passed')} with ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}: no step touches a protected path and the steps fit \`max-iterations\`, ${caveat}.`
        : `✅ ${bold('Checks passed')}: no step touches a protected path, every verify command is allowed, the steps fit \`max-iterations\`.`;
  const lines = [head];
  if (findings.length > 0)
    lines.push('', ...findings.map((f) => `- ${severityIcon[f.severity]} ${describeFinding(f, form.style)}`));
  if (omitted > 0) lines.push(`- … and ${omitted} more ${omitted === 1 ? 'finding' : 'findings'} not shown.`);
  if (form.fix && blocking > 0) lines.push('', form.fix(findings.filter((f) => f.severity === 'blocking')));
  lines.push('', `${bold('Execution cost')}: ${estimateText(checks.estimate, form.style)}`);
  return lines;
}

/**
 * The checks section of the plan comment, above the approve instruction. `open` (the plan still
 * waits for approval) adds how to fix what blocks it.
 */
export function renderChecks(checks: PlanChecks, open: boolean): string {
  return checksLines(checks, { style: 'markdown', ...(open ? { fix: fixFor } : {}) }).join('\n');
}

/** The same section as plain text, for the local command; `fix` says what its user can change. */
export function renderChecksText(checks: PlanChecks, fix: (blocking: readonly Finding[]) => string): string {
  return checksLines(checks, { style: 'plain', fix }).join('\n');
}

function estimateText(estimate: CostEstimate, style: FindingStyle): string {
  const model = style === 'markdown' ? code(estimate.model) : estimate.model;
  const what = `executor ${model}, ${estimate.steps} ${estimate.steps === 1 ? 'step' : 'steps'}`;
  const shown = style === 'markdown' ? escapeHtml(formatEstimate(estimate)) : formatEstimate(estimate);
  if (estimate.kind === 'unknown') return `${shown} (${what}).`;
  return `${shown} for the ${what}, from planning's measured usage; planning each next step and the summary come on top.`;
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
