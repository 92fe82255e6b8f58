import * as core from '@actions/core';
import { hasRole, type RepoRole } from '../config/permissions.js';
import type { CommandSource } from './command.js';
import type { Thread } from '../github/thread.js';
import { renderRefusal } from '../render/refusal.js';
import type { FlowResult } from './run-context.js';

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
