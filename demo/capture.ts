/**
 * Plays the demo's story without narrating it and answers the Markdown plangate posted: the plan
 * comment, the progress comment and the pull request's body, as the GitHub emulator recorded them.
 * scripts/screenshots.mjs renders these into the pictures of the docs and checks the pictures are
 * still what plangate posts.
 *
 * Everything in them is fixed by the script but two things: the sample repository's commit ids,
 * made fixed here by fixed commit dates (the plan comment names its base commit), and the elapsed
 * time in the progress comment, which the check leaves out.
 */
import { createWorld } from '../test/e2e/harness.js';
import * as scenario from './scenario.js';

export interface DemoPosts {
  'plan-comment': string;
  'progress-comment': string;
  'pull-request-body': string;
}

const fixedDate = '2026-01-05T09:00:00Z';

export async function captureDemoPosts(): Promise<DemoPosts> {
  // The harness's git reads these from the process environment; the action's runs do not see them.
  process.env.GIT_AUTHOR_DATE = fixedDate;
  process.env.GIT_COMMITTER_DATE = fixedDate;
  const world = await createWorld(scenario.script);
  try {
    const issue = scenario.openDemoIssue(world);
    world.freshCheckout();
    const planned = await world.runAction(
      scenario.commentEvent(world, issue, 'mona', `/plan ${scenario.objective}`),
      scenario.demoInputs,
    );
    const planId = planned.outputs['plan-id'];
    if (!planId) throw new Error(`the demo posted no plan:\n${planned.stdout}${planned.stderr}`);
    const planComment = scenario.lastCommentWith(world, issue, 'plangate:record');
    world.freshCheckout();
    const approved = await world.runAction(
      scenario.commentEvent(world, issue, 'mona', `/approve ${planId}`),
      scenario.demoInputs,
    );
    if (approved.outputs.outcome !== 'done')
      throw new Error(`the demo's approval ended ${approved.outputs.outcome}:\n${approved.stdout}${approved.stderr}`);
    const progressComment = scenario.lastCommentWith(world, issue, 'plangate:progress');
    const pullRequestBody = world.gh.pulls()[0]?.body;
    if (!planComment || !progressComment || !pullRequestBody)
      throw new Error('the demo ran, but its plan comment, progress comment or pull request is missing');
    return {
      'plan-comment': planComment,
      'progress-comment': progressComment,
      'pull-request-body': pullRequestBody,
    };
  } finally {
    await world.close();
  }
}
