import { describe, expect, it } from 'vitest';
import type { ExecutionRun } from '../../src/run/execution-run.js';
import { widening } from '../../src/run/scope-widening.js';
import { destinationEntrySchema } from '../../src/scope/network-destinations.js';
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

  it('more destinations for a revision that names them, and a word on those allowed-domains does not allow', () => {
    const run = runWith(4);
    const sealed = {
      ...run,
      scope: { ...run.scope, network: ['10.0.0.2:8080'] },
      ctx: {
        settings: {
          allowedCommands: ['npm test'],
          network: 'sealed',
          allowedDestinations: ['10.0.0.2:8080', 'npm'].flatMap((e) => destinationEntrySchema.parse(e)),
        },
      },
    } as unknown as ExecutionRun;
    const revised = { steps: [...samplePlan.steps, { title: 'Install', network: ['npm', 'evil.test'] }] };
    const need = widening(sealed, at(1, revised));
    expect(need?.delta).toEqual({ network: ['registry.npmjs.org', 'registry.yarnpkg.com'] });
    expect(need?.reason).toContain('needs 2 more network destinations beyond');
    expect(need?.reason).toContain(
      "names `evil.test`, which `allowed-domains` does not allow, so no amendment can let commands reach it: add it to the workflow's `allowed-domains` first.",
    );
  });

  it('nothing under scope: report', () => {
    expect(widening(runWith(2, false), at(5))).toBeUndefined();
  });
});
