import { expect } from 'vitest';
import type { Plan } from '../../src/machine/fields.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../../src/machine/planner-executor.js';
import { reduce } from '../../src/machine/reducer.js';
import type { Snapshot } from '../../src/machine/types.js';
import { addTurn, emptyUsage, summarizeUsage } from '../../src/models/usage.js';
import {
  decodeRecord,
  encodeRecord,
  hashPlan,
  hashIssue,
  planIdFor,
  type PlanRecord,
} from '../../src/record/plan-record.js';
import { verifyPlanComment } from '../../src/record/verify.js';
import { renderPlanComment } from '../../src/render/plan-comment.js';
import type { RunView } from '../../src/render/run-view.js';
import type { ApprovedScope } from '../../src/scope/approved-scope.js';
import { githubBodyLimit } from '../../src/text/limits.js';

/**
 * Plan records as the /plan flow builds them: the snapshot comes from the real machine after the
 * planner staged its plan, and the hash binds the whole context.
 */

export const samplePlan: Plan = {
  steps: [
    {
      title: 'Add CHANGELOG.md',
      detail: 'Keep a Changelog format.\nList 0.1.0.',
      files: ['CHANGELOG.md'],
      verify: 'npm test',
    },
    { title: 'Link it from the README', files: ['README.md'] },
  ],
  assumptions: ['The project follows semver.'],
  risks: ['None worth naming.'],
};

/**
 * What an approval of `plan` allows, as /plan derives it: its files and allowed verify commands,
 * and a budget no fixture run comes near.
 */
export function scopeOf(plan: Plan): ApprovedScope {
  return {
    paths: [...new Set(plan.steps.flatMap((step) => step.files ?? []))],
    commands: [...new Set(plan.steps.flatMap((step) => (step.verify ? [step.verify] : [])))],
    budget: { tokens: 1_000_000, cycles: 10 },
  };
}

export interface RecordInput {
  objective?: string;
  plan?: Plan;
  directive?: string;
  overrides?: Partial<PlanRecord>;
}

export function makeRecord({
  objective = 'Add a CHANGELOG',
  plan = samplePlan,
  directive = 'Create CHANGELOG.md.',
  overrides = {},
}: RecordInput = {}): PlanRecord {
  const scope = scopeOf(plan);
  const planned = reduce(plannerExecutorMachine, initialSnapshot(objective, defaultPolicy), {
    type: 'stage',
    agent: 'planner',
    fields: { plan, directive },
  });
  return {
    v: 1,
    planId: planIdFor('octo/widgets', 7, 9001),
    planHash: hashPlan(planned.context, undefined, scope),
    scope,
    status: 'proposed',
    issue: 7,
    requestedBy: 'maintainer',
    commandCommentId: 9001,
    base: { ref: 'main', sha: 'a'.repeat(40) },
    models: { planner: 'gpt-4.1', executor: 'gpt-4.1-mini' },
    policy: 'plan-for-approval',
    machine: 'planner-executor',
    planningCostUsd: 0.0027,
    issueHash: hashIssue('Add a CHANGELOG', 'We have none.'),
    snapshot: planned,
    usage: addTurn(emptyUsage(), 'planner', 'gpt-4.1', {
      promptTokens: 1200,
      cachedTokens: 1000,
      completionTokens: 300,
    }),
    ...overrides,
  };
}

/** A run of plan 0a1b2c3d on issue 7 as the renderers see it; tests override what they look at. */
export function makeRunView(snapshot: Snapshot, extra: Partial<RunView> = {}): RunView {
  return {
    planId: '0a1b2c3d',
    issue: 7,
    isPullRequest: false,
    approvedBy: 'alice',
    requestedBy: 'maintainer',
    branch: 'plangate/7-0a1b2c3d',
    baseRef: 'main',
    runUrl: 'http://127.0.0.1/run/1',
    snapshot,
    usage: summarizeUsage(
      addTurn(emptyUsage(), 'planner', 'gpt-4.1', { promptTokens: 1000, cachedTokens: 0, completionTokens: 100 }),
    ),
    ...extra,
  };
}

/** A record's plan comment as plangate posts it (unsigned): the shown plan with the record at its end. */
export function planComment(record: PlanRecord): string {
  return renderPlanComment(record, encodeRecord(record));
}

/** A plan comment GitHub would take, carrying `record` intact and passing the bot's own verification. */
export function expectPostable(body: string, record: PlanRecord): void {
  expect(body.length).toBeLessThanOrEqual(githubBodyLimit);
  expect(decodeRecord(body)).toEqual({ ok: true, record });
  const verdict = verifyPlanComment(
    { id: 1, nodeId: 'IC_1', body, author: 'bot', url: '', createdAt: '', updatedAt: '' },
    'bot',
    planComment,
  );
  expect(verdict.ok).toBe(true);
}
