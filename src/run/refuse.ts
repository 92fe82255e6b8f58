import * as core from '@actions/core';
import { hasRole, type RepoRole } from '../config/permissions.js';
import type { CommandSource } from './command.js';
import type { Thread } from '../github/thread.js';
import { renderRefusal } from '../render/refusal.js';
import { renderFailure } from '../render/failure.js';
import type { FlowResult, RunContext } from './run-context.js';
import { emptySecretHint } from './empty-secret.js';

/**
 * Answers a command that will not be carried out: a reply saying why and what to do, and a 👎 on
 * the command. Shared by every flow, so every refusal reads the same.
 */
export async function refuse(
  thread: Thread,
  source: CommandSource,
  command: string,
  reason: string,
  fix: string,
): Promise<FlowResult> {
  core.notice(`Refused ${command} by @${source.author}: ${reason}`);
  await thread.postComment(source.thread.number, renderRefusal(source.author, command, reason, fix));
  await thread.react(source.commentId, '-1', source.origin).catch(() => undefined);
  return { outcome: 'refused' };
}

/**
 * Refuses a command whose author lacks `required` on this repository, read from the permission
 * API. Otherwise returns the author's role, which callers reuse instead of asking again.
 */
export async function refuseUnlessRole(
  thread: Thread,
  source: CommandSource,
  command: string,
  required: RepoRole,
  fix: string,
): Promise<{ refused: FlowResult } | { role: RepoRole }> {
  const role = await thread.permissionOf(source.author);
  if (hasRole(role, required)) return { role };
  const reason = `@${source.author} has ${role} permission on this repository; ${command} needs ${required} or higher.`;
  return { refused: await refuse(thread, source, command, reason, fix) };
}

/**
 * Answers a command that cannot run because plangate is configured wrong (say, no API key for the
 * model the command needs): a reply saying what to set, a 😕 on the command, and a failed step, so
 * the person who typed the command and the one who reads the workflow run both see it.
 */
export async function failForConfiguration(
  ctx: Pick<RunContext, 'thread' | 'runUrl'>,
  source: CommandSource,
  command: string,
  what: string,
  fix: string,
): Promise<FlowResult> {
  const { thread, runUrl } = ctx;
  await thread.postComment(source.thread.number, renderFailure({ author: source.author, command, what, fix, runUrl }));
  await thread.react(source.commentId, 'confused').catch(() => undefined);
  return { outcome: 'failed', failure: `plangate: ${command} could not run: ${what} ${fix}` };
}

/**
 * Fails a command whose models have no API key: a configuration failure (see failForConfiguration),
 * checked right after the author's permission so that nothing else is said or started first.
 */
export async function failUnlessKeys(
  ctx: Pick<RunContext, 'thread' | 'runUrl' | 'settings'>,
  source: CommandSource,
  command: string,
  roles: readonly ('planner' | 'executor')[],
): Promise<FlowResult | undefined> {
  const missing = roles.filter((role) => !ctx.settings[role].apiKey);
  if (missing.length === 0) return undefined;
  const inputs = missing.map((role) => `\`${role}-api-key\``).join(' and ');
  return failForConfiguration(
    ctx,
    source,
    command,
    `no API key is configured for the ${missing.join(' and the ')} model.`,
    `Set the \`api-key\` input (or ${inputs}) from a repository secret. ${emptySecretHint()}`,
  );
}
