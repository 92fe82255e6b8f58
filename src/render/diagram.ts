import type { HistoryEntry } from '../machine/fields.js';
import type { StateName, Transition } from '../machine/types.js';
import { outcomeWords, stateWords } from '../machine/reader-words.js';

/**
 * The run's path through the machine as a Mermaid flowchart, for the job summary and the pull
 * request body: a reviewer sees at a glance how many steps the run took and how it ended.
 * Pure and deterministic, so the same snapshot always renders the same block.
 */

/** The parts of a snapshot the diagram reads; a whole Snapshot fits. */
export interface DiagramInput {
  state: StateName;
  trail: readonly Transition[];
  context: { history: readonly HistoryEntry[] };
}

export interface DiagramOptions {
  /**
   * Most transitions drawn, a batch of steps counting one per step; a longer path keeps its start and
   * its end around one elision node.
   */
  maxTransitions?: number;
}

const defaultMaxTransitions = 40;
const reasonMax = 80;

/** Readable characters that cannot end a quoted Mermaid label or leave the code fence. */
const safe = /[A-Za-z0-9 .,:()\-_/'+=?!]/;

/**
 * Quotes a label for Mermaid: everything outside a small safe set becomes an entity code
 * (`#35;`), so model text can neither close the label, inject directives nor break the fence.
 */
export function mermaidLabel(text: string): string {
  let out = '';
  for (const char of text.replace(/\s+/g, ' ').trim()) {
    out += safe.test(char) ? char : `#${char.codePointAt(0) ?? 0};`;
  }
  return `"${out}"`;
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * One move of the path with the label its edge carries. A move out of `execute` that carried out a
 * batch of plan steps at once has a branch per step ("step 3: done"), drawn side by side.
 */
interface Step {
  from: StateName;
  to: StateName;
  label?: string;
  branches?: string[];
  /** Some step of the batch aborted. */
  aborted?: boolean;
}

/**
 * The history entries one exit from execute appended, from `at` on. The reducer appends one for a
 * cycle (appendHistory) or a cycle cut short (appendAbortedCycle), and one per step for a batch of
 * steps run together: consecutive entries sharing the same `together` list, each step at most once
 * and no more than the list names (two batches of the same steps in a row stay two).
 */
function exitEntries(history: readonly HistoryEntry[], at: number): HistoryEntry[] {
  const first = history[at];
  const batch = first?.together;
  if (first?.step === undefined || batch === undefined || batch.length < 2) return first ? [first] : [];
  const entries = [first];
  for (const next of history.slice(at + 1, at + batch.length)) {
    const same = next.together !== undefined && next.together.join(',') === batch.join(',');
    if (!same || next.step === undefined || entries.some((e) => e.step === next.step)) break;
    entries.push(next);
  }
  return entries;
}

/** The label of a cycle that ran alone: its number and outcome, and its plan step where it names one. */
function cycleLabel(entry: HistoryEntry, cycle: number): string {
  const step = entry.step === undefined ? '' : ` (step ${entry.step})`;
  return `cycle ${cycle}${step}: ${outcomeWords[entry.outcome]}`;
}

/** Labels each move: a cycle leaving `execute` with its number and outcome, a forced move with its reason. */
function steps(input: DiagramInput): Step[] {
  const { history } = input.context;
  let cycle = 0;
  return input.trail.map((t) => {
    const parts: string[] = [];
    let batch: Pick<Step, 'branches' | 'aborted'> = {};
    if (t.from === 'execute') {
      const entries = exitEntries(history, cycle);
      const entry = entries[0];
      if (entries.length > 1) {
        const branches = entries.map((e) => `step ${e.step}: ${outcomeWords[e.outcome]}`);
        batch = { branches, aborted: entries.some((e) => e.outcome === 'abort') };
      } else if (entry) parts.push(cycleLabel(entry, cycle + 1));
      cycle += Math.max(1, entries.length);
    } else if (t.from === 'plan' && t.to === 'ask') {
      parts.push('question');
    } else if (t.from === 'ask') {
      parts.push('answered');
    } else if (t.from === 'plan' && t.to === 'done') {
      parts.push('nothing to change');
    }
    if (t.reason !== undefined) parts.push(`stopped: ${shorten(t.reason, reasonMax)}`);
    const step: Step =
      parts.length > 0 ? { from: t.from, to: t.to, label: parts.join(' - ') } : { from: t.from, to: t.to };
    return batch.branches ? { ...step, ...batch } : step;
  });
}

/** How much of the drawing a move takes: one edge, or one branch per step of a batch. */
const weight = (step: Step) => Math.max(1, step.branches?.length ?? 0);

const shape = (id: string, state: StateName) => {
  const label = mermaidLabel(stateWords[state]);
  if (state === 'done') return `${id}([${label}])`;
  if (state === 'finish' || state === 'abort') return `${id}(${label})`;
  return `${id}[${label}]`;
};

/**
 * The fenced ```mermaid block. Each visit of a state is its own node, so loops read left to right
 * as they happened; the current state is highlighted while the run is not over.
 */
export function renderDiagram(input: DiagramInput, options: DiagramOptions = {}): string {
  const max = Math.max(2, options.maxTransitions ?? defaultMaxTransitions);
  const all = steps(input);
  const start: StateName = input.trail[0]?.from ?? input.state;
  const lines = ['```mermaid', 'flowchart LR', `  ${shape('n0', start)}`];
  let node = 0;
  const edge = (step: Step) => {
    const from = `n${node}`;
    node++;
    const arrow = (label: string | undefined) => (label === undefined ? '-->' : `-- ${mermaidLabel(label)} -->`);
    if (step.branches === undefined) {
      lines.push(`  ${from} ${arrow(step.label)} ${shape(`n${node}`, step.to)}`);
      return;
    }
    // A batch fans out to one node per step and joins again; a forced stop's reason is said once.
    step.branches.forEach((branch, i) => lines.push(`  ${from} --> ${from}s${i + 1}[${mermaidLabel(branch)}]`));
    step.branches.forEach((_, i) => {
      const to = i === 0 ? shape(`n${node}`, step.to) : `n${node}`;
      lines.push(`  ${from}s${i + 1} ${arrow(i === 0 ? step.label : undefined)} ${to}`);
    });
  };
  // The budget counts drawn branches, so a run of wide batches is cut as short as a long plain one;
  // the end is always drawn, even when its last batch alone is wider than the budget.
  const headBudget = Math.floor(max / 4);
  const head = fitting(all, headBudget);
  const tail = Math.max(1, fitting([...all].reverse(), max - headBudget));
  if (all.reduce((sum, step) => sum + weight(step), 0) <= max || head + tail >= all.length) {
    all.forEach(edge);
  } else {
    all.slice(0, head).forEach(edge);
    const hidden = all.length - head - tail;
    const from = `n${node}`;
    node++;
    lines.push(`  ${from} -.-> n${node}[${mermaidLabel(`… ${hidden} more steps`)}]`);
    const resume = all[all.length - tail];
    node++;
    lines.push(`  n${node - 1} -.-> ${shape(`n${node}`, resume?.from ?? input.state)}`);
    all.slice(all.length - tail).forEach(edge);
  }
  const ended = input.trail.at(-1)?.to ?? input.state;
  if (ended === 'done') {
    const aborted =
      input.trail.some((t) => t.to === 'abort' || t.reason !== undefined) ||
      input.context.history.at(-1)?.outcome === 'abort' ||
      all.some((step) => step.aborted === true);
    lines.push(`  classDef ended fill:${aborted ? '#fde2e1' : '#dcf5e3'},stroke:#57606a`, `  class n${node} ended`);
  } else {
    lines.push('  classDef current stroke-width:3px', `  class n${node} current`);
  }
  lines.push('```');
  return lines.join('\n');
}

/** How many moves from the start of `moves` fit in `budget` drawn branches. */
function fitting(moves: readonly Step[], budget: number): number {
  let used = 0;
  let count = 0;
  for (const move of moves) {
    used += weight(move);
    if (used > budget) break;
    count++;
  }
  return count;
}
