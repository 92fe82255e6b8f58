import * as core from '@actions/core';
import type { Command } from './command.js';
import { failureMessage } from '../github/errors.js';
import { modelFailureOf } from '../models/model-error.js';
import { errorMessage } from '../text/error-message.js';
import { SettingsError } from '../config/settings-error.js';
import { renderFailure } from '../render/failure.js';
import { commandText } from '../text/comment-command.js';
import type { FlowResult, RunContext } from '../run/run-context.js';
import { answerFlow } from '../commands/answer.js';
import { approveFlow } from '../commands/approve.js';
import { cancelFlow } from '../commands/cancel.js';
import { helpFlow } from '../commands/help.js';
import { maintainFlow } from '../commands/maintain.js';
import { planFlow } from '../commands/plan.js';
import { reviseFlow } from '../commands/revise.js';
import { statusFlow } from '../commands/status.js';

/**
 * From a parsed command to the step's result: the command's flow, the action's outputs, and a
 * failure said on the thread, so it is never silent. main.ts owns the one setFailed; this answers
 * the message it fails with.
 */
export type ThreadCommand = Exclude<Command, { kind: 'ignore' | 'maintain' }>;

/**
 * Runs the command and sets the outputs. Answers why the step fails when the flow says it failed;
 * a thrown error is reported on the thread (for thread commands) and thrown on.
 */
export async function carryOut(
  ctx: RunContext,
  command: Exclude<Command, { kind: 'ignore' }>,
): Promise<string | undefined> {
  if (command.kind === 'maintain') {
    const result = await maintainFlow(ctx, command.trigger);
    setOutputs(result);
    return result.outcome === 'failed'
      ? 'plangate: one or more tasks failed; the job summary says which and why.'
      : undefined;
  }
  let result: FlowResult;
  try {
    result = await dispatch(ctx, command);
  } catch (error) {
    await reportFailure(ctx, command, error, true);
    throw error;
  }
  setOutputs(result);
  if (result.outcome !== 'failed') return undefined;
  return result.failure ?? `plangate: the ${command.kind} run failed; see the comment on #${command.thread.number}.`;
}

/** The flow of each command given on a thread. */
export function dispatch(ctx: RunContext, command: ThreadCommand): Promise<FlowResult> {
  switch (command.kind) {
    case 'plan':
      return planFlow(ctx, command);
    case 'approve':
      return approveFlow(ctx, command);
    case 'revise':
      return reviseFlow(ctx, command);
    case 'answer':
      return answerFlow(ctx, command);
    case 'status':
      return statusFlow(ctx, command);
    case 'cancel':
      return cancelFlow(ctx, command);
    case 'help':
      return helpFlow(ctx, command);
  }
}

/**
 * Tells the thread that a command failed, with a 😕 on the command, so a failure is never silent;
 * best effort. Also used for failures before the flow starts (a setting to fix, a failed fetch).
 */
export async function reportFailure(
  ctx: Pick<RunContext, 'thread' | 'runUrl'>,
  command: ThreadCommand,
  error: unknown,
  started = false,
): Promise<void> {
  // A model that could not be reached is no fault of the command: the reply says the cause and the fix.
  const model = modelFailureOf(error);
  const what = model ? errorMessage(error) : failureMessage(error);
  const fix = error instanceof SettingsError ? 'Fix it, then post the command again.' : undefined;
  try {
    await ctx.thread.postComment(
      command.thread.number,
      renderFailure({
        author: command.author,
        command: commandText(command.kind, command.prefix),
        what,
        fix,
        runUrl: ctx.runUrl,
        started,
        stopped: model !== undefined,
      }),
    );
    await ctx.thread.react(command.commentId, 'confused', command.origin);
  } catch (reportError) {
    core.warning(`Could not report the failure on the thread: ${failureMessage(reportError)}`);
  }
}

/** The action's outputs (action.yml) from what the flow reports. */
export function setOutputs(result: FlowResult): void {
  core.setOutput('outcome', result.outcome);
  if (result.planId) core.setOutput('plan-id', result.planId);
  if (result.branch) core.setOutput('branch', result.branch);
  if (result.prNumber !== undefined) core.setOutput('pr-number', String(result.prNumber));
  if (result.prUrl) core.setOutput('pr-url', result.prUrl);
  if (result.usage) {
    core.setOutput('cost-usd', result.usage.costUsd === null ? '' : result.usage.costUsd.toFixed(6));
    core.setOutput('prompt-tokens', String(result.usage.promptTokens));
    core.setOutput('cached-tokens', String(result.usage.cachedTokens));
    core.setOutput('completion-tokens', String(result.usage.completionTokens));
  }
}
