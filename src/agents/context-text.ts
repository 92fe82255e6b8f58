import type { ApprovedScope } from '../scope/approved-scope.js';
import type { HistoryEntry, Plan } from '../machine/fields.js';
import { stepWords } from '../machine/reader-words.js';

/**
 * How the run's context is written into summoning messages. Plain text with fixed headings, built
 * only from the run's data, so the same context always reads the same.
 */

export function objectiveText(objective: string): string {
  return `## Objective\n\n${objective.trim()}`;
}

export function planText(plan: Plan | undefined): string {
  return plan ? `## Plan\n\n${planBody(plan)}` : '## Plan\n\n(no plan)';
}

/**
 * The plan as it stands now when it is no longer the plan shown above it: the planner's messages
 * keep the plan a run began with in their stable head (so consecutive sessions share it in the
 * provider's cache) and put a revision here, after the history. Empty while nothing was revised.
 */
export function revisedPlanText(began: Plan | undefined, current: Plan | undefined): string {
  if (!current || (began && planBody(began) === planBody(current))) return '';
  return `## Revised plan (in force now)\n\nThe plan above was revised during the run; this plan replaces it.\n\n${planBody(current)}`;
}

function planBody(plan: Plan): string {
  const steps = plan.steps.map((step, i) => {
    const lines = [`${i + 1}. ${step.title}`];
    if (step.detail) lines.push(`   ${step.detail.replace(/\n/g, '\n   ')}`);
    if (step.files?.length) lines.push(`   Files: ${step.files.join(', ')}`);
    if (step.verify) lines.push(`   Verify: ${step.verify}`);
    if (step.network?.length) lines.push(`   Network: ${step.network.join(', ')}`);
    if (step.after !== undefined) lines.push(`   After: ${step.after.length ? step.after.join(', ') : 'nothing'}`);
    return lines.join('\n');
  });
  const extra = [
    plan.assumptions?.length ? `Assumptions:\n${plan.assumptions.map((a) => `- ${a}`).join('\n')}` : '',
    plan.risks?.length ? `Risks:\n${plan.risks.map((r) => `- ${r}`).join('\n')}` : '',
  ].filter(Boolean);
  return [...steps, ...(extra.length ? ['', ...extra] : [])].join('\n');
}

/**
 * The full history, every directive with its result, for the planner's replan and wrap-up. A cycle
 * that carried out a plan step names it and the steps that ran with it, as the pull request does,
 * so the planner reads a batch's results as one batch; the host's note on it stays on one line.
 */
export function historyText(history: HistoryEntry[]): string {
  if (history.length === 0) return '## History\n\n(no cycle has run)';
  const cycles = history.map((entry, i) => {
    const step = stepWords(entry);
    const note = entry.note?.replace(/\s+/g, ' ').trim();
    return `### Cycle ${i + 1}${step ? ` · ${step}` : ''} (outcome: ${entry.outcome})\n\n${note ? `Note: ${note}\n\n` : ''}Directive:\n${entry.directive}\n\nResult:\n${entry.result}`;
  });
  return ['## History', '', ...cycles].join('\n\n');
}

/** The executor's real tool list, so neither role reasons from assumptions about the other. */
export interface WorkshopFacts {
  executorTools: readonly string[];
  /** The approved scope of the run (absent while planning: the plan is what will define it). */
  scope?: ApprovedScope;
}

export function workshopText(facts: WorkshopFacts, whose: 'The executor' | 'You'): string {
  const tools = `## Tools\n\n${whose} ${whose === 'You' ? 'have' : 'has'}: ${facts.executorTools.join(', ')}. The workspace rules above say which commands may run and which paths are protected.`;
  return facts.scope ? `${tools}\n\n${scopeText(facts.scope)}` : tools;
}

/** What the approval allows, as the agents are told it: the same bounds the tools and the commit gate hold. */
export function scopeText(scope: ApprovedScope): string {
  const listed = (items: readonly string[], none: string) => (items.length ? items.join(', ') : none);
  return [
    '## Approved scope',
    '',
    `The approval allows changes to: ${listed(scope.paths, 'no file')}.`,
    `Commands it allows: ${listed(scope.commands, 'none')}.`,
    ...(scope.network !== undefined
      ? [`Network destinations it allows besides loopback: ${listed(scope.network, 'none')}.`]
      : []),
    `Anything else is refused and held back from the commits; needing more is a reason to replan, and a maintainer approves the wider scope.`,
  ].join('\n');
}

/** The thread the objective came from, already marked untrusted by the host. */
export function threadText(thread: string | undefined): string {
  return thread ? `## The thread (untrusted data)\n\n${thread}` : '';
}

/** Questions the planner asked and the answers a human gave, in order. */
export function clarificationsText(
  clarifications: readonly { question: string; answer: string }[] | undefined,
): string {
  if (!clarifications?.length) return '';
  return ['## Clarifications', '', ...clarifications.map((c) => `Question: ${c.question}\nAnswer: ${c.answer}`)].join(
    '\n\n',
  );
}

/** Earlier plans a maintainer asked to revise, each with the feedback. */
export function revisionsText(revisions: readonly { plan: Plan; feedback: string }[] | undefined): string {
  if (!revisions?.length) return '';
  return [
    '## Revision requested',
    '',
    ...revisions.map((r, i) => `### Earlier plan ${i + 1}\n\n${planBody(r.plan)}\n\nFeedback: ${r.feedback}`),
  ].join('\n\n');
}
