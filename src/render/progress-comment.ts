import { renderPlan } from './plan-comment.js';
import { renderHistoryLines } from './history.js';
import { clip } from './limits.js';
import { code, codeBlock, escapeHtml } from './markdown.js';
import type { RunView } from './run-view.js';
import { formatCost } from '../models/usage.js';
import { sumCost } from './usage-table.js';

/**
 * The progress comment, updated in place after every cycle: plan steps ticked as cycles finish, the
 * current directive, cost so far and links. Each cycle carries out the next step, so finished cycles
 * tick steps in order; a finished run ticks them all.
 */
/** Marks a plan's progress comment, so a re-run finds it instead of posting another. */
export function progressMarker(planId: string): string {
  return `<!-- plangate:progress ${planId} -->`;
}

export function stepsDone(view: RunView): number {
  const steps = view.snapshot.context.plan?.steps.length ?? 0;
  if (view.ended?.outcome === 'done') return steps;
  return Math.min(steps, view.snapshot.context.history.filter((h) => h.outcome !== 'abort').length);
}

function headline(view: RunView): string {
  if (view.ended?.outcome === 'done') return `### ✅ Plan ${code(view.planId)} finished`;
  if (view.ended?.outcome === 'aborted') return `### ⛔ Plan ${code(view.planId)} aborted`;
  return `### 🚀 Executing plan ${code(view.planId)}`;
}

export function renderProgressComment(view: RunView): string {
  const { context, iteration, state } = view.snapshot;
  const links = [
    view.runUrl ? `[job](${view.runUrl})` : '',
    `branch ${code(view.branch)}`,
    view.pullRequestUrl ? `[pull request](${view.pullRequestUrl})` : '',
  ].filter(Boolean);
  const parts = [
    headline(view),
    '',
    `Approved by @${view.approvedBy} · ${links.join(' · ')} · cycles: ${iteration} · cost so far: ${formatCost(sumCost(view.usage))}`,
  ];
  if (view.notice) parts.push('', `> [!NOTE]\n> ${escapeHtml(view.notice)}`);
  if (view.ended?.reason) parts.push('', `**Reason:** ${escapeHtml(view.ended.reason)}`);
  if (view.interrupted) {
    parts.push('', `> [!WARNING]\n> ${escapeHtml(view.interrupted)}\n> Re-run the job, or comment \`/approve ${view.planId}\`, to resume from the last checkpoint.`);
  }
  if (context.plan) parts.push('', '**Plan**', '', renderPlan(context.plan, stepsDone(view)));
  if (!view.ended && state === 'execute' && context.directive) {
    parts.push('', '**Current directive**', '', codeBlock(clip(context.directive, 4_000), 'text'));
  }
  if (context.history.length) parts.push('', '**Cycles**', '', renderHistoryLines(context.history));
  parts.push('', progressMarker(view.planId));
  return parts.join('\n');
}
