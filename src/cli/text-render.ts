import type { HistoryEntry, Plan } from '../machine/fields.js';
import { formatCost, type RoleUsageSummary } from '../models/usage.js';
import { sumCost } from '../render/usage-table.js';
import { formatCount } from '../text/count.js';
import { outcomeWords, stepWords } from '../machine/reader-words.js';
import { planOrder, waitsFor } from '../render/plan-order.js';

/**
 * Plain text for the terminal. The action renders markdown for GitHub, with HTML escaping that a
 * terminal would print literally; these renderers show the same content (the plan with its checks,
 * the history, the usage table with the same totals and the same "unknown price") as indented text.
 */

const indent = (text: string, by: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => (line === '' ? '' : `${by}${line}`))
    .join('\n');

/**
 * The plan's steps, assumptions and risks; for a plan that says which steps need which, also what
 * each waits for and the order they run in with at most `parallelSteps` at once (the local run takes
 * one at a time).
 */
export function renderPlanText(plan: Plan, parallelSteps = 1): string {
  const lines: string[] = [];
  plan.steps.forEach((step, i) => {
    const number = `${i + 1}. `;
    const pad = ' '.repeat(2 + number.length);
    lines.push(`  ${number}${step.title}`);
    if (step.detail?.trim()) lines.push(indent(step.detail, pad));
    if (step.files?.length) lines.push(`${pad}Files: ${step.files.join(', ')}`);
    if (step.verify?.trim()) lines.push(`${pad}Verify: ${step.verify}`);
    const waits = waitsFor(step);
    if (waits) lines.push(`${pad}Waits for: ${waits}`);
  });
  const order = planOrder(plan, parallelSteps);
  if (order) lines.push('', `Order: ${order.order}`, ...order.waits.map((line) => indent(line, '  ')));
  const list = (title: string, items: string[] | undefined) => {
    if (!items?.length) return;
    lines.push('', `${title}:`, ...items.map((item) => indent(`- ${item}`, '  ')));
  };
  list('Assumptions', plan.assumptions);
  list('Risks', plan.risks);
  return lines.join('\n');
}

/**
 * The history as the pull request shows it: a cycle that carried out a plan step names it and the
 * steps that ran with it, and the host's note on a cycle stays on one line under its heading, so it
 * cannot pass for a cycle of its own.
 */
export function renderHistoryText(history: readonly HistoryEntry[]): string {
  if (history.length === 0) return '  No cycle ran.';
  return history
    .map((entry, i) => {
      const step = stepWords(entry);
      const note = entry.note?.replace(/\s+/g, ' ').trim();
      return [
        `  Cycle ${i + 1}${step ? ` · ${step}` : ''}: ${outcomeWords[entry.outcome]}`,
        ...(note ? [`    Note: ${note}`] : []),
        '    Directive:',
        indent(entry.directive, '      '),
        '    Result:',
        indent(entry.result, '      '),
      ].join('\n');
    })
    .join('\n\n');
}

const number = formatCount;

/** The usage table as aligned columns: one row per role and a total, as in the pull request. */
export function renderUsageText(rows: readonly RoleUsageSummary[]): string {
  if (rows.length === 0) return '  No model was called.';
  const table: string[][] = [
    ['role', 'model', 'requests', 'prompt tokens', 'cached', 'completion tokens', 'cost'],
    ...rows.map((r) => [
      r.role,
      r.models.join(', '),
      number(r.requests),
      number(r.promptTokens),
      `${number(r.cachedTokens)}${r.promptTokens > 0 ? ` (${Math.round(r.cacheHitRatio * 100)} %)` : ''}`,
      number(r.completionTokens),
      formatCost(r.costUsd),
    ]),
    ['total', '', '', '', '', '', formatCost(sumCost(rows))],
  ];
  const widths = table[0]?.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length))) ?? [];
  // Text columns align left, numbers right, as a reader scans them.
  const cell = (text: string, column: number) =>
    column < 2 ? text.padEnd(widths[column] ?? 0) : text.padStart(widths[column] ?? 0);
  return table.map((row) => `  ${row.map(cell).join('  ').trimEnd()}`).join('\n');
}
