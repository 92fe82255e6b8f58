import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { proposedPlan } from '../../src/cli/local-planning.js';
import type { LocalTeamSetup } from '../../src/cli/local-team.js';
import { loadLastPlan, savePlan, type LocalPlan } from '../../src/cli/plan-store.js';
import { defaultPolicy, initialSnapshot } from '../../src/machine/planner-executor.js';

/** The saved plan binds everything `plangate run` takes from it, not only the plan text. */

let gitDir: string;
beforeEach(() => {
  gitDir = mkdtempSync(path.join(tmpdir(), 'plangate-store-'));
  mkdirSync(gitDir, { recursive: true });
});
afterEach(() => rmSync(gitDir, { recursive: true, force: true }));

function saved(): { plan: LocalPlan; file: string } {
  const setup = {
    repo: { root: gitDir, gitDir, git: () => Promise.resolve('') },
    planner: { model: 'p' },
    executor: { model: 'e' },
    allowedCommands: ['npm test'],
    protectedPaths: ['.github/workflows/**'],
  } as unknown as LocalTeamSetup;
  const snapshot = initialSnapshot('Add a test', defaultPolicy);
  const plan = proposedPlan(
    { setup, base: { ref: 'main', sha: 'a'.repeat(40) }, requestedBy: 'me' },
    'planner-executor',
    snapshot,
  );
  return { plan, file: savePlan(gitDir, plan) };
}

function edit(file: string, change: (record: Record<string, unknown>) => void): void {
  const record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  change(record);
  writeFileSync(file, JSON.stringify(record));
}

describe('the local plan record', () => {
  it('loads as saved', () => {
    const { plan } = saved();
    expect(loadLastPlan(gitDir)).toEqual(plan);
  });

  const edits: Record<string, (record: Record<string, unknown>) => void> = {
    'the allowed commands': (r) => void (r.allowedCommands = ['*']),
    'the protected paths': (r) => void (r.protectedPaths = []),
    'the base commit': (r) => void (r.base = { ref: 'main', sha: 'b'.repeat(40) }),
    'the machine': (r) => void (r.machine = 'executor-only'),
  };
  for (const [what, change] of Object.entries(edits)) {
    it(`refuses a record whose ${what} changed after it was made`, () => {
      const { plan, file } = saved();
      edit(file, change);
      expect(() => loadLastPlan(gitDir)).toThrow(`the saved plan ${plan.planId} was changed after it was made`);
    });
  }

  it('still loads after the fields a run itself updates change', () => {
    const { plan } = saved();
    savePlan(gitDir, { ...plan, status: 'executing', branch: 'plangate/x', approvedBy: 'me' });
    expect(loadLastPlan(gitDir)).toMatchObject({ status: 'executing', branch: 'plangate/x' });
  });
});
