import { describe, expect, it } from 'vitest';
import { planSchema, type HistoryEntry, type Plan, type PlanStep } from '../../src/machine/fields.js';
import {
  filesOverlap,
  filesWaits,
  finishedSteps,
  isStepGraph,
  prerequisites,
  readySteps,
  remainingSteps,
  stepBatches,
} from '../../src/machine/step-order.js';

/** A step with the files it names (none: `files` left out). */
const step = (title: string, files?: string[], after?: number[]): PlanStep => ({
  title,
  ...(files !== undefined ? { files } : {}),
  ...(after !== undefined ? { after } : {}),
});

/** One step, three that need only it and touch different files, and one that needs all three. */
const fanOut: Plan = {
  steps: [
    step('Add the flag', ['src/cli.ts'], []),
    step('Document it', ['docs/flag.md'], [1]),
    step('Test it', ['test/flag.test.ts'], [1]),
    step('Note it in the changelog', ['CHANGELOG.md'], [1]),
    step('Mention it in the README', ['README.md'], [2, 3, 4]),
  ],
};

const done = (n: number): HistoryEntry => ({ directive: `step ${n}`, result: 'ok', outcome: 'done', step: n });

describe('filesOverlap', () => {
  const overlap = (a: string[] | undefined, b: string[] | undefined) => filesOverlap(step('a', a), step('b', b));

  it('holds for the same file, however it is spelled', () => {
    expect(overlap(['src/a.ts'], ['src/a.ts'])).toBe(true);
    expect(overlap(['./src/a.ts'], ['src\\a.ts'])).toBe(true);
  });

  it('holds for a folder and what lies under it, either way round', () => {
    expect(overlap(['src'], ['src/a.ts'])).toBe(true);
    expect(overlap(['src/deep/x.ts'], ['src/'])).toBe(true);
  });

  it('does not hold for different files or a folder that only shares a prefix', () => {
    expect(overlap(['src/a.ts'], ['src/b.ts'])).toBe(false);
    expect(overlap(['src/a'], ['src/ab.ts'])).toBe(false);
    expect(overlap(['docs/x.md', 'docs/y.md'], ['test/x.test.ts'])).toBe(false);
  });

  it('reads entries literally, the whole repository overlapping everything', () => {
    expect(overlap(['app/[id]'], ['app/[id]/page.tsx'])).toBe(true);
    expect(overlap(['app/[id]'], ['app/i/page.tsx'])).toBe(false);
    expect(overlap(['.'], ['src/a.ts'])).toBe(true);
    expect(overlap(['src/a.ts'], ['./'])).toBe(true);
    expect(overlap(['src/a.ts'], ['srcs'])).toBe(false);
  });

  it('holds for a step that names no files, which could change any', () => {
    expect(overlap(undefined, ['src/a.ts'])).toBe(true);
    expect(overlap(['src/a.ts'], [])).toBe(true);
    expect(overlap(undefined, undefined)).toBe(true);
  });
});

describe('prerequisites and what history shows finished', () => {
  it('takes a step’s after, else the step before it', () => {
    const plan: Plan = { steps: [step('a'), step('b'), step('c', undefined, [1]), step('d', undefined, [])] };
    expect([1, 2, 3, 4].map((n) => prerequisites(plan, n))).toEqual([[], [1], [1], []]);
  });

  it('counts only entries that name their step and were judged done', () => {
    const history: HistoryEntry[] = [
      done(1),
      { directive: 'x', result: 'ok', outcome: 'done' },
      { ...done(3), outcome: 'replan' },
      done(2),
    ];
    expect([...finishedSteps(history)].sort()).toEqual([1, 2]);
    expect(remainingSteps(fanOut, finishedSteps(history))).toEqual([3, 4, 5]);
  });

  it('tells a step graph from a plan without after', () => {
    expect(isStepGraph(fanOut)).toBe(true);
    expect(isStepGraph({ steps: [step('a'), step('b', undefined, [])] })).toBe(true);
    expect(isStepGraph({ steps: [step('a', ['x']), step('b', ['y'])] })).toBe(false);
    expect(isStepGraph(undefined)).toBe(false);
  });
});

describe('readySteps', () => {
  it('starts nothing before what it waits for is finished', () => {
    expect(readySteps(fanOut, new Set(), 3)).toEqual([1]);
    expect(readySteps(fanOut, new Set([1, 2, 3]), 3)).toEqual([4]);
    expect(readySteps(fanOut, new Set([1, 2, 3, 4]), 3)).toEqual([5]);
  });

  it('takes at most limit steps, in plan order', () => {
    expect(readySteps(fanOut, new Set([1]), 3)).toEqual([2, 3, 4]);
    expect(readySteps(fanOut, new Set([1]), 2)).toEqual([2, 3]);
    expect(readySteps(fanOut, new Set([1]), 1)).toEqual([2]);
  });

  it('always includes the first ready step, whatever the limit', () => {
    expect(readySteps(fanOut, new Set([1]), 0)).toEqual([2]);
    expect(readySteps(fanOut, new Set([1]), -4)).toEqual([2]);
  });

  it('keeps two steps that may change the same files apart: the later waits', () => {
    const plan: Plan = {
      steps: [
        step('a', ['src/a.ts'], []),
        step('b', ['src/'], []),
        step('c', ['docs/c.md'], []),
        step('d', undefined, []),
      ],
    };
    // b lies over a's file, d names none: both wait; c runs beside a.
    expect(readySteps(plan, new Set(), 8)).toEqual([1, 3]);
    expect(readySteps(plan, new Set([1, 3]), 8)).toEqual([2]);
    expect(readySteps(plan, new Set([1, 2, 3]), 8)).toEqual([4]);
  });

  it('lets a later independent step start before an earlier one that waits', () => {
    const plan: Plan = { steps: [step('a', ['a'], []), step('b', ['b'], [1]), step('c', ['c'], [])] };
    expect(readySteps(plan, new Set(), 3)).toEqual([1, 3]);
  });

  it('has nothing to start once every step is finished', () => {
    expect(readySteps(fanOut, new Set([1, 2, 3, 4, 5]), 3)).toEqual([]);
  });
});

describe('stepBatches', () => {
  it('runs 1, then 2, 3 and 4 together, then 5, with three at once', () => {
    expect(stepBatches(fanOut, 3)).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('splits the fan-out when fewer may run at once', () => {
    expect(stepBatches(fanOut, 2)).toEqual([[1], [2, 3], [4], [5]]);
    expect(stepBatches(fanOut, 1)).toEqual([[1], [2], [3], [4], [5]]);
  });

  it('runs a plan without after one step a batch, however many may run at once', () => {
    const plan: Plan = { steps: [step('a', ['a']), step('b', ['b']), step('c', ['c'])] };
    expect(stepBatches(plan, 8)).toEqual([[1], [2], [3]]);
  });

  it('puts every step in exactly one batch', () => {
    const plan: Plan = {
      steps: [step('a', ['x'], []), step('b', ['x'], []), step('c', undefined, []), step('d', ['y'], [3])],
    };
    const batches = stepBatches(plan, 3);
    expect(batches.flat().sort()).toEqual([1, 2, 3, 4]);
  });
});

describe('filesWaits', () => {
  it('names a step that waits only because it may change the same files, and what it waits for', () => {
    const plan: Plan = {
      steps: [
        step('a', ['src/a.ts'], []),
        step('b', ['docs/b.md'], []),
        step('c', ['src/'], []),
        step('d', ['test/d.test.ts'], [2]),
      ],
    };
    expect(stepBatches(plan, 3)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(filesWaits(plan, 3)).toEqual([{ step: 3, behind: [1] }]);
  });

  it('says nothing of a step held back only by the limit, nor of a plan that runs one at a time', () => {
    expect(filesWaits(fanOut, 2)).toEqual([]);
    const clash: Plan = { steps: [step('a', ['x'], []), step('b', ['x'], [])] };
    expect(filesWaits(clash, 2)).toEqual([{ step: 2, behind: [1] }]);
    expect(filesWaits(clash, 1)).toEqual([]);
  });

  it('says nothing of a plan without after', () => {
    expect(filesWaits({ steps: [step('a', ['x']), step('b', ['x'])] }, 3)).toEqual([]);
  });

  it('names a step without files behind every step it could have joined', () => {
    const plan: Plan = { steps: [step('a', ['a'], []), step('b', ['b'], []), step('c', undefined, [])] };
    expect(stepBatches(plan, 3)).toEqual([[1, 2], [3]]);
    expect(filesWaits(plan, 3)).toEqual([{ step: 3, behind: [1, 2] }]);
  });
});

describe('planSchema and after', () => {
  const parse = (steps: PlanStep[]) => planSchema.safeParse({ steps });

  it('accepts after naming earlier steps, or none', () => {
    expect(parse(fanOut.steps).success).toBe(true);
    expect(parse([step('a', undefined, []), step('b', undefined, [])]).success).toBe(true);
  });

  it('refuses a step that waits for itself, naming the step', () => {
    const result = parse([step('a'), step('b', undefined, [2])]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['steps', 1, 'after']);
    expect(result.error?.issues[0]?.message).toBe('step 2 may only wait for earlier steps (1 to 1), not step 2');
  });

  it('refuses a step that waits for a later one, naming both', () => {
    const result = parse([step('a'), step('b', undefined, [1, 3]), step('c')]);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'step 2 may only wait for earlier steps (1 to 1), not step 3',
    ]);
  });

  it('refuses a first step that waits for anything, saying it comes first', () => {
    const result = parse([step('a', undefined, [1]), step('b')]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('step 1 comes first, so it can wait for no step, not step 1');
  });
});
