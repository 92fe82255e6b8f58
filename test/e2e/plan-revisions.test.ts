import { afterEach, describe, expect, it } from 'vitest';
import { toolCall } from '../fakes/scripted-model.js';
import { closeOpenWorlds, createWorld } from './harness.js';
import { botComments, commentEvent } from './thread-helpers.js';
import { farewellPlan, farewellThenReadme } from '../fakes/farewell-change.js';

/**
 * A plan revised during execution, against the bundled action: the executor hands control back
 * with `replan`, the planner stages a revised plan (which needs paths the approval did not name, so
 * a maintainer approves it as an amendment), and both the progress comment and the pull request
 * show the revision against the plan the maintainer approved.
 */

afterEach(closeOpenWorlds);

const approvedPlan = farewellPlan;

// Step 2 reworded (title and files), step 3 added; step 1 as approved.
const revisedPlan = {
  ...approvedPlan,
  steps: [
    approvedPlan.steps[0],
    { title: 'Document it in the README API section', files: ['README.md', 'docs/api.md'] },
    { title: 'Mention farewell in NOTES.md', files: ['NOTES.md'] },
  ],
};

describe('a plan revised during execution', () => {
  it('shows the reworded and the added step against the approved plan in the pull request and the progress comment', async () => {
    const world = await createWorld({
      planner: [
        toolCall('update_context', { plan: approvedPlan, directive: 'Append farewell to src/greet.js.' }),
        // replan, in the approve run: the evidence makes the planner revise the plan.
        toolCall('update_context', {
          plan: revisedPlan,
          directive: 'Add an "API" section to README.md listing greet and farewell.',
        }),
        toolCall('update_context', { summary: 'Two cycles: code, then docs; the plan grew a notes step.' }),
      ],
      executor: farewellThenReadme('README has no API section.'),
    });
    world.gh.setPermission('mona', 'write');
    const issue = world.gh.addIssue({ title: 'Say goodbye', login: 'mona' }).number;

    world.freshCheckout();
    const planned = await world.runAction(
      commentEvent(world, issue, 'mona', '/plan Add a farewell function\nKeep greet as it is.'),
    );
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    const planId = planned.outputs['plan-id'];

    world.freshCheckout();
    const stopped = await world.runAction(commentEvent(world, issue, 'mona', `/approve ${planId}`));
    expect(stopped.code, stopped.stdout + stopped.stderr).toBe(0);
    // The revision names paths the approval does not (docs/api.md, NOTES.md): the run asks for them first.
    expect(stopped.outputs.outcome).toBe('amendment');
    const amendment = botComments(world, issue).find((c) => c.includes('### 📐 Amendment')) ?? '';
    expect(amendment).toContain('- Changes to: `docs/api.md`, `NOTES.md`');
    const amendmentId = /### 📐 Amendment `([0-9a-f]{8})`/.exec(amendment)?.[1] ?? '';

    world.freshCheckout();
    const approved = await world.runAction(commentEvent(world, issue, 'mona', `/approve ${amendmentId}`));
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    expect(approved.outputs.outcome).toBe('done');

    const reworded =
      '- Reworded step 2 `Document it in the README API section`: changed title (was `Document it`), files';
    const added = '- Added step 3: `Mention farewell in NOTES.md`';

    const body = world.gh.pulls()[0]?.body ?? '';
    expect(body).toContain('## Changes to the approved plan');
    expect(body).toContain(`${reworded}\n${added}`);
    // Step 1 is as approved, so it is not listed.
    expect(body).not.toContain('`Add a farewell function`');
    // The plan section shows the plan as it ended.
    expect(body).toContain('**3. Mention farewell in NOTES.md**');
    expect(body.indexOf('## Changes to the approved plan')).toBeLessThan(body.indexOf('## Plan'));

    const progress = botComments(world, issue).find((c) => c.includes('<!-- plangate:progress '));
    expect(progress).toBeDefined();
    expect(progress).toContain('**Changes to the approved plan**');
    expect(progress).toContain(`${reworded}\n${added}`);
    expect(progress).toContain('**Plan** (revised during the run)');
    expect(progress).toContain('- [x] **1. Add a farewell function**');
    expect(progress).toContain('- [x] _(revised)_ **2. Document it in the README API section**');
    expect(progress).toContain('- [x] _(new)_ **3. Mention farewell in NOTES.md**');

    // The plan comment still shows the plan that was approved, unrevised.
    const planComment = botComments(world, issue).find((c) => c.includes('<!-- plangate:plan '));
    expect(planComment).toContain('**2. Document it**');
    expect(planComment).not.toContain('Mention farewell');
  });
});
