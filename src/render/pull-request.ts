import { renderHistory } from './history.js';
import { clip, fitBody } from './limits.js';
import { code, escapeHtml } from './markdown.js';
import { renderObjective, renderPlan } from './plan-comment.js';
import { stepsDone } from './progress-comment.js';
import type { RunView } from './run-view.js';
import { renderUsageTable } from './usage-table.js';

/**
 * The pull request carries the whole story of the run, so a reviewer never has to dig through
 * the issue: the approved plan, who approved it, every directive and result, the summary and cost.
 */

export function pullRequestTitle(view: RunView): string {
  const firstLine = view.snapshot.context.objective.split('\n')[0]?.trim() || `plan ${view.planId}`;
  const prefix = view.ended?.outcome === 'aborted' ? '[aborted] ' : '';
  return clip(`${prefix}${firstLine}`, 120);
}

export function renderPullRequestBody(view: RunView): string {
  const { context } = view.snapshot;
  const closing = view.isPullRequest ? `Follows up #${view.issue}.` : `Closes #${view.issue}`;
  const parts = [
    closing,
    '',
    `Plan ${code(view.planId)}, asked by @${view.requestedBy}, approved by @${view.approvedBy}${view.runUrl ? ` ([job](${view.runUrl}))` : ''}.`,
  ];
  if (view.notice) parts.push('', `> [!NOTE]\n> ${escapeHtml(view.notice)}`);
  if (view.ended?.outcome === 'aborted') {
    parts.push('', `> [!WARNING]\n> The run aborted: ${escapeHtml(view.ended.reason ?? 'no reason given')}. The work so far is kept here.`);
  }
  parts.push('', '## Objective', '', renderObjective(context.objective));
  if (context.plan) parts.push('', '## Plan', '', renderPlan(context.plan, stepsDone(view)));
  const lastResult = context.history.at(-1)?.result;
  const summary = context.summary
    ? escapeHtml(context.summary)
    : lastResult
      ? `_No summary was written; the executor's last result:_\n\n${escapeHtml(lastResult)}`
      : '_No summary was written._';
  parts.push('', '## Summary', '', summary);
  parts.push('', '## History', '', renderHistory(context.history));
  parts.push('', '## Usage', '', renderUsageTable(view.usage));
  parts.push('', `<!-- plangate:pr ${view.planId} -->`);
  return fitBody(parts.join('\n'));
}
