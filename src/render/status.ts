import type { RecordStatus } from '../machine/plan-status.js';
import { formatCost } from '../models/usage.js';
import { fitBody } from '../text/limits.js';
import { code } from '../text/markdown.js';

/** What `/status` reports about the live plan, gathered from its record and its run's checkpoint. */
export interface StatusView {
  planId: string;
  status: RecordStatus;
  /** The machine state of the newest snapshot (the checkpoint's while executing). */
  state: string;
  requestedBy: string;
  approvedBy?: string;
  planUrl: string;
  steps: number;
  cycles: number;
  maxIterations: number;
  /** Planning plus execution so far; null when a price is unknown. */
  costUsd: number | null;
  branch?: { name: string; url: string };
  pullRequest?: { number: number; url: string };
  /** The job that executes (or executed) the plan. */
  jobUrl?: string;
  /** Why the plan is not open, e.g. the newer plan that superseded it. */
  note?: string;
}

/** What a status means for the reader: the next thing they can do. */
const nextStep: Partial<Record<RecordStatus, (id: string) => string>> = {
  proposed: (id) => `Waiting for approval: \`/approve ${id}\`, \`/revise <feedback>\` or \`/cancel\`.`,
  asking: () => 'The planner asked a question: answer it with `/answer <text>`.',
  executing: () => 'Running; `/cancel` stops it before the next cycle and keeps the work.',
  approved: () => 'Approved; the execution is starting.',
};

/**
 * The reply to `/status`: one glance at where the thread's plan stands, with links to everything
 * it produced, so nobody has to scroll the thread or open the Actions tab to find out.
 */
export function renderStatus(author: string, view: StatusView): string {
  const links = [
    `[plan comment](${view.planUrl})`,
    ...(view.branch ? [`branch [${code(view.branch.name)}](${view.branch.url})`] : []),
    ...(view.pullRequest ? [`pull request [#${view.pullRequest.number}](${view.pullRequest.url})`] : []),
    ...(view.jobUrl ? [`[job](${view.jobUrl})`] : []),
  ];
  const next = nextStep[view.status]?.(view.planId);
  const lines = [
    `@${author} plan ${code(view.planId)} is **${view.status}**${view.note ? ` (${view.note})` : ''}.`,
    '',
    `- state: ${code(view.state)}; steps: ${view.steps}; cycles: ${view.cycles} of at most ${view.maxIterations}`,
    `- cost so far: ${formatCost(view.costUsd)}`,
    `- asked by @${view.requestedBy}${view.approvedBy ? `, approved by @${view.approvedBy}` : ''}`,
    `- ${links.join(' · ')}`,
    ...(next ? ['', next] : []),
  ];
  return fitBody(lines.join('\n'));
}
