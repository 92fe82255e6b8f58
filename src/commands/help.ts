import * as core from '@actions/core';
import type { CommandOf, FlowResult, RunContext } from '../run/run-context.js';
import { renderHelp, renderUnknownCommand, renderUnknownOption } from '../render/help.js';
import { refuseUnlessRole } from '../run/refuse.js';
import { hasRole, lowerRole } from '../config/permissions.js';
import { commandText } from '../text/comment-command.js';

/**
 * `/help`: the command list with this repository's settings; a command given an option it does not
 * take: that command's options. Reading them is harmless, so `read` is enough. A word addressed to
 * plangate that is none of its commands (one slip from a command, or any word after the prefix) is
 * answered briefly, and only to someone who may command plangate: see answerUnknown.
 */
export async function helpFlow(ctx: RunContext, command: CommandOf<'help'>): Promise<FlowResult> {
  const { thread, settings } = ctx;
  const { unknown, unknownOption } = command;
  const prefix = command.prefix ?? '';
  if (unknown !== undefined) return answerUnknown(ctx, command, unknown);
  const name = commandText(unknownOption ? unknownOption.command : 'help', prefix);
  const allowed = await refuseUnlessRole(thread, command, name, 'read');
  if ('refused' in allowed) return allowed.refused;
  const reply = unknownOption
    ? renderUnknownOption(command.author, unknownOption.command, unknownOption.option, prefix)
    : renderHelp(command.author, settings, prefix);
  await thread.postComment(command.thread.number, reply);
  await thread.react(command.commentId, unknownOption ? 'confused' : 'eyes', command.origin).catch(() => undefined);
  // An unknown option was not carried out; the reply only says what exists.
  return { outcome: unknownOption ? 'refused' : 'answered' };
}

/**
 * `/aprove`, or `/plangate merge` on a repository with a prefix: a one-line answer naming the
 * command it likely meant, for someone with the permission to plan or approve here. Anyone else gets
 * no reply and no reaction (the log says why): on a public repository everyone may read, and a
 * thread where other tools take slash commands must not fill with plangate's corrections.
 */
async function answerUnknown(ctx: RunContext, command: CommandOf<'help'>, unknown: string): Promise<FlowResult> {
  const { thread, settings } = ctx;
  const prefix = command.prefix ?? '';
  const typed = commandText(unknown, prefix);
  const needed = lowerRole(settings.triggerPermission, settings.approvePermission);
  const role = await thread.permissionOf(command.author);
  if (!hasRole(role, needed)) {
    core.info(
      `Nothing to do: ${typed} is not a plangate command, and @${command.author} has ${role} permission (commanding plangate takes ${needed} or higher), so it gets no answer.`,
    );
    return { outcome: 'ignored' };
  }
  core.info(`${typed} is not a plangate command; answering @${command.author} with the commands it may have meant.`);
  await thread.postComment(command.thread.number, renderUnknownCommand(command.author, unknown, command.meant, prefix));
  return { outcome: 'refused' };
}
