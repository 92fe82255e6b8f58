import { toolCall, type Reply } from '../fakes/scripted-model.js';
import { createWorld, type ActionRun, type World } from './harness.js';
import { botComments, commentEvent } from './thread-helpers.js';

/**
 * The small scenario the command, reliability and provider-fault suites share: on an issue asking for
 * two notes, a maintainer (mona) plans and approves; the planner stages a two-step plan and the
 * executor writes notes/one.md, then notes/two.md.
 */

const plan = {
  steps: [
    { title: 'Write the first note', files: ['notes/one.md'] },
    { title: 'Write the second note', files: ['notes/two.md'] },
  ],
};

/** The planner's staged plan and the directive for cycle 1. */
export const stagePlan = toolCall('update_context', { plan, directive: 'Write notes/one.md.' });

/** The planner's summary after the run. */
export const summary = toolCall('update_context', { summary: 'Wrote the notes.' });

/** The executor's cycle 1: notes/one.md written, reported with `outcome`. */
export const firstNote = (outcome: 'done' | 'replan'): Reply[] => [
  toolCall('write_file', { path: 'notes/one.md', content: 'one\n' }),
  toolCall('update_context', { result: 'Wrote notes/one.md.', outcome }),
];

/** The plan comments on the issue (the bot's comments holding a plan record), oldest first. */
export const planComments = (w: World, issue: number) =>
  botComments(w, issue).filter((b) => b.includes('<!-- plangate:record v1'));

/** A world scripted with `script`, and the issue, where mona may maintain. */
export async function setup(script: Record<string, Reply[]>): Promise<{ w: World; issue: number }> {
  const world = await createWorld(script);
  world.gh.setPermission('mona', 'maintain');
  const issue = world.gh.addIssue({ title: 'Notes', body: 'Write two notes.', login: 'mona' }).number;
  return { w: world, issue };
}

/** `login` comments `body` on the issue, and the action runs on the event in a fresh checkout. */
export async function run(
  w: World,
  issue: number,
  body: string,
  inputs: Record<string, string> = {},
  login = 'mona',
): Promise<ActionRun> {
  w.freshCheckout();
  return w.runAction(commentEvent(w, issue, login, body), inputs);
}
