import { describe, expect, it } from 'vitest';
import type { Plan, PlanStep } from '../../src/machine/fields.js';
import {
  changedFields,
  changesSinceApproval,
  planChanges,
  renderPlanChanges,
  revisedSteps,
  type PlanChange,
} from '../../src/render/plan-changes.js';

const approved: Plan = {
  steps: [
    {
      title: 'Add a farewell function',
      detail: 'Export farewell(name).',
      files: ['src/greet.js'],
      verify: 'node --check src/greet.js',
    },
    { title: 'Document it in the README', files: ['README.md'] },
    { title: 'Add a changelog entry', files: ['CHANGELOG.md'] },
  ],
  assumptions: ['ESM only.'],
  risks: ['None.'],
};

const withSteps = (steps: PlanStep[], rest: Partial<Plan> = {}): Plan => ({ ...approved, steps, ...rest });
const [add, doc, log] = approved.steps as [PlanStep, PlanStep, PlanStep];

describe('planChanges', () => {
  it('finds nothing in an unchanged plan, or in a copy of it', () => {
    expect(planChanges(approved, approved)).toEqual([]);
    expect(planChanges(approved, structuredClone(approved))).toEqual([]);
  });

  it('reports an added step at its position in the current plan', () => {
    const current = withSteps([add, { title: 'Test farewell', files: ['test/greet.test.js'] }, doc, log]);
    expect(planChanges(approved, current)).toEqual([{ kind: 'added', step: 2, title: 'Test farewell' }]);
  });

  it('reports a removed step at its position in the approved plan, without flagging the steps after it', () => {
    expect(planChanges(approved, withSteps([add, log]))).toEqual([
      { kind: 'removed', was: 2, title: 'Document it in the README' },
    ]);
  });

  it('reports a reworded step with the fields that changed, matching a similar title', () => {
    const current = withSteps([
      add,
      { title: 'Document farewell in the README', files: ['README.md', 'docs/api.md'] },
      log,
    ]);
    expect(planChanges(approved, current)).toEqual([
      {
        kind: 'reworded',
        step: 2,
        was: 2,
        title: 'Document farewell in the README',
        before: 'Document it in the README',
        fields: ['title', 'files'],
      },
    ]);
  });

  it('pairs a title with a longer one that holds all its words', () => {
    const current: Plan = { steps: [add, { title: 'Document it in the README API section' }] };
    expect(planChanges({ steps: [add, { title: 'Document it' }] }, current)).toEqual([
      {
        kind: 'reworded',
        step: 2,
        was: 2,
        title: 'Document it in the README API section',
        before: 'Document it',
        fields: ['title'],
      },
    ]);
  });

  it('reports detail and verify changes under an unchanged title', () => {
    const current = withSteps([
      { ...add, detail: 'Export farewell(name) and a default.', verify: 'npm test' },
      doc,
      log,
    ]);
    expect(planChanges(approved, current)).toEqual([
      { kind: 'reworded', step: 1, was: 1, title: add.title, before: add.title, fields: ['detail', 'verify'] },
    ]);
  });

  it('reports a step whose title changed beyond recognition as removed and added', () => {
    const current = withSteps([add, { title: 'Publish release notes', files: ['README.md'] }, log]);
    expect(planChanges(approved, current)).toEqual([
      { kind: 'removed', was: 2, title: doc.title },
      { kind: 'added', step: 2, title: 'Publish release notes' },
    ]);
  });

  it('reports a reordered step as moved, and only that step', () => {
    expect(planChanges(approved, withSteps([log, add, doc]))).toEqual([
      { kind: 'moved', step: 1, was: 3, title: log.title, before: log.title, fields: [] },
    ]);
    expect(planChanges(approved, withSteps([doc, log, add]))).toEqual([
      { kind: 'moved', step: 3, was: 1, title: add.title, before: add.title, fields: [] },
    ]);
  });

  it('names the fields of a moved step that changed too', () => {
    expect(planChanges(approved, withSteps([{ ...log, files: ['CHANGES.md'] }, add, doc]))).toEqual([
      { kind: 'moved', step: 1, was: 3, title: log.title, before: log.title, fields: ['files'] },
    ]);
  });

  it('combines additions, removals and rewordings in plan order', () => {
    const current = withSteps([
      { ...add, title: 'Add the farewell function' },
      { title: 'Write a test for farewell' },
      log,
    ]);
    expect(planChanges(approved, current)).toEqual([
      { kind: 'reworded', step: 1, was: 1, title: 'Add the farewell function', before: add.title, fields: ['title'] },
      { kind: 'removed', was: 2, title: doc.title },
      { kind: 'added', step: 2, title: 'Write a test for farewell' },
    ]);
  });

  it('prefers pairing identical titles over similar ones', () => {
    const base: Plan = { steps: [{ title: 'Update the docs' }] };
    const current: Plan = { steps: [{ title: 'Update the docs site' }, { title: 'Update the docs' }] };
    expect(planChanges(base, current)).toEqual([{ kind: 'added', step: 1, title: 'Update the docs site' }]);
  });

  it('ignores case and spacing when pairing, but reports the title as changed', () => {
    const current = withSteps([{ ...add, title: 'add a  farewell function' }, doc, log]);
    expect(planChanges(approved, current)).toEqual([
      { kind: 'reworded', step: 1, was: 1, title: 'add a  farewell function', before: add.title, fields: ['title'] },
    ]);
  });

  it('never pairs titles without words, unless they are the same', () => {
    expect(planChanges({ steps: [{ title: '🚀' }] }, { steps: [{ title: '🔥' }] })).toEqual([
      { kind: 'removed', was: 1, title: '🚀' },
      { kind: 'added', step: 1, title: '🔥' },
    ]);
    expect(planChanges({ steps: [{ title: '🚀' }] }, { steps: [{ title: '🚀' }] })).toEqual([]);
  });

  it('reports revised assumptions and risks after the steps', () => {
    expect(
      planChanges(approved, withSteps(approved.steps, { assumptions: ['ESM and CJS.'], risks: undefined })),
    ).toEqual([
      { kind: 'list', list: 'assumptions' },
      { kind: 'list', list: 'risks' },
    ]);
    // Absent and empty read the same.
    expect(planChanges({ steps: [add], risks: [] }, { steps: [add] })).toEqual([]);
  });

  it('handles plans of hundreds of steps', () => {
    const big: Plan = { steps: Array.from({ length: 500 }, (_, i) => ({ title: `Step number ${i}` })) };
    const current: Plan = { steps: [...big.steps.slice(0, 250), { title: 'Brand new work' }, ...big.steps.slice(251)] };
    expect(planChanges(big, current)).toEqual([
      { kind: 'removed', was: 251, title: 'Step number 250' },
      { kind: 'added', step: 251, title: 'Brand new work' },
    ]);
  });
});

describe('changedFields, changesSinceApproval and revisedSteps', () => {
  it('treats absent and empty fields alike', () => {
    expect(changedFields({ title: 'A', detail: '', files: [], verify: '' }, { title: 'A' })).toEqual([]);
    expect(changedFields({ title: 'A', files: ['a', 'b'] }, { title: 'A', files: ['b', 'a'] })).toEqual(['files']);
  });

  it('has nothing to compare without an approved or a current plan', () => {
    expect(changesSinceApproval(undefined, approved)).toEqual([]);
    expect(changesSinceApproval(approved, undefined)).toEqual([]);
  });

  it('marks the current steps a revision added, reworded or moved', () => {
    const changes: PlanChange[] = [
      { kind: 'added', step: 2, title: 'x' },
      { kind: 'removed', was: 3, title: 'y' },
      { kind: 'reworded', step: 3, was: 2, title: 'z', before: 'z0', fields: ['title'] },
      { kind: 'moved', step: 1, was: 4, title: 'w', before: 'w', fields: [] },
      { kind: 'list', list: 'risks' },
    ];
    expect([...revisedSteps(changes)].sort()).toEqual([
      [1, 'moved'],
      [2, 'added'],
      [3, 'reworded'],
    ]);
  });
});

describe('renderPlanChanges', () => {
  it('says what changed, one line each, titles in code spans', () => {
    const text = renderPlanChanges([
      { kind: 'added', step: 2, title: 'Test farewell' },
      { kind: 'removed', was: 3, title: 'Add a changelog entry' },
      {
        kind: 'reworded',
        step: 1,
        was: 1,
        title: 'Add farewell',
        before: 'Add a farewell function',
        fields: ['title', 'files'],
      },
      { kind: 'reworded', step: 4, was: 2, title: 'Docs', before: 'Docs', fields: ['verify'] },
      { kind: 'moved', step: 1, was: 3, title: 'Log', before: 'Log', fields: [] },
      { kind: 'moved', step: 2, was: 1, title: 'Log2', before: 'Log2', fields: ['detail'] },
      { kind: 'list', list: 'assumptions' },
    ]);
    expect(text.split('\n')).toEqual([
      '- Added step 2: `Test farewell`',
      '- Removed approved step 3: `Add a changelog entry`',
      '- Reworded step 1 `Add farewell`: changed title (was `Add a farewell function`), files',
      '- Reworded step 4 (approved as step 2) `Docs`: changed verify',
      '- Moved approved step 3 `Log` to step 1',
      '- Moved approved step 1 `Log2` to step 2; changed detail',
      '- Revised the assumptions',
    ]);
  });

  it('is empty when nothing changed', () => {
    expect(renderPlanChanges([])).toBe('');
  });

  it('keeps markup, mentions, HTML comments and backticks inert inside the code spans', () => {
    const text = renderPlanChanges([
      { kind: 'added', step: 1, title: '<!-- hide --> @team **bold** `tick`\nnext line' },
    ]);
    expect(text).not.toContain('<!--');
    expect(text).toBe('- Added step 1: ``<!\u200b-- hide --> @team **bold** `tick` next line``');
  });

  it('clips long titles and counts the changes that do not fit', () => {
    const many: PlanChange[] = Array.from({ length: 80 }, (_, i) => ({
      kind: 'added',
      step: i + 1,
      title: `${'x'.repeat(500)} ${i}`,
    }));
    const text = renderPlanChanges(many);
    expect(text.length).toBeLessThan(4_200);
    const lines = text.split('\n');
    expect(lines.at(-1)).toBe(`- and ${80 - (lines.length - 1)} more`);
    expect(lines[0]).toContain('more characters]');
    const few = renderPlanChanges(
      Array.from({ length: 40 }, (_, i) => ({ kind: 'added' as const, step: i + 1, title: 'short' })),
    );
    expect(few.split('\n')).toHaveLength(31);
    expect(few.split('\n').at(-1)).toBe('- and 10 more');
  });
});
