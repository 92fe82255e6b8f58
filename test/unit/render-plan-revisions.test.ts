import { describe, expect, it } from 'vitest';
import type { HistoryEntry, Plan } from '../../src/machine/fields.js';
import type { Snapshot } from '../../src/machine/types.js';
import { githubBodyLimit } from '../../src/text/limits.js';
import { renderProgressComment } from '../../src/render/progress-comment.js';
import { renderPullRequestBody } from '../../src/render/pull-request.js';
import type { RunView } from '../../src/render/run-view.js';
import { makeRecord, makeRunView, samplePlan } from './record-fixture.js';

/** A run whose planner revised the approved sample plan in a replan: step 2 reworded, step 3 added. */
const revised: Plan = {
  ...samplePlan,
  steps: [
    samplePlan.steps[0] ?? { title: '' },
    { title: 'Link it from the README and the docs', files: ['README.md', 'docs/index.md'] },
    { title: 'Mention <!-- it --> in @team CONTRIBUTING', files: ['CONTRIBUTING.md'] },
  ],
};

const cycle: HistoryEntry = {
  directive: 'Create CHANGELOG.md.',
  result: 'Created it; the docs need a link too.',
  outcome: 'replan',
};

function runWith(plan: Plan, history: HistoryEntry[] = [cycle], extra: Partial<RunView> = {}): RunView {
  const approved = makeRecord().snapshot;
  const snapshot: Snapshot = {
    ...approved,
    state: 'execute',
    iteration: history.length,
    context: { ...approved.context, plan, history, directive: 'Link it.' },
  };
  return makeRunView(snapshot, { approvedPlan: samplePlan, ...extra });
}

const section = (body: string, heading: string) =>
  body.slice(body.indexOf(heading)).split('\n\n').slice(0, 3).join('\n\n');

describe('progress comment: revisions against the approved plan', () => {
  it('lists the changes and labels the revised steps in the checklist', () => {
    const body = renderProgressComment(runWith(revised));
    expect(body).toContain('**Changes to the approved plan**');
    expect(section(body, '**Changes to the approved plan**')).toContain(
      [
        '- Reworded step 2 `Link it from the README and the docs`: changed title (was `Link it from the README`), files',
        '- Added step 3: `Mention <!\u200b-- it --> in @team CONTRIBUTING`',
      ].join('\n'),
    );
    expect(body).toContain('**Plan** (revised during the run)');
    // The first cycle is done: step 1 ticked and unlabelled, the revised ones labelled.
    expect(body).toContain('- [x] **1. Add CHANGELOG.md**');
    expect(body).toContain('- [ ] _(revised)_ **2. Link it from the README and the docs**');
    // The title is escaped as the plan comment escapes it; the label sits before it either way.
    expect(body).toContain('- [ ] _(new)_ **3. Mention ');
    // Assumptions and risks are still shown, after the steps.
    expect(body.indexOf('**Assumptions**')).toBeGreaterThan(body.indexOf('**3. Mention'));
    // The changes come before the plan, so a cut of a long plan leaves them whole.
    expect(body.indexOf('**Changes to the approved plan**')).toBeLessThan(body.indexOf('**Plan**'));
    expect(body).not.toContain('<!-- it');
  });

  it('shows no section and the plan exactly as before when the plan was not revised', () => {
    const same = renderProgressComment(runWith(samplePlan));
    expect(same).not.toContain('Changes to the approved plan');
    expect(same).not.toContain('_(revised)_');
    expect(same).toBe(renderProgressComment(runWith(samplePlan, [cycle], { approvedPlan: undefined })));
    expect(same).toContain('**Plan**\n\n- [x] **1. Add CHANGELOG.md**');
  });

  it('shows no section for a run without an approved plan', () => {
    expect(renderProgressComment(runWith(revised, [cycle], { approvedPlan: undefined }))).not.toContain(
      'Changes to the approved plan',
    );
  });

  it('labels a moved step and lists a removed one', () => {
    const body = renderProgressComment(runWith({ steps: [samplePlan.steps[1] ?? { title: '' }] }, []));
    expect(body).toContain('- Removed approved step 1: `Add CHANGELOG.md`');
    expect(body).toContain('- Revised the assumptions');
    expect(body).toContain('- [ ] **1. Link it from the README**');
    const moved = renderProgressComment(runWith({ ...samplePlan, steps: [...samplePlan.steps].reverse() }, []));
    expect(moved).toContain('- [ ] _(moved)_ **');
  });
});

describe('pull request: revisions against the approved plan', () => {
  it('has a section with the changes, before the plan as it ended', () => {
    const body = renderPullRequestBody(
      runWith(revised, [cycle, { ...cycle, outcome: 'done' }], { ended: { outcome: 'done' } }),
    );
    expect(body).toContain('## Changes to the approved plan');
    expect(body).toContain('The planner revised the plan during the run. Against the plan that was approved:');
    expect(body).toContain(
      '- Reworded step 2 `Link it from the README and the docs`: changed title (was `Link it from the README`), files',
    );
    expect(body).toContain('- Added step 3: `Mention <!\u200b-- it --> in @team CONTRIBUTING`');
    expect(body.indexOf('## Objective')).toBeLessThan(body.indexOf('## Changes to the approved plan'));
    expect(body.indexOf('## Changes to the approved plan')).toBeLessThan(body.indexOf('## Plan'));
    expect(body).toContain('- [x] **3. Mention ');
    expect(body).not.toContain('<!-- it');
  });

  it('has no section when the plan was not revised', () => {
    const body = renderPullRequestBody(runWith(samplePlan, [cycle], { ended: { outcome: 'done' } }));
    expect(body).not.toContain('Changes to the approved plan');
    expect(body).toBe(
      renderPullRequestBody(runWith(samplePlan, [cycle], { ended: { outcome: 'done' }, approvedPlan: undefined })),
    );
  });

  it('keeps the section whole and the body within the limit when a revision rewrote a huge plan', () => {
    const huge: Plan = {
      steps: Array.from({ length: 500 }, (_, i) => ({
        title: `Work item ${i} ${'z'.repeat(250)}`,
        detail: 'd'.repeat(3_000),
      })),
    };
    const body = renderPullRequestBody(runWith(huge, [cycle], { ended: { outcome: 'done' } }));
    expect(body.length).toBeLessThanOrEqual(githubBodyLimit);
    expect(body).toMatch(/- and \d+ more\n/);
    expect(body).toContain('- Removed approved step 1: `Add CHANGELOG.md`');
    const progress = renderProgressComment(runWith(huge));
    expect(progress).toMatch(/- and \d+ more\n/);
  });
});
