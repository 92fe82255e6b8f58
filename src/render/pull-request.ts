import { renderHistory, renderHistoryLines } from './history.js';
import { clip, fitBody, githubBodyLimit } from '../text/limits.js';
import { objectiveHeadline } from '../text/issue-objective.js';
import { renderPlannedActual } from './planned-actual.js';
import { renderDiagram } from './diagram.js';
import { renderDiffStat } from './diff-stat.js';
import { code, escapeHtml } from '../text/markdown.js';
import { renderObjective, renderPlanWithin, type StepsNotice } from './plan-comment.js';
import { renderKeptOut, stepsDone } from './progress-comment.js';
import { renderServerFailures } from './server-failures.js';
import { changesSinceApproval, planChangesIntro, renderPlanChanges } from './plan-changes.js';
import type { RunView } from './run-view.js';
import { renderReviewThreads } from './review-threads.js';
import { renderUsageTable } from './usage-table.js';
import { renderCostComparison } from './checks.js';
import type { ServerFailure } from '../mcp/hub.js';

/**
 * The pull request carries the whole story of the run, so a reviewer never has to dig through
 * the issue: the approved plan, who approved it, every directive and result, the summary and cost.
 * When a replan revised the plan, the body shows the plan as it ended and, above it, what changed
 * against the approved one.
 * When the story is longer than one body, the body says where the rest is instead of cutting it
 * silently: the history moves to comments or the job summary, and the plan shows fewer steps.
 */

export function pullRequestTitle(view: RunView): string {
  const firstLine = objectiveHeadline(view.snapshot.context.objective) || `plan ${view.planId}`;
  const prefix = view.ended?.outcome === 'aborted' ? '[aborted] ' : '';
  return clip(`${prefix}${firstLine}`, 120);
}

/** Where the full history is when the body cannot hold it; the host must put it there. */
export type HistoryPlace = 'comments' | 'job summary';

export interface PullRequestBodyOptions {
  /**
   * Named only when the history does not fit (see pullRequestHistoryFits). Defaults to the job
   * summary, where the run writes renderSummaryDetails whatever the size.
   */
  fullHistoryIn?: HistoryPlace;
  /** MCP servers that did not start for the run: a reviewer reads that the work was done without them. */
  serverFailures?: readonly ServerFailure[];
}

/** What sizes the body besides the view; the size check and the body must be given the same. */
export type PullRequestSizing = Pick<PullRequestBodyOptions, 'serverFailures'>;

// Bounds for the free-text parts, so neither crowds out the plan and the history.
const objectiveMax = 8_000;
const summaryMax = 12_000;

const planNotice: StepsNotice = (shown, total) =>
  `${shown === 0 ? `None of the ${total} steps fit here` : `Only the first ${shown} of ${total} steps are shown here`}, to fit GitHub's size limit; the executor worked from all ${total}, and the job summary lists every one.`;

const planHeading = '\n\n## Plan\n\n';
const historyHeading = '\n\n## History\n\n';

/** The body in pieces: fixed text around the two parts that give way when the whole is too long. */
interface Layout {
  /** Length of what is always shown whole: the head up to the objective, the summary, the usage and the marker. */
  fixed: number;
  /** The body with the plan and history sections as sized. */
  assemble(plan: string, history: string): string;
  /** The plan section in at most `room` characters (Infinity: whole); empty when there is no plan. */
  plan(room: number): string;
  /** The history section with every cycle. */
  history: string;
  /** The history section that points to the full history and lists one line per cycle, in at most `room`. */
  historyElsewhere(place: HistoryPlace, room: number): string;
}

function layout(view: RunView, sizing: PullRequestSizing): Layout {
  const { context } = view.snapshot;
  // A run on the pull request's own branch is shown in that pull request's body: it continues it.
  const closing = view.sameBranch
    ? 'Continues this pull request.'
    : view.isPullRequest
      ? `Follows up #${view.issue}.`
      : `Closes #${view.issue}`;
  const head = [
    closing,
    '',
    `Plan ${code(view.planId)}, asked by @${view.requestedBy}, approved by @${view.approvedBy}${view.runUrl ? ` ([job](${view.runUrl}))` : ''}.`,
  ];
  if (view.notice) head.push('', `> [!NOTE]\n> ${escapeHtml(view.notice)}`);
  // Bounded (a few servers, one clipped line each), so it sits in the part that is always shown whole.
  const failures = renderServerFailures(sizing.serverFailures ?? [], 'this run');
  if (failures) head.push('', failures);
  if (view.ended?.outcome === 'aborted') {
    head.push(
      '',
      `> [!WARNING]\n> The run aborted: ${escapeHtml(view.ended.reason ?? 'no reason given')}. The work so far is kept here.`,
    );
  }
  head.push('', '## Objective', '', renderObjective(clip(context.objective, objectiveMax)));
  // Bounded (a capped list of links), so it sits in the part that is always shown whole.
  const threads = renderReviewThreads(view.reviewThreads ?? []);
  if (threads) head.push('', threads);
  // Bounded (a few dozen one-line changes), so it sits in the part that is always shown whole.
  const revised = changesSinceApproval(view.approvedPlan, context.plan);
  if (revised.length > 0)
    head.push('', '## Changes to the approved plan', '', planChangesIntro, '', renderPlanChanges(revised));
  const before = head.join('\n');

  const lastResult = context.history.at(-1)?.result;
  const summaryText = context.summary
    ? escapeHtml(clip(context.summary, summaryMax))
    : lastResult
      ? `_No summary was written; the executor's last result:_\n\n${escapeHtml(clip(lastResult, summaryMax))}`
      : '_No summary was written._';
  // Both are bounded (files and transitions), so they sit in the part that is always shown whole,
  // right after the summary: what changed and how the run got there, before the cycle-by-cycle detail.
  const changes = view.diffStat ? renderDiffStat(view.diffStat) : '';
  // Bounded too: what the run changed but the branch does not carry, next to what it does.
  const keptOut = view.keptOut?.length
    ? `\n\n## Kept out of the commits\n\nThe run changed these paths, but plangate did not commit the changes:\n\n${renderKeptOut(view.keptOut)}`
    : '';
  const path = `\n\n## Path\n\n${renderDiagram(view.snapshot)}`;
  // Bounded (capped tables): the approval beside what the run did.
  const contract = view.contract ? `\n\n${renderPlannedActual(view.contract)}` : '';
  const summary = `\n\n## Summary\n\n${summaryText}${changes ? `\n\n${changes}` : ''}${keptOut}${contract}${path}`;
  const estimate = view.estimate ? `\n\n${renderCostComparison(view.estimate, view.usage)}` : '';
  const after = `\n\n## Usage\n\n${renderUsageTable(view.usage)}${estimate}\n\n<!-- plangate:pr ${view.planId} -->`;

  const { plan, history } = context;
  const done = stepsDone(view);
  const cycles = `${history.length} ${history.length === 1 ? 'cycle' : 'cycles'}`;
  const pointer = (place: HistoryPlace) =>
    place === 'comments'
      ? `The full history is in the comments below (${cycles}); in short:`
      : `The full history is in the ${view.runUrl ? `[job summary](${view.runUrl})` : 'job summary'} (${cycles}); in short:`;
  return {
    fixed: before.length + summary.length + after.length,
    assemble: (planText, historyText) => before + planText + summary + historyText + after,
    plan: (room) => (plan ? planHeading + renderPlanWithin(plan, room - planHeading.length, planNotice, done) : ''),
    history: historyHeading + renderHistory(history),
    historyElsewhere: (place, room) => {
      const start = `${historyHeading}> [!NOTE]\n> ${pointer(place)}\n\n`;
      return start + clip(renderHistoryLines(history), Math.max(0, room - start.length));
    },
  };
}

interface Fitted {
  body: string;
  historyFits: boolean;
}

function fit(view: RunView, place: HistoryPlace, sizing: PullRequestSizing): Fitted {
  const parts = layout(view, sizing);
  const room = githubBodyLimit - parts.fixed;
  const wholePlan = parts.plan(Infinity);
  // The plan gives up room first, down to half; only then does the history leave the body.
  const historyRoom = room - Math.min(wholePlan.length, Math.floor(room / 2));
  const historyFits = parts.history.length <= historyRoom;
  const history = historyFits ? parts.history : parts.historyElsewhere(place, historyRoom);
  const plan = wholePlan.length <= room - history.length ? wholePlan : parts.plan(room - history.length);
  // Every part was sized to fit; the final cut only guards against a miscount.
  return { body: fitBody(parts.assemble(plan, history)), historyFits };
}

/**
 * Whether the whole history fits in the pull request body. When it does not, the host posts
 * renderHistoryChunks as comments (or writes it to the job summary) and says which in
 * renderPullRequestBody's options.
 */
export function pullRequestHistoryFits(view: RunView, sizing: PullRequestSizing = {}): boolean {
  return fit(view, 'comments', sizing).historyFits;
}

/**
 * The body, always within GitHub's limit: what does not fit is moved or cut whole, with a notice
 * that says where the rest is, so a reviewer never reads a cut story as the whole one.
 */
export function renderPullRequestBody(view: RunView, options: PullRequestBodyOptions = {}): string {
  return fit(view, options.fullHistoryIn ?? 'job summary', options).body;
}
