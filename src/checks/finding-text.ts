import { code, escapeHtml } from '../text/markdown.js';
import type { Finding } from './plan-checks.js';

/**
 * The words for one plan-check finding, shared by the plan comment, the `/approve` refusal, the pull
 * request and the job summary, so a finding reads the same wherever a maintainer meets it. Pure functions
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
    case 'network-not-allowed':
      return `step ${finding.step}: ${networkWords(finding, quote)}`;
    case 'commands-cannot-run':
      return `commands cannot run on this runner: ${escape(finding.cause)}; the executor's \`run_command\` will refuse every command, so no step can be built or verified. ${cannotRunFix(finding.cause)}`;
    case 'new-file':
      return `step ${finding.step}: ${quote(finding.file)} is new: it is not in the base commit and the step creates it`;
    case 'not-found':
      return `step ${finding.step}: ${quote(finding.file)} was not found in the base commit; a step may still create it`;
  }
}

/** The fix for a runner where commands cannot run: the sealed network's own, or the account switch's. */
function cannotRunFix(cause: string): string {
  return /sealed network/.test(cause)
    ? 'Fix the cause (the sealed network needs nftables and root or passwordless sudo), or set `network: open` to run commands with the network as the runner has it'
    : "Run the job as root or with passwordless sudo (GitHub-hosted runners have it), or set `command-isolation: none` to run commands as the action's own user, where they can read its secrets";
}

/** Why a destination a step names stays closed, and what opens it if anything does. */
function networkWords(
  finding: Extract<Finding, { kind: 'network-not-allowed' }>,
  quote: (text: string) => string,
): string {
  const named = quote(finding.destination);
  switch (finding.why) {
    case 'not-allowed':
      return `the network destination ${named} is not in \`allowed-domains\`, so it is left out of the approved scope and commands cannot reach it; to allow it, add ${named} to the workflow's \`allowed-domains\` and ask for the plan again`;
    case 'always-closed':
      return `the network destination ${named} is a link-local, cloud metadata or NAT64 address, closed whatever \`allowed-domains\` says; commands cannot reach it`;
    case 'malformed':
      return `${named} is no network destination (a host, \`*.example.com\`, \`host:port\`, an IP address or a bundle such as \`npm\`); it is left out of the approved scope`;
  }
}

/** The settings behind the findings, by their input names (the CLI's flags have the same names). */
export function settingsBehind(findings: readonly Finding[]): string[] {
  const kinds = new Set(findings.map((f) => f.kind));
  return [
    kinds.has('protected-path') ? 'protected-paths' : '',
    kinds.has('command-not-allowed') ? 'allowed-commands' : '',
    findings.some((f) => f.kind === 'network-not-allowed' && f.why === 'not-allowed') ? 'allowed-domains' : '',
    kinds.has('too-many-steps') ? 'max-iterations' : '',
  ].filter((s) => s !== '');
}

/** What to change so the blocking findings go away: the configuration, or the plan. */
export function fixFor(findings: readonly Finding[]): string {
  const settings = settingsBehind(findings).map((name) => `\`${name}\``);
  const adjust =
    settings.length > 0 ? `adjust ${settings.join(', ')} and ask for the plan again` : 'ask for the plan again';
  return `To fix: ${adjust} with \`/revise <feedback>\`, or reply \`/revise <feedback>\` asking for a plan that avoids ${findings.length === 1 ? 'this' : 'these'}.`;
}
