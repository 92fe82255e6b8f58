import { describe, expect, it } from 'vitest';
import type { HistoryEntry, Outcome, Plan, StepReport } from '../../src/machine/fields.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../../src/machine/planner-executor.js';
import { reduce } from '../../src/machine/reducer.js';
import type { MachineEvent, Snapshot, StateName, Transition } from '../../src/machine/types.js';
import { mermaidLabel, renderDiagram } from '../../src/render/diagram.js';
import { planner } from './machine-fixture.js';

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

/** Step 1, then steps 2, 3 and 4 together, then step 5: the order a plan with `after` runs in. */
const graphPlan: Plan = {
  steps: [
    { title: 'Add the flag', files: ['src/flag.ts'] },
    { title: 'Document it', files: ['docs/flag.md'], after: [1] },
    { title: 'Test it', files: ['test/flag.test.ts'], after: [1] },
    { title: 'Note it', files: ['CHANGELOG.md'], after: [1] },
    { title: 'Release it', files: ['package.json'], after: [2, 3, 4] },
  ],
};

const report = (step: number, outcome: Outcome = 'done', together?: number[]): StepReport => ({
  directive: `Carry out step ${step}`,
  result: `step ${step} finished`,
  outcome,
  step,
  ...(together ? { together } : {}),
});
const batch = (outcomes: Record<number, Outcome>): StepReport[] => {
  const steps = Object.keys(outcomes).map(Number);
  return steps.map((n) => report(n, outcomes[n], steps));
};
const stepsEvent = (reports: StepReport[]): MachineEvent => ({ type: 'steps', agent: 'executor', reports });

/** A run of the real machine: the snapshot a host would render, with the reducer's own trail and history. */
function runOf(events: MachineEvent[], policy = defaultPolicy): Snapshot {
  const start = initialSnapshot('Add a flag', policy);
  return events.reduce((snapshot, event) => reduce(plannerExecutorMachine, snapshot, event), start);
}
const planned = planner({ plan: graphPlan, directive: 'Carry out the plan' });

describe('renderDiagram: steps run together', () => {
  it('fans execute out to one node per step of a batch and joins them into the next state', () => {
    const snapshot = runOf([
      planned,
      stepsEvent([report(1)]),
      stepsEvent(batch({ 2: 'done', 3: 'done', 4: 'done' })),
      stepsEvent([report(5)]),
      planner({ summary: 'Released the flag.' }),
    ]);
    expect(snapshot.state).toBe('done');
    expect(snapshot.context.history).toHaveLength(5);
    expect(body(renderDiagram(snapshot))).toEqual([
      'flowchart LR',
      'n0["plan"]',
      'n0 --> n1["execute"]',
      'n1 -- "cycle 1 (step 1): done" --> n2["execute"]',
      'n2 --> n2s1["step 2: done"]',
      'n2 --> n2s2["step 3: done"]',
      'n2 --> n2s3["step 4: done"]',
      'n2s1 --> n3["execute"]',
      'n2s2 --> n3',
      'n2s3 --> n3',
      // Numbered over the history: the batch was cycles 2 to 4.
      'n3 -- "cycle 5 (step 5): done" --> n4("finish")',
      'n4 --> n5(["done"])',
      'classDef ended fill:#dcf5e3,stroke:#57606a',
      'class n5 ended',
    ]);
  });

  it('joins a batch that found the plan wrong into the next step, and keeps two batches of the same steps apart', () => {
    const snapshot = runOf([
      planned,
      stepsEvent([report(1)]),
      stepsEvent(batch({ 2: 'done', 3: 'replan' })),
      planner({ directive: 'Try step 3 again' }),
      stepsEvent(batch({ 3: 'done', 4: 'done' })),
      stepsEvent(batch({ 3: 'done', 4: 'done' })),
    ]);
    const lines = body(renderDiagram(snapshot));
    expect(lines).toContain('n2 --> n2s1["step 2: done"]');
    expect(lines).toContain('n2 --> n2s2["step 3: next step"]');
    expect(lines).toContain('n2s1 --> n3["next step"]');
    expect(lines).toContain('n2s2 --> n3');
    expect(lines).toContain('n3 --> n4["execute"]');
    expect(lines).toContain('n4 --> n4s1["step 3: done"]');
    expect(lines).toContain('n4 --> n4s2["step 4: done"]');
    expect(lines).toContain('n4s1 --> n5["execute"]');
    // The same two steps again are the next exit's batch, not more branches of this one.
    expect(lines).toContain('n5 --> n5s1["step 3: done"]');
    expect(lines).toContain('n5 --> n5s2["step 4: done"]');
    expect(lines.filter((l) => l.includes('s3['))).toEqual([]);
  });

  it('says a forced stop once, on the join, and counts the batch before an aborted cycle', () => {
    const policy = { ...defaultPolicy, maxIterations: 3 };
    const snapshot = runOf(
      [planned, stepsEvent([report(1)]), stepsEvent(batch({ 2: 'done', 3: 'done' })), planner({ summary: 'Stopped.' })],
      policy,
    );
    expect(snapshot.trail.at(-2)?.reason).toBe('reached max-iterations (3)');
    const lines = body(renderDiagram(snapshot));
    expect(lines).toContain('n2s1 -- "stopped: reached max-iterations (3)" --> n3("abort")');
    expect(lines).toContain('n2s2 --> n3');
    expect(lines.slice(-2)).toEqual(['classDef ended fill:#fde2e1,stroke:#57606a', 'class n4 ended']);

    // An aborted ordinary cycle after a batch is the cycle after the batch's entries.
    const history: HistoryEntry[] = [...batch({ 2: 'done', 3: 'done' }), cycle('abort', 'was doing step 4')];
    const trail = [
      t('plan', 'execute'),
      t('execute', 'replan'),
      t('replan', 'execute'),
      t('execute', 'abort', 'cancelled'),
    ];
    const aborted = body(renderDiagram({ state: 'abort', trail, context: { history } }));
    expect(aborted).toContain('n3 -- "cycle 3: abort - stopped: cancelled" --> n4("abort")');
  });

  it('colours the end of an executor-only run whose batch had a step abort as aborted', () => {
    const history = batch({ 1: 'done', 2: 'abort', 3: 'done' });
    const block = renderDiagram({ state: 'done', trail: [t('execute', 'done')], context: { history } });
    expect(body(block)).toContain('n0 --> n0s2["step 2: abort"]');
    expect(block).toContain('classDef ended fill:#fde2e1');
  });

  it('elides the middle of a long run of batches, counting each branch against the budget', () => {
    const trail: Transition[] = [t('plan', 'execute')];
    const history: HistoryEntry[] = [];
    for (let i = 0; i < 20; i++) {
      trail.push(t('execute', 'execute'));
      history.push(...batch({ [2 * i + 1]: 'done', [2 * i + 2]: 'done' }));
    }
    trail.push(t('execute', 'finish'), t('finish', 'done'));
    history.push(report(41));
    const input = { state: 'done' as const, trail, context: { history } };
    const block = renderDiagram(input, { maxTransitions: 12 });
    const lines = body(block);
    // Head: 3 branches' worth (plan -> execute, one batch of 2); tail: 9 (the end, three batches of 2, ...).
    expect(lines).toContain('n1 --> n1s1["step 1: done"]');
    expect(block).not.toContain('"step 3: done"');
    expect(block).toContain('#8230; 16 more steps');
    expect(block).toContain('"step 40: done"');
    expect(block).toContain('"cycle 41 (step 41): done"');
    expect(lines.filter((l) => l.includes('-->')).length).toBeLessThanOrEqual(2 * 12);
    expect(renderDiagram(input, { maxTransitions: 12 })).toBe(block);
    // A last batch wider than the budget is still drawn: the end of the run always shows.
    const wide = {
      ...input,
      context: { history: [...history.slice(0, -1), ...batch({ 41: 'done', 42: 'done', 43: 'done' })] },
    };
    wide.trail = [...trail.slice(0, -2), t('execute', 'done')];
    expect(renderDiagram(wide, { maxTransitions: 2 })).toContain('"step 43: done"');
  });

  it('draws a run without steps exactly as before, elided or not', () => {
    const trail: Transition[] = [t('plan', 'execute')];
    const history: HistoryEntry[] = [];
    for (let i = 0; i < 6; i++) {
      trail.push(t('execute', 'replan'), t('replan', 'execute'));
      history.push(cycle('replan'));
    }
    trail.push(t('execute', 'finish'), t('finish', 'done'));
    history.push(cycle('done'));
    expect(renderDiagram({ state: 'done', trail, context: { history } }, { maxTransitions: 6 })).toBe(
      [
        '```mermaid',
        'flowchart LR',
        '  n0["plan"]',
        '  n0 --> n1["execute"]',
        '  n1 -.-> n2["#8230; 9 more steps"]',
        '  n2 -.-> n3["next step"]',
        '  n3 --> n4["execute"]',
        '  n4 -- "cycle 6: next step" --> n5["next step"]',
        '  n5 --> n6["execute"]',
        '  n6 -- "cycle 7: done" --> n7("finish")',
        '  n7 --> n8(["done"])',
        '  classDef ended fill:#dcf5e3,stroke:#57606a',
        '  class n8 ended',
        '```',
      ].join('\n'),
    );
  });
});
