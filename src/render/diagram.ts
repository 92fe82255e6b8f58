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
  /** Most transitions drawn; a longer path keeps its start and its end around one elision node. */
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

/** One move of the path with the label its edge carries. */
interface Step {
  from: StateName;
  to: StateName;
  label?: string;
}

/** Labels each move: a cycle leaving `execute` with its number and outcome, a forced move with its reason. */
function steps(input: DiagramInput): Step[] {
  const { history } = input.context;
  let cycle = 0;
  return input.trail.map((t) => {
    const parts: string[] = [];
    // Every exit from execute appended one history entry (the reducer's appendHistory / appendAbortedCycle).
    if (t.from === 'execute') {
      const entry = history[cycle];
      cycle++;
      if (entry) parts.push(`cycle ${cycle}: ${outcomeWords[entry.outcome]}`);
    } else if (t.from === 'plan' && t.to === 'ask') {
      parts.push('question');
    } else if (t.from === 'ask') {
      parts.push('answered');
    } else if (t.from === 'plan' && t.to === 'done') {
      parts.push('nothing to change');
    }
    if (t.reason !== undefined) parts.push(`stopped: ${shorten(t.reason, reasonMax)}`);
    return parts.length > 0 ? { from: t.from, to: t.to, label: parts.join(' - ') } : { from: t.from, to: t.to };
  });
}

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
    const arrow = step.label === undefined ? '-->' : `-- ${mermaidLabel(step.label)} -->`;
    lines.push(`  ${from} ${arrow} ${shape(`n${node}`, step.to)}`);
  };
  if (all.length <= max) {
    all.forEach(edge);
  } else {
    const head = Math.floor(max / 4);
    const tail = max - head;
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
      input.context.history.at(-1)?.outcome === 'abort';
    lines.push(`  classDef ended fill:${aborted ? '#fde2e1' : '#dcf5e3'},stroke:#57606a`, `  class n${node} ended`);
  } else {
    lines.push('  classDef current stroke-width:3px', `  class n${node} current`);
  }
  lines.push('```');
  return lines.join('\n');
}
