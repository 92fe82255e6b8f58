import * as core from '@actions/core';
import { canConfigure, hasRole, type RepoRole } from '../config/permissions.js';
import type { CommandSource } from './command.js';
import type { Thread } from '../github/thread.js';
import { renderNotAllowed, renderRefusal } from '../render/refusal.js';
import { renderConfigurationFailure, renderFailure } from '../render/failure.js';
import { spellCommands } from '../text/comment-command.js';
import type { FlowResult, RunContext } from './run-context.js';
import { emptySecretHint } from './empty-secret.js';

/** The commands a text names, as they are typed where `source` was written (`command-prefix`). */
const spelled = (source: Pick<CommandSource, 'prefix'>, text: string) => spellCommands(text, source.prefix);

/** A command's name (`/plan`) as it is typed where `source` was written (`/plangate plan`). */
const spelledName = (source: Pick<CommandSource, 'prefix'>, command: string) =>
  spelled(source, `\`${command}\``).slice(1, -1);

/**
 * Answers a command that will not be carried out: a reply saying why and what to do, and a 👎 on
 * the command. Shared by every flow, so every refusal reads the same, with the commands it names
 * spelled as this repository types them.
 */
export async function refuse(
  thread: Thread,
  source: CommandSource,
  command: string,
  reason: string,
  fix: string,
): Promise<FlowResult> {
  core.notice(`Refused ${command} by @${source.author}: ${reason}`);
  await thread.postComment(
    source.thread.number,
    renderRefusal(source.author, spelledName(source, command), spelled(source, reason), spelled(source, fix)),
  );
  await thread.react(source.commentId, '-1', source.origin).catch(() => undefined);
  return { outcome: 'refused' };
}

/**
 * Refuses a command whose author lacks `required` on this repository, read from the permission
 * API. Otherwise returns the author's role, which callers reuse instead of asking again. The reply
 * speaks to the person refused, who cannot change who may do what: one sentence that they may not.
 * Which permission it takes and which input sets it (`setting`) go to the job log, for whoever can.
 */
export async function refuseUnlessRole(
  thread: Thread,
  source: CommandSource,
  command: string,
  required: RepoRole,
  setting?: string,
): Promise<{ refused: FlowResult } | { role: RepoRole }> {
  const role = await thread.permissionOf(source.author);
  if (hasRole(role, required)) return { role };
  const where = setting ? ` (the \`${setting}\` input)` : '';
  core.notice(
    `Refused ${command} by @${source.author}: @${source.author} has ${role} permission on this repository; ${command} needs ${required} or higher${where}.`,
  );
  await thread.postComment(source.thread.number, renderNotAllowed(source.author, spelledName(source, command)));
  await thread.react(source.commentId, '-1', source.origin).catch(() => undefined);
  return { refused: { outcome: 'refused' } };
}

/**
 * Answers a command that cannot run because plangate is configured wrong (say, no API key for the
 * model the command needs): a 😕 on the command and a failed step whose message says what to set,
 * so the person who typed the command and the one who reads the workflow run both see it. The reply
 * says what to set only to someone who can set it (`role`, see canConfigure); anyone else is told
 * that the configuration needs a fix and where a maintainer reads it.
 */
export async function failForConfiguration(
  ctx: Pick<RunContext, 'thread' | 'runUrl'>,
  source: CommandSource,
  command: string,
  problem: { what: string; fix: string; role: RepoRole },
): Promise<FlowResult> {
  const { thread, runUrl } = ctx;
  const { what, fix, role } = problem;
  const shown = spelledName(source, command);
  const reply = canConfigure(role)
    ? renderFailure({ author: source.author, command: shown, what, fix, runUrl })
    : renderConfigurationFailure({ author: source.author, command: shown, runUrl });
  await thread.postComment(source.thread.number, reply);
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
  authorRole: RepoRole,
): Promise<FlowResult | undefined> {
  const missing = roles.filter((role) => !ctx.settings[role].apiKey);
  if (missing.length === 0) return undefined;
  const inputs = missing.map((role) => `\`${role}-api-key\``).join(' and ');
  return failForConfiguration(ctx, source, command, {
    what: `no API key is configured for the ${missing.join(' and the ')} model.`,
    fix: `Set the \`api-key\` input (or ${inputs}) from a repository secret. ${emptySecretHint()}`,
    role: authorRole,
  });
}
