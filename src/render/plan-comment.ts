import type { Plan } from '../machine/fields.js';
import { encodeRecord, type PlanRecord } from '../record/plan-record.js';
import { githubBodyLimit, fitBody } from './limits.js';
import { code, escapeHtml, indent } from './markdown.js';
import { formatCost } from '../models/usage.js';

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
      if (record.policy === 'plan-only') {
        return [
          '**Status:** proposed. This repository runs plangate with the `plan-only` policy: the plan is advice and is never executed.',
          '',
          'To refine it, comment `/revise <feedback>`.',
        ].join('\n');
      }
      return [
        `**Status:** proposed, waiting for approval.`,
        '',
        `To run this plan, a maintainer replies:`,
        '',
        `    /approve ${record.planId}`,
        '',
        'To change it, comment `/revise <feedback>`, or `/plan` with a new objective; the new plan replaces this one.',
      ].join('\n');
    case 'asking':
      return '**Status:** waiting for an answer. Reply with `/answer <your answer>` and planning continues from there.';
    case 'answered':
      return '**Status:** answered; there is nothing to approve. Comment `/plan` with a new objective to ask for changes.';
    case 'approved':
    case 'executing':
      return `**Status:** approved by ${record.approvedBy === record.requestedBy && record.policy === 'plan-first' ? 'the `plan-first` policy' : `@${record.approvedBy ?? 'unknown'}`}, executing${record.branch ? ` on ${code(record.branch)}` : ''}.`;
    case 'done':
      return `**Status:** done${record.pullRequest ? `: pull request #${record.pullRequest.number}` : ', with no change to commit'}.`;
    case 'aborted':
      return `**Status:** aborted${record.pullRequest ? `; the work so far is in pull request #${record.pullRequest.number}` : ''}.`;
    case 'superseded':
      return `**Status:** superseded${record.supersededBy ? ` by plan ${code(record.supersededBy)}` : ''}; it can no longer be approved.`;
    case 'cancelled':
      return `**Status:** cancelled; plan ${id} can no longer be approved.`;
  }
}

/** What the planner spent on this plan, from the record, so the comment renders the same every time. */
function plannerUsageLine(record: PlanRecord): string {
  const planner = record.usage.entries.filter((e) => e.role === 'planner');
  if (planner.length === 0) return '';
  const sum = (pick: (e: (typeof planner)[number]) => number) => planner.reduce((n, e) => n + pick(e), 0);
  const prompt = sum((e) => e.promptTokens);
  const requests = sum((e) => e.requests);
  return ` · planning: ${requests} ${requests === 1 ? 'request' : 'requests'}, ${prompt.toLocaleString('en-US')} prompt tokens (${sum((e) => e.cachedTokens).toLocaleString('en-US')} cached), ${formatCost(record.planningCostUsd)}`;
}

function body(record: PlanRecord): string {
  const { objective, plan, question, summary, clarifications } = record.snapshot.context;
  const answered = (clarifications ?? []).map((c) => `> **Q:** ${escapeHtml(c.question)}\n> **A:** ${escapeHtml(c.answer)}`).join('\n>\n');
  const context = ['**Objective**', '', renderObjective(objective), ...(answered ? ['', '**Clarifications**', '', answered] : [])];
  if (record.status === 'asking' || (question && !plan)) {
    return [`### ❓ A question before planning (${code(record.planId)})`, '', ...context, '', '**Question**', '', escapeHtml(question ?? '')].join('\n');
  }
  if (record.status === 'answered' || (!plan && summary)) {
    return [`### 💬 Nothing to change (${code(record.planId)})`, '', ...context, '', '**Answer**', '', escapeHtml(summary ?? '')].join('\n');
  }
  return [`### 📋 Plan ${code(record.planId)}`, '', ...context, '', '**Steps**', '', plan ? renderPlan(plan) : '_The planner staged no plan._'].join('\n');
}

export function renderPlanComment(record: PlanRecord): string {
  const marker = encodeRecord(record);
  // A blank line before the rule: right after text, `---` would turn that text into a heading.
  const footer = [
    '',
    '',
    '---',
    statusLine(record),
    '',
    `<sub>plangate · planner ${code(record.models.planner)} · executor ${code(record.models.executor)} · base ${code(record.base.ref)} at ${code(record.base.sha.slice(0, 7))} · asked by @${record.requestedBy}${plannerUsageLine(record)}</sub>`,
    marker,
  ].join('\n');
  if (footer.length > githubBodyLimit / 2) {
    throw new Error(`Plan ${record.planId} is too large to post: shorten the objective or ask for a smaller plan.`);
  }
  // The footer carries the record, so only the visible part is ever cut.
  return fitBody(body(record), githubBodyLimit - footer.length) + footer;
}
