import type { HistoryEntry, Plan, PlanStep } from './fields.js';
import { entriesOverlap } from '../text/literal-path.js';

/**
 * The order of a plan's steps: which wait for which (`after`), and which may run at the same time.
 * Pure, so the machine's guards, the plan comment and the host all read the same answer. Steps are
 * numbered from 1, as the plan comment shows them.
 */

/** Whether the plan orders its steps itself (some step names `after`); a plan that does not runs one step at a time. */
export function isStepGraph(plan: Plan | undefined): plan is Plan {
  return plan?.steps.some((step) => step.after !== undefined) === true;
}

/** The steps step `n` waits for: its `after`, else the step before it. */
export function prerequisites(plan: Plan, n: number): number[] {
  const step = plan.steps[n - 1];
  if (step?.after !== undefined) return [...new Set(step.after)].filter((m) => m >= 1 && m < n);
  return n > 1 ? [n - 1] : [];
}

/** The steps history shows finished: an entry that names its step and was judged done. */
export function finishedSteps(history: readonly HistoryEntry[]): Set<number> {
  return new Set(history.filter((e) => e.step !== undefined && e.outcome === 'done').map((e) => e.step as number));
}

/** The steps not finished yet, in plan order. */
export function remainingSteps(plan: Plan, finished: ReadonlySet<number>): number[] {
  return plan.steps.map((_, i) => i + 1).filter((n) => !finished.has(n));
}

/**
 * The steps that may start now, in plan order: unfinished, everything they wait for finished, and
 * no two that may change the same file (the later waits), at most `limit` of them. The first such
 * step is always among them, so a plan never stalls on its own order.
 */
export function readySteps(plan: Plan, finished: ReadonlySet<number>, limit: number): number[] {
  const ready: number[] = [];
  for (const n of remainingSteps(plan, finished)) {
    if (ready.length >= Math.max(1, limit)) break;
    if (!prerequisites(plan, n).every((m) => finished.has(m))) continue;
    const step = plan.steps[n - 1] as PlanStep;
    if (ready.some((m) => filesOverlap(plan.steps[m - 1] as PlanStep, step))) continue;
    ready.push(n);
  }
  return ready;
}

/**
 * The order as the approver will see it run when every step succeeds: batches of steps that run
 * together, one batch after another.
 */
export function stepBatches(plan: Plan, limit: number): number[][] {
  const finished = new Set<number>();
  const batches: number[][] = [];
  while (finished.size < plan.steps.length) {
    const batch = isStepGraph(plan) ? readySteps(plan, finished, limit) : [finished.size + 1];
    for (const n of batch) finished.add(n);
    batches.push(batch);
  }
  return batches;
}

/**
 * The steps that could have joined a batch of `stepBatches` (everything they wait for finished, room
 * left under `limit`) but wait for a later one because they may change the same files as steps in it
 * (or name no files), each with those steps, in plan order. This is the one wait the plan's `after`
 * does not show, so the approver is told it; a step held back only by `limit` is not listed.
 */
export function filesWaits(plan: Plan, limit: number): Array<{ step: number; behind: number[] }> {
  if (!isStepGraph(plan)) return [];
  const waits = new Map<number, number[]>();
  const finished = new Set<number>();
  for (const batch of stepBatches(plan, limit)) {
    for (const n of remainingSteps(plan, finished)) {
      if (batch.includes(n) || waits.has(n) || !prerequisites(plan, n).every((m) => finished.has(m))) continue;
      // As readySteps takes them: in plan order, so only the batch's earlier steps stood before this one.
      const before = batch.filter((m) => m < n);
      if (before.length >= Math.max(1, limit)) continue;
      const step = plan.steps[n - 1] as PlanStep;
      const behind = before.filter((m) => filesOverlap(plan.steps[m - 1] as PlanStep, step));
      if (behind.length > 0) waits.set(n, behind);
    }
    for (const n of batch) finished.add(n);
  }
  return [...waits].sort(([a], [b]) => a - b).map(([step, behind]) => ({ step, behind }));
}

/**
 * Whether two steps may change the same path. A step that names no files could change any, so it
 * overlaps every step; otherwise two entries overlap when one is, or lies under, the other (entries
 * are literal paths: a file, or a folder and what is under it).
 */
export function filesOverlap(a: PlanStep, b: PlanStep): boolean {
  const left = a.files ?? [];
  const right = b.files ?? [];
  if (left.length === 0 || right.length === 0) return true;
  return left.some((x) => right.some((y) => entriesOverlap(x, y)));
}
