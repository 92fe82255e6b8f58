import type { HistoryEntry, Plan } from '../machine/fields.js';
import { renderCycle, renderHistory } from './history.js';
import { renderPlan, renderStep } from './plan-comment.js';

/**
 * The full plan and history for the job summary: the one place with room for all of it, and the
 * place every cut plan or history cycle on GitHub points to. GitHub caps a step's summary at 1 MiB,
 * so this stays under a byte budget, dropping whole steps or cycles from the end, with a notice,
 * only when even that is not enough.
 */

/** Bytes these details may take of a step's 1 MiB summary, leaving room for what the flow writes around them. */
export const summaryDetailsBytes = 900_000;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** A section of whole items, as many as fit in `budget` bytes, saying how many when some were left out. */
function section(title: string, items: string[], separator: string, budget: number, noun: string): string {
  const heading = `#### ${title}\n\n`;
  const notice = (kept: number) =>
    `\n\n> [!NOTE]\n> Only the first ${kept} of ${items.length} ${noun} fit in the job summary, which GitHub caps at 1 MiB.`;
  // Reserved for the longest notice, so it always fits beside what was kept.
  let room = budget - bytes(heading) - bytes(notice(items.length));
  let kept = 0;
  for (const item of items) {
    const cost = bytes(item) + (kept > 0 ? bytes(separator) : 0);
    if (cost > room) break;
    room -= cost;
    kept++;
  }
  return heading + items.slice(0, kept).join(separator) + (kept < items.length ? notice(kept) : '');
}

/** Every step and every cycle, unclipped, for the job summary the cut GitHub bodies refer readers to. */
export function renderSummaryDetails(
  context: { plan?: Plan; history: HistoryEntry[] },
  limitBytes = summaryDetailsBytes,
): string {
  const { plan, history } = context;
  const whole = [
    ...(plan ? [`#### Plan\n\n${renderPlan(plan)}`] : []),
    `#### History\n\n${renderHistory(history, Infinity)}`,
  ].join('\n\n');
  if (bytes(whole) <= limitBytes) return whole;
  // Too large: the plan's steps may take half, the history the rest. Assumptions and risks stay in the plan comment.
  const planPart = plan
    ? section(
        'Plan',
        plan.steps.map((step, i) => renderStep(step, i)),
        '\n',
        Math.floor(limitBytes / 2),
        'steps',
      )
    : '';
  const historyBudget = limitBytes - (planPart ? bytes(planPart) + 2 : 0);
  const historyPart = section(
    'History',
    history.map((entry, i) => renderCycle(entry, i)),
    '\n\n',
    historyBudget,
    'cycles',
  );
  return planPart ? `${planPart}\n\n${historyPart}` : historyPart;
}
