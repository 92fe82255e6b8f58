import type { Plan, PlanStep } from '../machine/fields.js';
import { commandText, spellCommands } from '../text/comment-command.js';
import type { Snapshot } from '../machine/types.js';
import type { RecordStatus } from '../machine/plan-status.js';
import type { RunPolicy } from '../config/run-policy.js';
import type { PlanChecks } from '../checks/stored-checks.js';
import type { UsageLedger } from '../models/usage.js';
import { clip, fitBody, githubBodyLimit } from '../text/limits.js';
import { renderServerFailures } from './server-failures.js';
import { code, codeBlock, details, escapeMarkdown, indent, quote } from '../text/markdown.js';
import { formatCost } from '../models/usage.js';
import { renderChecks } from './checks.js';
import { renderScope } from './scope.js';
import type { ApprovedScope } from '../scope/approved-scope.js';
import { formatCount } from '../text/count.js';
import { planOrder, waitsFor } from './plan-order.js';

/**
 * The plan comment: what a maintainer reads before approving, with the hidden record (its encoded
 * marker, which the caller makes: record/ encodes, render/ only shows) appended.
 * Rendering is a pure function of the record, so verification can re-render and compare: the
 * comment is trusted only while it reads exactly like this.
 *
 * An approval approves what its author saw, so the comment shows every text the executor is given
 * at the start (objective, steps, assumptions, risks, the first directive) and none of it can hide
 * on GitHub: free text goes in fenced blocks or code spans, and short text (titles, assumptions,
 * risks) is escaped so no Markdown in it means anything (see markdown.ts).
 */

/** What the plan comment shows of a plan record: record/plan-record.ts's ShownPlan has all of it. */
export interface ShownPlan {
  planId: string;
  status: RecordStatus;
  policy: RunPolicy;
  requestedBy: string;
  approvedBy?: string;
  branch?: string;
  supersededBy?: string;
  pullRequest?: { number: number; url: string };
  base: { ref: string; sha: string };
  models: { planner: string; executor: string };
  planningCostUsd: number | null;
  usage: UsageLedger;
  snapshot: Snapshot;
  checks?: PlanChecks;
  scope?: ApprovedScope;
  mcpFailures?: ReadonlyArray<{ server: string; reason: string }>;
  /** The `command-prefix` the plan was made under: the comment tells people to type `/plangate approve`. */
  commandPrefix?: string;
}

/**
 * Which steps are ticked: the first so many, for a plan carried out one step after another, or the
 * steps named (from 1), for a plan whose steps ran in batches and may finish out of order.
 */
export type DoneSteps = number | ReadonlySet<number>;

const isDone = (done: DoneSteps, i: number) => (typeof done === 'number' ? i < done : done.has(i + 1));

/** One step as a task-list item; ticked when `done` says it finished. The detail is a fenced block inside the item. */
export function renderStep(step: PlanStep, i: number, done: DoneSteps = 0): string {
  const lines = [`- [${isDone(done, i) ? 'x' : ' '}] **${i + 1}. ${escapeMarkdown(step.title)}**`];
  if (step.detail) lines.push(`  ${indent(codeBlock(step.detail, 'text'), 2)}`);
  const facts: string[] = [];
  if (step.files?.length) facts.push(`Files: ${step.files.map(code).join(', ')}`);
  if (step.verify) facts.push(`Verify: ${code(step.verify)}`);
  if (step.network?.length) facts.push(`Network: ${step.network.map(code).join(', ')}`);
  const waits = waitsFor(step);
  if (waits) facts.push(`Waits for: ${waits}`);
  if (facts.length) lines.push(`  ${facts.join(' · ')}`);
  return lines.join('\n');
}

/** Renders plan steps as a task list; `done` says which are ticked. */
export function renderSteps(plan: Plan, done: DoneSteps = 0): string {
  return plan.steps.map((step, i) => renderStep(step, i, done)).join('\n');
}

function bulletSection(title: string, items: string[] | undefined): string {
  if (!items?.length) return '';
  return `\n\n**${title}**\n${items.map((item) => `- ${escapeMarkdown(item)}`).join('\n')}`;
}

/** Renders a plan with its assumptions and risks; `order` (renderOrder's) goes right after the steps. */
export function renderPlan(plan: Plan, done: DoneSteps = 0, order = ''): string {
  return (
    renderSteps(plan, done) +
    order +
    bulletSection('Assumptions', plan.assumptions) +
    bulletSection('Risks', plan.risks)
  );
}

/**
 * The order a plan that says which steps need which runs in, when at most `limit` steps run at once:
 * which run together, and which wait only because they may change the same files. '' for a plan
 * without `after`, which runs a step after another as it always did.
 */
export function renderOrder(plan: Plan, limit: number): string {
  const shown = planOrder(plan, limit);
  if (shown === undefined) return '';
  return `\n\n**Order:** ${shown.order}${shown.waits.map((line) => `\n${line}`).join('')}`;
}

/** Says how many steps a cut plan shows and where the reader finds the rest. */
export type StepsNotice = (shown: number, total: number) => string;

/**
 * Renders a plan in at most `maxChars` characters (when that can hold the notice at all). A plan
 * that does not fit loses whole steps from its end, never a part of a step, and says how many it
 * shows, so a reader never takes a cut plan for the whole one. Assumptions and risks keep at most a
 * quarter of the room.
 */
export function renderPlanWithin(
  plan: Plan,
  maxChars: number,
  notice: StepsNotice,
  done: DoneSteps = 0,
  order = '',
): string {
  const whole = renderPlan(plan, done, order);
  if (whole.length <= maxChars) return whole;
  const total = plan.steps.length;
  const extras = bulletSection('Assumptions', plan.assumptions) + bulletSection('Risks', plan.risks);
  const extrasShown = extras.length <= maxChars / 4 ? extras : clip(extras, Math.max(0, Math.floor(maxChars / 4)));
  const noticeText = (shown: number) => `\n\n> [!NOTE]\n> ${notice(shown, total)}`;
  // Reserved for the longest notice: the count it names has at most as many digits as the total.
  const room = maxChars - extrasShown.length - order.length - noticeText(total).length;
  const kept: string[] = [];
  let used = 0;
  for (const [i, step] of plan.steps.entries()) {
    const text = renderStep(step, i, done);
    const cost = text.length + (kept.length > 0 ? 1 : 0);
    if (used + cost > room) break;
    kept.push(text);
    used += cost;
  }
  return kept.join('\n') + noticeText(kept.length) + order + extrasShown;
}

/** The objective as the executor reads it (trimmed), in a fenced block: markup in user text shows as written. */
export function renderObjective(objective: string): string {
  return codeBlock(objective.trim(), 'text');
}

/** Where the first directive is shown, and the block that shows it. */
const firstDirectiveSummary = 'First directive: the executor’s first instruction, verbatim';

/**
 * The first directive, collapsed: the executor receives it word for word, so the approver can read
 * every word of it. It is never cut; a plan whose directive cannot be shown whole is not posted.
 */
export function renderFirstDirective(directive: string): string {
  return details(firstDirectiveSummary, codeBlock(directive, 'text'));
}

/**
 * What a proposed plan waits for. A plan its checks blocked is never offered a plain approval: the
 * checks section above says how to fix it, and this says the one way to run it as it is. The comment
 * is rendered from the record alone, so it names the setting rather than guessing the workflow's.
 */
function proposedLine(record: ShownPlan): string {
  if (record.policy === 'plan-only') {
    return [
      '**Status:** proposed. This repository runs plangate with the `plan-only` policy: the plan is advice and is never executed.',
      '',
      'To refine it, comment `/revise <feedback>`.',
    ].join('\n');
  }
  if ((record.checks?.blocking ?? 0) > 0) {
    return [
      '**Status:** proposed, blocked by its checks: revise it as the checks above say, and the new plan replaces this one.',
      '',
      `To run it as it is instead, the workflow must set \`allow-blocked-plans: true\`; then a maintainer can reply \`/approve ${record.planId}\`. The executor's tools still refuse protected writes and commands that are not allowed.`,
    ].join('\n');
  }
  return [
    `**Status:** proposed, waiting for approval.`,
    '',
    `To run this plan, a maintainer replies:`,
    '',
    `    ${commandText('approve', record.commandPrefix)} ${record.planId}`,
    '',
    'To change it, comment `/revise <feedback>`, or `/plan` with a new objective; the new plan replaces this one.',
  ].join('\n');
}

function statusLine(record: ShownPlan): string {
  const id = code(record.planId);
  switch (record.status) {
    case 'proposed':
      return proposedLine(record);
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
function plannerUsageLine(record: ShownPlan): string {
  const planner = record.usage.entries.filter((e) => e.role === 'planner');
  if (planner.length === 0) return '';
  const sum = (pick: (e: (typeof planner)[number]) => number) => planner.reduce((n, e) => n + pick(e), 0);
  const prompt = sum((e) => e.promptTokens);
  const requests = sum((e) => e.requests);
  return ` · planning: ${requests} ${requests === 1 ? 'request' : 'requests'}, ${formatCount(prompt)} prompt tokens (${formatCount(sum((e) => e.cachedTokens))} cached), ${formatCost(record.planningCostUsd)}`;
}

/** Says, when a plan comment cannot show every step, that the plan still holds them all and where they are listed. */
const planCommentNotice: StepsNotice = (shown, total) =>
  `${shown === 0 ? `None of the ${total} steps fit in this comment` : `Only the first ${shown} of ${total} steps are shown here`}: the plan is too long for one GitHub comment. The plan still holds all ${total} steps, and approving it approves them all; the job summary of the run that posted it lists every one.`;

/** The least room the visible part must keep beside the record: a heading, the start of the objective and a notice. */
const minVisible = 2_000;

/** The objective (as much of it as `shown` holds) and the clarifications, each question and answer in its own block. */
function contextLines(record: ShownPlan, shown: string): string[] {
  const answered = (record.snapshot.context.clarifications ?? [])
    .map((c) => quote(`**Q:**\n${codeBlock(c.question, 'text')}\n**A:**\n${codeBlock(c.answer, 'text')}`))
    .join('\n>\n');
  return ['**Objective**', '', renderObjective(shown), ...(answered ? ['', '**Clarifications**', '', answered] : [])];
}

/** The visible part of the comment, in at most `room` characters; cut only when the whole does not fit. */
function body(record: ShownPlan, room: number): string {
  const { objective, plan, question, summary, directive } = record.snapshot.context;
  const context = (shown: string) => contextLines(record, shown);
  if (record.status === 'asking' || (question && !plan)) {
    const text = [
      `### ❓ A question before planning (${code(record.planId)})`,
      '',
      ...context(objective),
      '',
      '**Question**',
      '',
      codeBlock(question ?? '', 'text'),
    ];
    return fitBody(text.join('\n'), room);
  }
  if (record.status === 'answered' || (!plan && summary)) {
    const text = [
      `### 💬 Nothing to change (${code(record.planId)})`,
      '',
      ...context(objective),
      '',
      '**Answer**',
      '',
      codeBlock(summary ?? '', 'text'),
    ];
    return fitBody(text.join('\n'), room);
  }
  // What the executor is told first is shown whole, never cut: the rest of the body gives way to it.
  const first = directive === undefined ? '' : `\n\n${renderFirstDirective(directive)}`;
  if (first.length > room - minVisible) {
    throw new Error(
      `Plan ${record.planId} is too large to post: its first directive cannot be shown whole in one comment. Ask for a shorter first directive.`,
    );
  }
  return planBody(record, room - first.length) + first;
}

/** The plan part of the visible body, in at most `room` characters. */
function planBody(record: ShownPlan, room: number): string {
  const { objective, plan } = record.snapshot.context;
  const head = (shown: string) =>
    [`### 📋 Plan ${code(record.planId)}`, '', ...contextLines(record, shown), '', '**Steps**', ''].join('\n') + '\n';
  if (!plan) return fitBody(head(objective) + '_The planner staged no plan._', room);
  // The order the approval runs the steps in, with as many at once as its scope allows.
  const order = renderOrder(plan, record.scope?.parallelSteps ?? 1);
  const whole = head(objective) + renderPlan(plan, 0, order);
  if (whole.length <= room) return whole;
  // The steps are what a maintainer approves: a long objective gives up room to them first, down to half.
  let top = head(objective);
  const excess = top.length - Math.floor(room / 2);
  if (excess > 0) top = head(clip(objective, Math.max(0, objective.length - excess)));
  // Escaping can still leave the head too long; the final cut keeps the body within its room regardless.
  return fitBody(top + renderPlanWithin(plan, room - top.length, planCommentNotice, 0, order), room);
}

/** Names the plan in plain text, so a lost answer to the post can be matched to the comment GitHub stored. */
export function planMarker(planId: string): string {
  return `<!-- plangate:plan ${planId} -->`;
}

/** Says which MCP servers did not start, so a maintainer knows the plan was made without them. */
function serverFailureLines(record: ShownPlan): string[] {
  const warning = renderServerFailures(record.mcpFailures ?? [], 'planning');
  return warning ? [warning, ''] : [];
}

/** The plan comment for `record`, ending with `marker`, the record's encoded form (record/plan-record.ts encodeRecord). */
export function renderPlanComment(record: ShownPlan, marker: string): string {
  // A blank line before the rule: right after text, `---` would turn that text into a heading.
  const footer = [
    '',
    '',
    ...serverFailureLines(record),
    '---',
    // Above the approve instruction: what the checks found and what execution may cost.
    ...(record.checks
      ? [spellCommands(renderChecks(record.checks, record.status === 'proposed'), record.commandPrefix), '']
      : []),
    // What the approval grants, beside what it may cost.
    ...(record.scope ? [renderScope(record.scope), ''] : []),
    spellCommands(statusLine(record), record.commandPrefix),
    '',
    `<sub>plangate · planner ${code(record.models.planner)} · executor ${code(record.models.executor)} · base ${code(record.base.ref)} at ${code(record.base.sha.slice(0, 7))} · asked by @${record.requestedBy}${plannerUsageLine(record)}</sub>`,
    planMarker(record.planId),
    marker,
  ].join('\n');
  // The record is never cut (a cut record is no record); the visible plan gives way to it instead.
  if (footer.length > githubBodyLimit - minVisible) {
    throw new Error(`Plan ${record.planId} is too large to post: shorten the objective or ask for a smaller plan.`);
  }
  return body(record, githubBodyLimit - footer.length) + footer;
}
