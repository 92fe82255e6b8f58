import { afterEach, describe, expect, it } from 'vitest';
import { toolCall } from '../fakes/scripted-model.js';
import { closeOpenWorlds, createWorld, git, type World } from './harness.js';
import { commentEvent as comment } from './thread-helpers.js';

/**
 * The pull request a reviewer wants, through the bundled action: draft or ready, labels, the
 * approver asked to review, trailers on every commit, the diff-stat and the run's path as Mermaid.
 */

afterEach(closeOpenWorlds);

const plan = {
  steps: [
    { title: 'Add farewell', files: ['src/farewell.js'] },
    { title: 'Document it', files: ['README.md'] },
  ],
};

/** Two cycles (replan, then done), so the branch holds two commits and the path a loop. */
function twoCycleScript() {
  return {
    planner: [
      toolCall('update_context', { plan, directive: 'Write src/farewell.js exporting farewell(name).' }),
      toolCall('update_context', { directive: 'Add a farewell line to README.md.' }),
      toolCall('update_context', { summary: 'Added farewell and documented it.' }),
    ],
    executor: [
      toolCall('write_file', { path: 'src/farewell.js', content: "export const farewell = (n) => 'Goodbye ' + n;\n" }),
      toolCall('update_context', { result: 'Wrote src/farewell.js; README still says nothing.', outcome: 'replan' }),
      toolCall('write_file', { path: 'README.md', content: '# sample\n\nfarewell(name) says goodbye.\n' }),
      toolCall('update_context', { result: 'Documented farewell in README.md.', outcome: 'done' }),
    ],
  };
}

async function planAndApprove(w: World, approver: string, inputs: Record<string, string>) {
  const issue = w.gh.addIssue({ title: 'Say goodbye', body: 'We never say goodbye.', login: 'mona' }).number;
  w.freshCheckout();
  const planned = await w.runAction(comment(w, issue, 'mona', '/plan Add a farewell function'), inputs);
  expect(planned.code, planned.stdout + planned.stderr).toBe(0);
  const planId = planned.outputs['plan-id'] ?? '';
  w.freshCheckout();
  const approved = await w.runAction(comment(w, issue, approver, `/approve ${planId}`), inputs);
  expect(approved.code, approved.stdout + approved.stderr).toBe(0);
  expect(approved.outputs.outcome).toBe('done');
  return { issue, planId, approved };
}

describe('the pull request a reviewer wants', () => {
  it('puts trailers on every commit, labels the draft PR, asks the approver to review and draws the path', async () => {
    const world = await createWorld(twoCycleScript());
    world.gh.setPermission('mona', 'write');
    world.gh.setPermission('octocat', 'maintain');
    const { issue, planId, approved } = await planAndApprove(world, 'octocat', {
      'pr-labels': 'plangate, needs review\nbot',
      'pr-draft': 'true',
    });

    // Every commit plangate made on the branch carries the three trailers.
    const branch = `refs/heads/plangate/${issue}-${planId}`;
    const shas = git(world.origin, 'rev-list', `refs/heads/main..${branch}`).split('\n').filter(Boolean);
    // The start commit its draft pull request needed, and the two cycles.
    expect(shas).toHaveLength(3);
    for (const sha of shas) {
      const trailers = git(world.origin, 'log', '-1', '--format=%(trailers:only,unfold)', sha)
        .split('\n')
        .filter(Boolean);
      expect(trailers).toEqual([
        `Plangate-Plan: ${planId}`,
        'Approved-by: octocat',
        'Co-authored-by: mona <mona@users.noreply.github.com>',
      ]);
    }

    const [pull] = world.gh.pulls();
    expect(pull?.draft).toBe(true);
    expect(pull?.labels.map((l) => l.name)).toEqual(['plangate', 'needs review', 'bot']);
    expect(pull?.requested_reviewers?.map((u) => u.login)).toEqual(['octocat']);

    const body = pull?.body ?? '';
    expect(body).toContain('## Changes');
    expect(body).toMatch(/\nREADME\.md\s+\| \d+ [+-]+\n/);
    expect(body).toMatch(/\nsrc\/farewell\.js \| 1 \+\n/);
    expect(body).toContain('2 files changed');
    const mermaid = /```mermaid\nflowchart LR\n[\s\S]*?\n```/;
    const path = body.match(mermaid)?.[0] ?? '';
    expect(path).toContain('n1 -- "cycle 1: next step" --> n2["next step"]');
    expect(path).toContain('n3 -- "cycle 2: done" --> n4("finish")');
    expect(path).toContain('n4 --> n5(["done"])');
    // The job summary draws the same path.
    expect(approved.summary.match(mermaid)?.[0]).toBe(path);
  });

  it('opens a ready, unlabelled pull request by default and asks the approver who also asked for the plan', async () => {
    const world = await createWorld(twoCycleScript());
    world.gh.setPermission('mona', 'write');
    const { approved } = await planAndApprove(world, 'mona', {});
    const [pull] = world.gh.pulls();
    expect(pull?.draft).toBe(false);
    expect(pull?.labels).toEqual([]);
    expect(pull?.requested_reviewers?.map((u) => u.login)).toEqual(['mona']);
    expect(approved.stdout).not.toContain('Could not request a review');
  });

  it('warns but still finishes when GitHub refuses the review request and the labels', async () => {
    const world = await createWorld(twoCycleScript());
    world.gh.setPermission('mona', 'write');
    world.gh.failNext('POST', /\/pulls\/\d+\/requested_reviewers$/, 422);
    world.gh.failNext('POST', /\/issues\/\d+\/labels$/, 422);
    const { approved } = await planAndApprove(world, 'mona', { 'pr-labels': 'plangate' });
    expect(approved.outputs['pr-number']).toBeDefined();
    expect(approved.stdout).toContain('::warning::Could not request a review of pull request');
    expect(approved.stdout).toContain('::warning::Could not label pull request');
    const [pull] = world.gh.pulls();
    expect(pull?.requested_reviewers).toEqual([]);
  });
});
