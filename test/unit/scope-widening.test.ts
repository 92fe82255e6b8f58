import { describe, expect, it } from 'vitest';
import type { ExecutionRun } from '../../src/run/execution-run.js';
import { widening } from '../../src/run/scope-widening.js';
import { makeRecord, samplePlan } from './record-fixture.js';

/** The parts of a run `widening` reads. */
function runWith(cycles: number, enforced = true): ExecutionRun {
  const record = makeRecord();
  return {
    record,
    scope: { ...record.scope!, budget: { ...record.scope!.budget, cycles } },
    scopeEnforced: enforced,
    ctx: { settings: { allowedCommands: ['npm test'] } },
  } as unknown as ExecutionRun;
}

describe('what a run needs before its next cycle', () => {
  const at = (iteration: number, plan = samplePlan) => {
    const { snapshot } = makeRecord();
    return { ...snapshot, state: 'execute' as const, iteration, context: { ...snapshot.context, plan } };
  };

  it('nothing while the plan fits and cycles are left', () => {
    expect(widening(runWith(2), at(1))).toBeUndefined();
  });

  it('more cycles once the approved ones are spent', () => {
    const need = widening(runWith(2), at(2));
    expect(need?.reason).toContain('the approved budget of 2 cycles is spent');
    expect(need?.delta.budget).toBeDefined();
  });

  it('more paths for a revision that names them, before cycles', () => {
    const revised = { steps: [...samplePlan.steps, { title: 'And the licence', files: ['LICENSE'] }] };
    expect(widening(runWith(2), at(2, revised))?.delta).toEqual({ paths: ['LICENSE'] });
  });

  it('nothing under scope: report', () => {
    expect(widening(runWith(2, false), at(5))).toBeUndefined();
  });
});
