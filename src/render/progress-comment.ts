import { renderPlan, renderStep, type DoneSteps } from './plan-comment.js';
import {
  changesSinceApproval,
  planChangesIntro,
  renderPlanChanges,
  revisedSteps,
  type PlanChange,
  type StepRevision,
} from './plan-changes.js';
import type { Plan } from '../machine/fields.js';
import { finishedSteps } from '../machine/step-order.js';
import { renderHistoryLines } from './history.js';
import { clip } from '../text/limits.js';
import { code, codeBlock, escapeHtml, escapeMarkdown } from '../text/markdown.js';
import type { RunView } from './run-view.js';
import type { ServerFailure } from '../mcp/hub.js';
import type { KeptOutChange } from '../repo/change-gate.js';
import { formatCost } from '../models/usage.js';
import { sumCost } from './usage-table.js';
import { renderServerFailures } from './server-failures.js';
import { renderReviewThreadLine } from './review-threads.js';

/**
 * The progress comment, updated in place after every cycle: plan steps ticked as cycles finish, the
 * current directive, elapsed time, cost so far and links, among them the review threads the run
 * was asked to address. Each cycle carries out the next step, so
 * finished cycles tick steps in order; a finished run ticks them all. A plan that orders its steps
 * runs some at once and may finish them out of order: its cycles name their steps, and exactly the
 * steps they finished are ticked.
 */

/**
 * What the comment needs beyond the run's view: when the run started and a clock (injected, so a
 * test fixes the time instead of reading the wall clock), and where the branch can be browsed.
 */
export interface ProgressContext {
  /** Epoch milliseconds the execution started; a resumed run keeps its first start. */
  startedAt?: number;
  now?: () => number;
  branchUrl?: string;
  /** MCP servers that did not start in this job, so a reader knows the run went on without them. */
  serverFailures?: readonly ServerFailure[];
}

/** At most this many kept-out changes are listed, in at most this many characters; the rest are counted. */
const maxListedKeptOut = 50;
const maxKeptOutChars = 6_000;

const changeWords: Record<KeptOutChange['change'], string> = {
  added: 'added',
  modified: 'modified',
  deleted: 'deleted',
  mode: 'mode changed',
  type: 'type changed',
};

/**
 * The changes the commit gate kept out of the run's commits, one line each, so a reader knows the
 * branch lacks something the executor did, and why. Bounded, because a command can create any
 * number of files; path and reason in code spans, since both can carry a file name the executor
 * chose. Shared with the pull request; '' when nothing was kept out.
 */
/** Destinations the sealed network refused, by command; bounded like the kept-out list. */
export function renderNetworkRefused(refused: NonNullable<RunView['networkRefused']>): string {
  const lines = refused.slice(0, 20).map((r) => `- ${code(r.command)}: ${escapeMarkdown(r.destination)}`);
  const more = refused.length - lines.length;
  return [...lines, ...(more > 0 ? [`- … and ${more} more`] : [])].join('\n');
}

export function renderKeptOut(keptOut: readonly KeptOutChange[]): string {
  const lines: string[] = [];
  let used = 0;
  for (const change of keptOut) {
    const line = `- ${code(clip(change.path, 200))} ${changeWords[change.change]}: ${code(clip(change.reason, 200))}`;
    if (lines.length >= maxListedKeptOut || used + line.length + 1 > maxKeptOutChars) break;
    lines.push(line);
    used += line.length + 1;
  }
  const more = keptOut.length - lines.length;
  if (more > 0) lines.push(`- and ${more} more`);
  return lines.join('\n');
}

/**
 * Elapsed time the way a reader scans it: seconds while short, minutes and seconds within the hour,
 * hours and minutes after. A negative span (clocks of two runners disagree on resume) reads as 0 s.
 */
export function formatElapsed(ms: number): string {
  const seconds = Number.isFinite(ms) ? Math.max(0, Math.floor(ms / 1000)) : 0;
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Marks a plan's progress comment, so a re-run finds it instead of posting another. */
export function progressMarker(planId: string): string {
  return `<!-- plangate:progress ${planId} -->`;
}

/**
 * The plan steps to tick. Cycles that name their steps finished those steps (each once, however often
 * it ran); cycles that do not carried out the steps in order, one each.
 */
export function stepsDone(view: RunView): DoneSteps {
  const steps = view.snapshot.context.plan?.steps.length ?? 0;
  if (view.ended?.outcome === 'done') return steps;
  const { history } = view.snapshot.context;
  if (history.some((h) => h.step !== undefined)) {
    return new Set([...finishedSteps(history)].filter((n) => n <= steps));
  }
  return Math.min(steps, history.filter((h) => h.outcome !== 'abort').length);
}

/** "Steps running now: 2, 3, 4 · done: 1 · waiting: 5": where a batch of steps stands, while it runs. */
export function renderStepsNow(steps: NonNullable<RunView['steps']>): string {
  const list = (numbers: readonly number[]) => numbers.filter((n) => Number.isSafeInteger(n)).join(', ');
  const running = list(steps.running) || 'none';
  const done = list(steps.done);
  const waiting = list(steps.waiting);
  return [
    `Steps running now: ${running}`,
    ...(done ? [`done: ${done}`] : []),
    ...(waiting ? [`waiting: ${waiting}`] : []),
  ].join(' · ');
}

const revisionLabels: Record<StepRevision, string> = { added: '_(new)_', reworded: '_(revised)_', moved: '_(moved)_' };

/**
 * The plan's checklist with each step a replan added, reworded or moved labelled right after its
 * checkbox (the one place every rendered step shares, whatever its title holds), followed by the
 * plan's assumptions and risks as the unrevised plan shows them.
 */
function renderRevisedPlan(plan: Plan, done: DoneSteps, changes: readonly PlanChange[]): string {
  const marks = revisedSteps(changes);
  const steps = plan.steps.map((step, i) => {
    const text = renderStep(step, i, done);
    const mark = marks.get(i + 1);
    // renderStep opens every step with "- [ ] " or "- [x] ".
    return mark ? `${text.slice(0, 6)}${revisionLabels[mark]} ${text.slice(6)}` : text;
  });
  return steps.join('\n') + renderPlan({ ...plan, steps: [] });
}

/** The header says how the run ended, or that it stopped and waits to be resumed. */
function headline(view: RunView): string {
  if (view.ended?.outcome === 'done') return `### ✅ Plan ${code(view.planId)} finished`;
  if (view.ended?.outcome === 'aborted') return `### ⛔ Plan ${code(view.planId)} aborted`;
  if (view.interrupted) return `### ⚠️ Plan ${code(view.planId)} interrupted`;
  if (view.waitingFor)
    return `### ⏸️ Plan ${code(view.planId)} waits for amendment ${code(view.waitingFor.amendmentId)}`;
  return `### 🚀 Executing plan ${code(view.planId)}`;
}

export function renderProgressComment(view: RunView, live: ProgressContext = {}): string {
  const { context, iteration, state } = view.snapshot;
  const branch = live.branchUrl ? `branch [${code(view.branch)}](${live.branchUrl})` : `branch ${code(view.branch)}`;
  const links = [
    view.runUrl ? `[job](${view.runUrl})` : '',
    branch,
    view.pullRequestUrl ? `[pull request](${view.pullRequestUrl})` : '',
  ].filter(Boolean);
  const { startedAt, now } = live;
  const elapsed = startedAt !== undefined && now ? [`elapsed: ${formatElapsed(now() - startedAt)}`] : [];
  const facts = [
    `Approved by @${view.approvedBy}`,
    ...links,
    `cycles: ${iteration}`,
    ...elapsed,
    `cost so far: ${formatCost(sumCost(view.usage))}`,
  ];
  const parts = [headline(view), '', facts.join(' · ')];
  if (view.steps && !view.ended) parts.push('', renderStepsNow(view.steps));
  const threads = renderReviewThreadLine(view.reviewThreads ?? []);
  if (threads) parts.push('', threads);
  if (view.notice) parts.push('', `> [!NOTE]\n> ${escapeHtml(view.notice)}`);
  const failures = renderServerFailures(live.serverFailures ?? [], 'this run');
  if (failures) parts.push('', failures);
  if (view.ended?.reason) parts.push('', `**Reason:** ${escapeHtml(view.ended.reason)}`);
  if (view.interrupted) {
    parts.push(
      '',
      `> [!WARNING]\n> ${escapeHtml(view.interrupted)}\n> Re-run the job, or comment \`/approve ${view.planId}\`, to resume from the last finished cycle.`,
    );
  }
  if (view.waitingFor) {
    const { amendmentId, url, reason } = view.waitingFor;
    parts.push(
      '',
      `> [!IMPORTANT]\n> ${escapeHtml(reason)}\n> The run stopped at its last checkpoint and asks for more in [amendment ${code(amendmentId)}](${url}). A maintainer who approves it replies \`/approve ${amendmentId}\`, and the run goes on from here.`,
    );
  }
  if (view.keptOut?.length) parts.push('', '**Kept out of the commits**', '', renderKeptOut(view.keptOut));
  if (view.networkRefused?.length)
    parts.push('', '**The sealed network refused**', '', renderNetworkRefused(view.networkRefused));
  if (context.plan) {
    const changes = changesSinceApproval(view.approvedPlan, context.plan);
    if (changes.length === 0) parts.push('', '**Plan**', '', renderPlan(context.plan, stepsDone(view)));
    // The changes go first: bounded, they stay whole even when a long plan is what gets cut to fit.
    else
      parts.push(
        '',
        '**Changes to the approved plan**',
        '',
        planChangesIntro,
        '',
        renderPlanChanges(changes),
        '',
        '**Plan** (revised during the run)',
        '',
        renderRevisedPlan(context.plan, stepsDone(view), changes),
      );
  }
  if (!view.ended && state === 'execute' && context.directive) {
    parts.push('', '**Current directive**', '', codeBlock(clip(context.directive, 4_000), 'text'));
  }
  if (context.history.length) parts.push('', '**Cycles**', '', renderHistoryLines(context.history));
  parts.push('', progressMarker(view.planId));
  return parts.join('\n');
}
