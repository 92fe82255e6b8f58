import { afterEach, describe, expect, it } from 'vitest';
import { toolCall, type Reply } from '../fakes/scripted-model.js';
import { decodeRecord, hashPlan, type PlanRecord } from '../../src/record/plan-record.js';
import { planComment } from '../unit/record-fixture.js';
import { closeOpenWorlds, createWorld, type World } from './harness.js';
import { bot, botComments, commentEvent, toolResults } from './thread-helpers.js';

/**
 * A plan that says which steps need which (`after`) is approved in the order it will run, against the
 * bundled action with default inputs: the plan comment shows which steps run together, what each
 * waits for and which wait only because they may change the same files; the scope grants as many at
 * once as `parallel-steps` allows, under the plan's hash and signature; and a planner that orders a
 * step before what it needs is refused where it stages the plan.
 */

afterEach(closeOpenWorlds);

const stage = (plan: unknown, directive = 'Add the --quiet flag to src/cli.js.'): Reply =>
  toolCall('update_context', { plan, directive });

/** One step, three that need only it and touch different files, and one that needs all three. */
const fanOut = {
  steps: [
    { title: 'Add the flag', files: ['src/cli.js'], after: [] },
    { title: 'Document it', files: ['docs/quiet.md'], after: [1] },
    { title: 'Test it', files: ['test/quiet.test.js'], after: [1] },
    { title: 'Note it in the changelog', files: ['CHANGELOG.md'], after: [1] },
    { title: 'Mention it in the README', files: ['README.md'], after: [2, 3, 4] },
  ],
};

async function setup(planner: Reply[]): Promise<World> {
  const w = await createWorld({ planner, executor: [] });
  w.gh.setPermission('mona', 'maintain');
  return w;
}

/** `/plan` on a new issue, with the action's default inputs unless `inputs` names one. */
async function plan(w: World, inputs: Record<string, string> = {}): Promise<{ issue: number; body: string }> {
  const issue = w.gh.addIssue({ title: 'A quiet flag', body: 'Add --quiet.', login: 'mona' }).number;
  w.freshCheckout();
  const run = await w.runAction(commentEvent(w, issue, 'mona', '/plan add a quiet flag'), inputs);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const [body = ''] = botComments(w, issue);
  return { issue, body };
}

function recordOf(body: string): PlanRecord {
  const decoded = decodeRecord(body);
  if (!decoded.ok) throw new Error(decoded.reason);
  return decoded.record;
}

describe('the order of a plan’s steps', () => {
  it('is shown as the approval runs it, with as many at once as the scope grants, under the plan’s hash', async () => {
    const w = await setup([stage(fanOut)]);
    const { body } = await plan(w);
    expect(body).toContain('\n\n**Order:** 1 → 2, 3 and 4 together → 5\n');
    expect(body).toContain('- [ ] **2. Document it**\n  Files: `docs/quiet.md` · Waits for: step 1');
    expect(body).toContain('- [ ] **5. Mention it in the README**\n  Files: `README.md` · Waits for: steps 2, 3 and 4');
    expect(body).toContain('- [ ] **1. Add the flag**\n  Files: `src/cli.js` · Waits for: no other step');
    expect(body).toContain('- Steps at once: at most 3 (`parallel-steps`)');
    const record = recordOf(body);
    expect(record.scope?.parallelSteps).toBe(3);
    expect(record.planHash).toBe(hashPlan(record.snapshot.context, record.checks, record.scope));
    // More at once under the same plan would not be the approved plan.
    const wider = { ...record.scope!, parallelSteps: 8 };
    expect(hashPlan(record.snapshot.context, record.checks, wider)).not.toBe(record.planHash);
  });

  it('refuses an approval of a copy that lets more steps run at once, its hash recomputed and its comment re-rendered', async () => {
    const w = await setup([stage(fanOut)]);
    const { issue, body } = await plan(w);
    const genuine = recordOf(body);
    // Another workflow posting as the same bot: all eight at once, hash and comment made as plangate would.
    const { sig: _sig, ...unsigned } = genuine;
    const scope = { ...genuine.scope!, parallelSteps: 8 };
    const forged: PlanRecord = {
      ...unsigned,
      planId: 'eeeeeeee',
      scope,
      planHash: hashPlan(genuine.snapshot.context, genuine.checks, scope),
    };
    w.gh.addComment(issue, { login: bot, type: 'Bot', body: planComment(forged) });
    expect(botComments(w, issue).at(-1)).toContain('- Steps at once: at most 8 (`parallel-steps`)');
    w.freshCheckout();
    const approval = await w.runAction(commentEvent(w, issue, 'mona', '/approve eeeeeeee'));
    expect(approval.outputs.outcome).toBe('refused');
    expect(botComments(w, issue).at(-1)).toContain("is not signed with this repository's record key");
    expect(w.model.requests.filter((r) => r.model === 'executor')).toHaveLength(0);
  });

  it('follows parallel-steps, says which step waits for its files, and leaves a plan without after as it was', async () => {
    const clash = {
      steps: [
        { title: 'Add the flag', files: ['src/cli.js'], after: [] },
        { title: 'Document it', files: ['docs/quiet.md'], after: [1] },
        { title: 'Wire it into the parser', files: ['src/'], after: [] },
        { title: 'Say it somewhere', after: [1] },
      ],
    };
    const plain = {
      steps: [
        { title: 'Add the flag', files: ['src/cli.js'] },
        { title: 'Document it', files: ['docs/quiet.md'] },
      ],
    };
    const w = await setup([stage(fanOut), stage(clash), stage(plain)]);

    const two = await plan(w, { 'parallel-steps': '2' });
    expect(two.body).toContain('\n\n**Order:** 1 → 2 and 3 together → 4 → 5\n');
    expect(two.body).toContain('- Steps at once: at most 2 (`parallel-steps`)');
    expect(recordOf(two.body).scope?.parallelSteps).toBe(2);

    const waits = await plan(w);
    // src/ holds src/cli.js: 3 waits for 1 though it needs nothing of it; 4 names no files at all.
    expect(waits.body).toContain(
      [
        '**Order:** 1 → 2 and 3 together → 4',
        'Steps 1 and 3 may change the same files, so 3 waits for 1.',
        'Step 4 names no files, so it waits for 2 and 3.',
      ].join('\n'),
    );

    const before = await plan(w);
    expect(before.body).toContain(
      '- [ ] **1. Add the flag**\n  Files: `src/cli.js`\n- [ ] **2. Document it**\n  Files: `docs/quiet.md`\n',
    );
    for (const shown of ['**Order:**', 'Waits for', 'Steps at once', 'together'])
      expect(before.body).not.toContain(shown);
    expect(recordOf(before.body).scope).not.toHaveProperty('parallelSteps');
  });

  it('refuses a planner that orders a step before what it needs, naming the step, and posts only the plan it fixed', async () => {
    const loop = {
      steps: [
        { title: 'Add the flag', files: ['src/cli.js'], after: [2] },
        { title: 'Document it', files: ['docs/quiet.md'], after: [2] },
      ],
    };
    const w = await setup([stage(loop), stage(fanOut)]);
    const { body } = await plan(w);
    const refused = toolResults(w, 'planner');
    expect(refused[0]).toContain('step 1 comes first, so it can wait for no step, not step 2');
    expect(refused[0]).toContain('step 2 may only wait for earlier steps (1 to 1), not step 2');
    expect(recordOf(body).snapshot.context.plan).toEqual(fanOut);
    expect(body).toContain('**Order:** 1 → 2, 3 and 4 together → 5');
  });
});
