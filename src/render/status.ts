import type { RecordStatus } from '../machine/plan-status.js';
import type { StateName } from '../machine/types.js';
import type { RunPolicy } from '../config/run-policy.js';
import { formatCost } from '../models/usage.js';
import { fitBody } from '../text/limits.js';
import { code } from '../text/markdown.js';

/** What `/status` reports about the live plan, gathered from its record and its run's checkpoint. */
export interface StatusView {
  planId: string;
  status: RecordStatus;
  policy: RunPolicy;
  /** The machine state of the newest snapshot (the checkpoint's while executing); never shown by name. */
  state: StateName;
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
  /**
   * Why `/approve` would refuse this proposed plan now, as `/approve` would say it: its checks, its
   * estimate, a thread changed since planning. Absent when a plain `/approve` would run it.
   */
  hold?: { held: 'checks' | 'cost' | 'thread'; reason: string; fix: string };
  /** This repository wants someone other than the requester to approve. */
  distinctApprover?: boolean;
}

/** Where the plan stands, in the words a maintainer uses; never a machine state's name. */
export function statusWords(view: StatusView): string {
  switch (view.status) {
    case 'proposed':
      if (view.policy === 'plan-only') return 'advice only (the `plan-only` policy never runs it)';
      if (view.hold?.held === 'checks') return 'blocked by checks';
      if (view.hold?.held === 'cost') return 'over the cost ceiling';
      if (view.hold?.held === 'thread') return 'out of date';
      return 'waiting for approval';
    case 'asking':
      return 'waiting for an answer';
    case 'answered':
      return 'answered: nothing to change';
    case 'approved':
      return 'approved, starting';
    case 'executing':
      if (view.state === 'finish') return 'finishing: the planner writes the summary';
      if (view.state === 'abort') return 'stopping: the planner writes the summary';
      return view.steps > 0
        ? `running step ${Math.min(view.cycles + 1, view.steps)} of ${view.steps}`
        : `running cycle ${view.cycles + 1}`;
    case 'done':
      return 'done';
    case 'aborted':
      return 'stopped before the end';
    case 'superseded':
      return 'replaced by a newer plan';
    case 'cancelled':
      return 'cancelled';
  }
}

/** What the reader can do next, offering only what plangate would carry out. */
function nextStep(view: StatusView): string | undefined {
  const id = view.planId;
  switch (view.status) {
    case 'proposed': {
      if (view.policy === 'plan-only') return 'To refine it, comment `/revise <feedback>`.';
      if (view.hold) return `A plain \`/approve\` would be refused: ${view.hold.reason}\n\n${view.hold.fix}`;
      const who = view.distinctApprover ? `a maintainer other than @${view.requestedBy}` : 'a maintainer';
      return `To run it, ${who} replies \`/approve ${id}\`; to change it, \`/revise <feedback>\`; to withdraw it, \`/cancel\`.`;
    }
    case 'asking':
      return 'The planner asked a question: answer it with `/answer <text>`.';
    case 'executing':
      return 'Running; `/cancel` stops it before the next cycle and keeps the work.';
    case 'approved':
      return 'Approved; the execution is starting.';
    default:
      return undefined;
  }
}

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
  const next = nextStep(view);
  const steps = `${view.steps} ${view.steps === 1 ? 'step' : 'steps'}`;
  const lines = [
    `@${author} plan ${code(view.planId)} is **${statusWords(view)}**${view.note ? ` (${view.note})` : ''}.`,
    '',
    `- ${steps}; cycles run: ${view.cycles} of at most ${view.maxIterations}`,
    `- cost so far: ${formatCost(view.costUsd)}`,
    `- asked by @${view.requestedBy}${view.approvedBy ? `, approved by @${view.approvedBy}` : ''}`,
    `- ${links.join(' · ')}`,
    ...(next ? ['', next] : []),
  ];
  return fitBody(lines.join('\n'));
}
