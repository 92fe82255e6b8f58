import { describe, expect, it } from 'vitest';
import type { HistoryEntry, Outcome } from '../../src/machine/fields.js';
import type { StateName, Transition } from '../../src/machine/types.js';
import { mermaidLabel, renderDiagram } from '../../src/render/diagram.js';

const cycle = (outcome: Outcome, directive = 'do it'): HistoryEntry => ({ directive, result: 'ok', outcome });
const t = (from: StateName, to: StateName, reason?: string): Transition =>
  reason === undefined ? { from, to } : { from, to, reason };

/** Lines between the fences, without the indentation. */
const body = (block: string) =>
  block
    .split('\n')
    .slice(1, -1)
    .map((l) => l.trim());

describe('mermaidLabel', () => {
  it('keeps plain words and encodes everything that could end the label, the fence or a comment', () => {
    expect(mermaidLabel('cycle 1: done')).toBe('"cycle 1: done"');
    expect(mermaidLabel('a "quote" <b> `x` #1 ; [y] {z} |p|')).toBe(
      '"a #34;quote#34; #60;b#62; #96;x#96; #35;1 #59; #91;y#93; #123;z#125; #124;p#124;"',
    );
    expect(mermaidLabel('line one\n\tline two')).toBe('"line one line two"');
    expect(mermaidLabel('<!-- x -->')).not.toContain('<');
    expect(mermaidLabel('café ✓')).toBe('"caf#233; #10003;"');
  });
});

describe('renderDiagram', () => {
  it('draws plan → execute → replan → execute → finish → done with each cycle outcome on its edge', () => {
    const trail = [
      t('plan', 'execute'),
      t('execute', 'replan'),
      t('replan', 'execute'),
      t('execute', 'finish'),
      t('finish', 'done'),
    ];
    const block = renderDiagram({ state: 'done', trail, context: { history: [cycle('replan'), cycle('done')] } });
    expect(block.startsWith('```mermaid\nflowchart LR\n')).toBe(true);
    expect(block.endsWith('\n```')).toBe(true);
    expect(body(block)).toEqual([
      'flowchart LR',
      'n0["plan"]',
      'n0 --> n1["execute"]',
      'n1 -- "cycle 1: next step" --> n2["next step"]',
      'n2 --> n3["execute"]',
      'n3 -- "cycle 2: done" --> n4("finish")',
      'n4 --> n5(["done"])',
      'classDef ended fill:#dcf5e3,stroke:#57606a',
      'class n5 ended',
    ]);
  });

  it('labels a forced abort with its escaped reason and colours the end as aborted', () => {
    const trail = [t('plan', 'execute'), t('execute', 'abort', 'reached "max-iterations" (1)'), t('abort', 'done')];
    const block = renderDiagram({ state: 'done', trail, context: { history: [cycle('replan')] } });
    expect(block).toContain('n1 -- "cycle 1: next step - stopped: reached #34;max-iterations#34; (1)" --> n2("abort")');
    expect(block).toContain('classDef ended fill:#fde2e1');
  });

  it('shows the question and answer loop and a no-change ending', () => {
    const trail = [t('plan', 'ask'), t('ask', 'plan'), t('plan', 'done')];
    const lines = body(renderDiagram({ state: 'done', trail, context: { history: [] } }));
    expect(lines).toContain('n0 -- "question" --> n1["ask"]');
    expect(lines).toContain('n1 -- "answered" --> n2["plan"]');
    expect(lines).toContain('n2 -- "nothing to change" --> n3(["done"])');
  });

  it('marks an executor-only run that aborted, and an unfinished run at its current state', () => {
    const aborted = renderDiagram({
      state: 'done',
      trail: [t('execute', 'done')],
      context: { history: [cycle('abort')] },
    });
    expect(aborted).toContain('n0 -- "cycle 1: abort" --> n1(["done"])');
    expect(aborted).toContain('fill:#fde2e1');
    const running = renderDiagram({ state: 'execute', trail: [t('plan', 'execute')], context: { history: [] } });
    expect(body(running).slice(-2)).toEqual(['classDef current stroke-width:3px', 'class n1 current']);
    const fresh = renderDiagram({ state: 'plan', trail: [], context: { history: [] } });
    expect(body(fresh)).toEqual([
      'flowchart LR',
      'n0["plan"]',
      'classDef current stroke-width:3px',
      'class n0 current',
    ]);
  });

  it('keeps the start and the end of a long path around one elision node, numbering cycles over the whole run', () => {
    const trail: Transition[] = [t('plan', 'execute')];
    const history: HistoryEntry[] = [];
    for (let i = 0; i < 30; i++) {
      trail.push(t('execute', 'replan'), t('replan', 'execute'));
      history.push(cycle('replan'));
    }
    trail.push(t('execute', 'finish'), t('finish', 'done'));
    history.push(cycle('done'));
    const input = { state: 'done' as const, trail, context: { history } };
    const block = renderDiagram(input, { maxTransitions: 12 });
    const edges = body(block).filter((l) => l.includes('->'));
    expect(edges).toHaveLength(12 + 2);
    expect(block).toContain('#8230; 51 more steps');
    expect(block).toContain('"cycle 1: next step"');
    expect(block).toContain('"cycle 31: done"');
    expect(block).not.toContain('"cycle 10: next step"');
    // Same input, same text: the body of a pull request does not churn between updates.
    expect(renderDiagram(input, { maxTransitions: 12 })).toBe(block);
  });
});
