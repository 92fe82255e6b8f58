import { describe, expect, it } from 'vitest';
import { renderPlanText } from '../../src/cli/text-render.js';
import type { Plan } from '../../src/machine/fields.js';
import { hashPlan, type PlanRecord } from '../../src/record/plan-record.js';
import { renderOrder, renderPlan, renderPlanWithin, renderStep } from '../../src/render/plan-comment.js';
import { planOrder, waitsFor } from '../../src/render/plan-order.js';
import { renderScopeText } from '../../src/render/scope.js';
import { expectPostable, makeRecord, planComment, samplePlan, scopeOf } from './record-fixture.js';

/** One step, three that need only it and touch different files, and one that needs all three. */
const fanOut: Plan = {
  steps: [
    { title: 'Add the flag', files: ['src/cli.ts'], after: [] },
    { title: 'Document it', files: ['docs/flag.md'], after: [1] },
    { title: 'Test it', files: ['test/flag.test.ts'], after: [1] },
    { title: 'Note it in the changelog', files: ['CHANGELOG.md'], after: [1] },
    { title: 'Mention it in the README', files: ['README.md'], after: [2, 3, 4] },
  ],
  assumptions: ['The CLI parses flags with node:util.'],
};

/** A record of `plan` whose scope lets `parallelSteps` run at once, hashed as /plan hashes it. */
function graphRecord(plan: Plan, parallelSteps?: number): PlanRecord {
  const record = makeRecord({ plan });
  const scope = { ...scopeOf(plan), ...(parallelSteps !== undefined ? { parallelSteps } : {}) };
  return { ...record, scope, planHash: hashPlan(record.snapshot.context, record.checks, scope) };
}

describe('the order line', () => {
  it('says which steps run together, one batch after another, as many at once as allowed', () => {
    expect(planOrder(fanOut, 3)?.order).toBe('1 → 2, 3 and 4 together → 5');
    expect(planOrder(fanOut, 2)?.order).toBe('1 → 2 and 3 together → 4 → 5');
    expect(planOrder(fanOut, 1)?.order).toBe('1 → 2 → 3 → 4 → 5');
    expect(planOrder(fanOut, 3)?.waits).toEqual([]);
  });

  it('shows nothing for a plan without after', () => {
    expect(planOrder(samplePlan, 3)).toBeUndefined();
    expect(renderOrder(samplePlan, 3)).toBe('');
  });

  it('says in one line each why a step waits for one it does not need: the same files, or none named', () => {
    const plan: Plan = {
      steps: [
        { title: 'a', files: ['src/a.ts'], after: [] },
        { title: 'b', files: ['docs/b.md'], after: [] },
        { title: 'c', files: ['src'], after: [] },
        { title: 'd', after: [] },
      ],
    };
    expect(renderOrder(plan, 3)).toBe(
      [
        '',
        '',
        '**Order:** 1 and 2 together → 3 → 4',
        'Steps 1 and 3 may change the same files, so 3 waits for 1.',
        'Step 4 names no files, so it waits for 1 and 2.',
      ].join('\n'),
    );
    // One at a time, nothing waits for its files: nothing could run beside it anyway.
    expect(renderOrder(plan, 1)).toBe('\n\n**Order:** 1 → 2 → 3 → 4');
  });

  it('says what each step that names after waits for', () => {
    expect(waitsFor({ title: 'x' })).toBeUndefined();
    expect(waitsFor({ title: 'x', after: [] })).toBe('no other step');
    expect(waitsFor({ title: 'x', after: [1] })).toBe('step 1');
    expect(waitsFor({ title: 'x', after: [3, 1, 3] })).toBe('steps 1 and 3');
    expect(renderStep(fanOut.steps[4]!, 4)).toBe(
      '- [ ] **5. Mention it in the README**\n  Files: `README.md` · Waits for: steps 2, 3 and 4',
    );
    expect(renderStep(samplePlan.steps[1]!, 1)).toBe('- [ ] **2. Link it from the README**\n  Files: `README.md`');
  });
});

describe('the plan comment of a plan that orders its steps', () => {
  it('shows the order after the steps, with as many at once as the scope grants, and stays verifiable', () => {
    const record = graphRecord(fanOut, 3);
    const body = planComment(record);
    expect(body).toContain(
      '- [ ] **5. Mention it in the README**\n  Files: `README.md` · Waits for: steps 2, 3 and 4\n\n**Order:** 1 → 2, 3 and 4 together → 5\n\n**Assumptions**',
    );
    expect(body).toContain('- Steps at once: at most 3 (`parallel-steps`)');
    expectPostable(body, record);
  });

  it('shows one step at a time where the scope grants no more, or says nothing of it', () => {
    expect(planComment(graphRecord(fanOut, 1))).toContain('**Order:** 1 → 2 → 3 → 4 → 5');
    const unset = planComment(graphRecord(fanOut));
    expect(unset).toContain('**Order:** 1 → 2 → 3 → 4 → 5');
    expect(unset).not.toContain('Steps at once');
  });

  it('renders a plan without after exactly as before: no order, no waits', () => {
    const body = planComment(makeRecord());
    expect(body).not.toContain('**Order:**');
    expect(body).not.toContain('Waits for');
    expect(renderPlan(samplePlan)).toBe(renderPlan(samplePlan, 0, renderOrder(samplePlan, 3)));
  });

  it('keeps the order whole when a long plan loses steps from its end', () => {
    const long: Plan = {
      steps: Array.from({ length: 40 }, (_, i) => ({
        title: `Step ${i + 1} `.padEnd(200, 'x'),
        files: [`src/f${i + 1}.ts`],
        after: i === 0 ? [] : [1],
      })),
    };
    const order = renderOrder(long, 3);
    const cut = renderPlanWithin(long, 3_000, (shown, total) => `${shown} of ${total}`, 0, order);
    expect(cut.length).toBeLessThanOrEqual(3_000);
    expect(cut).toContain(order);
    expect(cut).toMatch(/> \d+ of 40/);
  });
});

describe('the terminal’s plan', () => {
  it('shows what each step waits for and the order, one step at a time unless told otherwise', () => {
    const text = renderPlanText({ steps: fanOut.steps.slice(0, 3) });
    expect(text).toBe(
      [
        '  1. Add the flag',
        '     Files: src/cli.ts',
        '     Waits for: no other step',
        '  2. Document it',
        '     Files: docs/flag.md',
        '     Waits for: step 1',
        '  3. Test it',
        '     Files: test/flag.test.ts',
        '     Waits for: step 1',
        '',
        'Order: 1 → 2 → 3',
      ].join('\n'),
    );
    expect(renderPlanText(fanOut, 3)).toContain('\nOrder: 1 → 2, 3 and 4 together → 5\n');
  });

  it('says the local scope runs one step at a time', () => {
    expect(renderScopeText({ ...scopeOf(fanOut), parallelSteps: 1 })).toContain('\n  steps at once: one at a time\n');
    expect(renderScopeText(scopeOf(fanOut))).not.toContain('steps at once');
  });
});
