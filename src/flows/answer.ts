import { plannerExecutorMachine } from '../machine/planner-executor.js';
import { reduce } from '../machine/reducer.js';
import { hasRole } from '../permissions.js';
import type { CommandOf, FlowResult, RunContext } from '../run-context.js';
import { stripHidden } from '../untrusted.js';
import { commandOnLivePlan } from './command-comment.js';
import { planAndPublish } from './planning.js';
import { refuse } from './refuse.js';

/**
 * `/answer <text>`: answers the planner's question. Planning resumes from the recorded snapshot with
 * the answer in the planner's context, at the same base commit the question was asked about.
 */
export async function answerFlow(ctx: RunContext, command: CommandOf<'answer'>): Promise<FlowResult> {
  const { settings, thread } = ctx;
  const no = (reason: string, fix: string) => refuse(thread, command, '/answer', reason, fix);
  const live = await commandOnLivePlan(ctx, command, '/answer');
  if ('refused' in live) return live.refused;
  const { record, comments } = live;
  // The requester may answer their own question; anyone else needs the trigger permission.
  if (command.author !== record.requestedBy) {
    const role = await thread.permissionOf(command.author);
    if (!hasRole(role, settings.triggerPermission)) {
      return no(
        `@${command.author} has ${role} permission on this repository; /answer needs ${settings.triggerPermission} or higher, or the requester @${record.requestedBy}.`,
        `Ask @${record.requestedBy} or a maintainer to answer.`,
      );
    }
  }
  if (record.status !== 'asking') {
    return no('the planner has no open question on this thread.', 'Use `/revise <feedback>` to change a plan, or `/plan` for a new one.');
  }
  const text = stripHidden(command.text).trim();
  if (!text) return no('the answer is empty.', 'Write it after the command: `/answer <your answer>`.');
  if (!settings.planner.apiKey) {
    return no('no API key is configured for the planner model.', 'Set the `api-key` input (or `planner-api-key`) from a repository secret.');
  }
  await thread.react(command.commentId, 'eyes');
  const snapshot = reduce(plannerExecutorMachine, record.snapshot, { type: 'answer', text });
  return planAndPublish(ctx, { source: command, requestedBy: record.requestedBy, snapshot, base: record.base, spent: record.usage, comments });
}
