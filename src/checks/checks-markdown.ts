import { formatCost, type RoleUsageSummary } from '../models/usage.js';
import { code, escapeHtml } from '../render/markdown.js';
import { formatEstimate, type CostEstimate } from './cost-estimate.js';
import type { Finding } from './plan-checks.js';
import type { PlanChecks } from './stored-checks.js';

/**
 * The words for plan checks, shared by the plan comment, the `/approve` refusal, the pull request
 * and the job summary, so a finding reads the same wherever a maintainer meets it. Pure functions
 * of the stored checks: the plan comment is re-rendered to verify it.
 */

/**
 * How a sentence is written: `markdown` puts paths and commands in code spans and escapes the free
 * text; `plain` quotes them and escapes nothing, for a caller that escapes the whole sentence (a
 * refusal does, and escaped characters inside a code span would show as entities).
 */
export type FindingStyle = 'markdown' | 'plain';

/** One finding as a sentence, naming the step, the file or command and the rule. */
export function describeFinding(finding: Finding, style: FindingStyle = 'markdown'): string {
  const quote = style === 'markdown' ? code : (text: string) => `"${text}"`;
  const escape = style === 'markdown' ? escapeHtml : (text: string) => text;
  switch (finding.kind) {
    case 'too-many-steps':
      return `the plan has ${finding.steps} steps, but \`max-iterations\` allows ${finding.maxIterations} execute ${finding.maxIterations === 1 ? 'cycle' : 'cycles'} (one step each), so the run would stop before the end`;
    case 'protected-path':
      return `step ${finding.step}: ${quote(finding.file)} is protected by \`protected-paths\` (${quote(finding.pattern)}); the executor cannot write it`;
    case 'command-not-allowed':
      return `step ${finding.step}: the verify command ${quote(finding.command)} is not in \`allowed-commands\`${finding.reason ? ` (${escape(finding.reason)})` : ''}; the executor cannot run it`;
    case 'commands-cannot-run':
      return `commands cannot run on this runner: ${escape(finding.cause)}; the executor's \`run_command\` will refuse every command, so no step can be built or verified. Run the job as root or with passwordless sudo (GitHub-hosted runners have it), or set \`command-isolation: none\` to run commands as the action's own user, where they can read its secrets`;
    case 'new-file':
      return `step ${finding.step}: ${quote(finding.file)} is new: it is not in the base commit and the step creates it`;
    case 'not-found':
      return `step ${finding.step}: ${quote(finding.file)} was not found in the base commit; a step may still create it`;
  }
}

/** What to change so the blocking findings go away: the configuration, or the plan. */
export function fixFor(findings: readonly Finding[]): string {
  const kinds = new Set(findings.map((f) => f.kind));
  const settings = [
    kinds.has('protected-path') ? '`protected-paths`' : '',
    kinds.has('command-not-allowed') ? '`allowed-commands`' : '',
    kinds.has('too-many-steps') ? '`max-iterations`' : '',
  ].filter((s) => s !== '');
  const adjust = settings.length > 0 ? `adjust ${settings.join(', ')} and ask for the plan again` : 'ask for the plan again';
  return `To fix: ${adjust} with \`/revise <feedback>\`, or reply \`/revise <feedback>\` asking for a plan that avoids ${findings.length === 1 ? 'this' : 'these'}.`;
}

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
  return `${formatEstimate(estimate)} for the ${what}, from planning's measured usage; replanning and the summary come on top.`;
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
