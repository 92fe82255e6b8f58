import type { Plan, PlanStep } from '../machine/fields.js';
import { filesWaits, isStepGraph, stepBatches } from '../machine/step-order.js';

/**
 * The order of a plan that says which steps need which (`after`), in words the approver reads before
 * approving: which steps run together, one batch after another, as the run takes them when every step
 * succeeds (machine/step-order.ts), and which steps wait only because they may change the same files.
 * Plain words and step numbers, nothing Markdown reads, so the plan comment and the terminal show
 * the same text. A plan without `after` has no order to show: its steps run one after another.
 */

/** The order in one line, and a sentence for each step that waits for another only because of its files. */
export interface PlanOrder {
  order: string;
  waits: string[];
}

/** The order of `plan` when at most `limit` steps run at once; undefined for a plan without `after`. */
export function planOrder(plan: Plan, limit: number): PlanOrder | undefined {
  if (!isStepGraph(plan)) return undefined;
  const order = stepBatches(plan, limit)
    .map((batch) => (batch.length === 1 ? String(batch[0]) : `${listed(batch)} together`))
    .join(' → ');
  const waits = filesWaits(plan, limit).map(({ step, behind }) =>
    (plan.steps[step - 1] as PlanStep).files?.length
      ? `Steps ${listed([...behind, step])} may change the same files, so ${step} waits for ${listed(behind)}.`
      : `Step ${step} names no files, so it waits for ${listed(behind)}.`,
  );
  return { order, waits };
}

/** What a step waits for, as its line in the plan shows it; undefined for a step without `after`. */
export function waitsFor(step: PlanStep): string | undefined {
  if (step.after === undefined) return undefined;
  const needed = [...new Set(step.after)].sort((a, b) => a - b);
  if (needed.length === 0) return 'no other step';
  return `${needed.length === 1 ? 'step' : 'steps'} ${listed(needed)}`;
}

/** `1`, `1 and 2`, `1, 2 and 3`. */
function listed(numbers: readonly number[]): string {
  const words = numbers.map(String);
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1) ?? ''}`;
}
