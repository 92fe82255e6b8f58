import type { Plan } from '../machine/fields.js';
import { encodeRecord, type PlanRecord } from '../record/plan-record.js';
import { githubBodyLimit, fitBody } from './limits.js';
import { code, escapeHtml, indent } from './markdown.js';

/**
 * The plan comment: what a maintainer reads before approving, with the hidden record appended.
 * Rendering is a pure function of the record, so verification can re-render and compare: the
 * comment is trusted only while it reads exactly like this.
 */

/** Renders plan steps as a task list; `done` ticks the first steps. */
export function renderSteps(plan: Plan, done = 0): string {
  return plan.steps
    .map((step, i) => {
      const lines = [`- [${i < done ? 'x' : ' '}] **${i + 1}. ${escapeHtml(step.title)}**`];
      if (step.detail) lines.push(`  ${indent(escapeHtml(step.detail), 2)}`);
      const facts: string[] = [];
      if (step.files?.length) facts.push(`Files: ${step.files.map(code).join(', ')}`);
      if (step.verify) facts.push(`Verify: ${code(step.verify)}`);
      if (facts.length) lines.push(`  ${facts.join(' · ')}`);
      return lines.join('\n');
    })
    .join('\n');
}

function bulletSection(title: string, items: string[] | undefined): string {
  if (!items?.length) return '';
  return `\n\n**${title}**\n${items.map((item) => `- ${escapeHtml(item)}`).join('\n')}`;
}

/** Renders a plan with its assumptions and risks. */
export function renderPlan(plan: Plan, done = 0): string {
  return renderSteps(plan, done) + bulletSection('Assumptions', plan.assumptions) + bulletSection('Risks', plan.risks);
}

/** The objective as a quote, safe against markup in user text. */
export function renderObjective(objective: string): string {
  return escapeHtml(objective.trim())
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

function statusLine(record: PlanRecord): string {
  const id = code(record.planId);
  switch (record.status) {
    case 'proposed':
      return [
        `**Status:** proposed, waiting for approval.`,
        '',
        `To run this plan, a maintainer replies:`,
        '',
        `    /approve ${record.planId}`,
        '',
        'To change it, comment `/plan` with a revised objective; the new plan replaces this one.',
      ].join('\n');
    case 'approved':
    case 'executing':
      return `**Status:** approved by @${record.approvedBy ?? 'unknown'}, executing${record.branch ? ` on ${code(record.branch)}` : ''}.`;
    case 'done':
      return `**Status:** done${record.pullRequest ? `: pull request #${record.pullRequest.number}` : ''}.`;
    case 'aborted':
      return `**Status:** aborted${record.pullRequest ? `; the work so far is in pull request #${record.pullRequest.number}` : ''}.`;
    case 'superseded':
      return `**Status:** superseded${record.supersededBy ? ` by plan ${code(record.supersededBy)}` : ''}; it can no longer be approved.`;
    case 'cancelled':
      return `**Status:** cancelled; plan ${id} can no longer be approved.`;
  }
}

export function renderPlanComment(record: PlanRecord): string {
  const { objective, plan } = record.snapshot.context;
  const marker = encodeRecord(record);
  // A blank line before the rule: right after text, `---` would turn that text into a heading.
  const footer = [
    '',
    '',
    '---',
    statusLine(record),
    '',
    `<sub>plangate · planner ${code(record.models.planner)} · executor ${code(record.models.executor)} · base ${code(record.base.ref)} at ${code(record.base.sha.slice(0, 7))} · asked by @${record.requestedBy}</sub>`,
    marker,
  ].join('\n');
  if (footer.length > githubBodyLimit / 2) {
    throw new Error(`Plan ${record.planId} is too large to post: shorten the objective or ask for a smaller plan.`);
  }
  const visible = [
    `### 📋 Plan ${code(record.planId)}`,
    '',
    '**Objective**',
    '',
    renderObjective(objective),
    '',
    '**Steps**',
    '',
    plan ? renderPlan(plan) : '_The planner staged no plan._',
  ].join('\n');
  // The footer carries the record, so only the visible part is ever cut.
  return fitBody(visible, githubBodyLimit - footer.length) + footer;
}
