import type { CommandOf, FlowResult, RunContext } from '../run/run-context.js';
import { renderHelp, renderUnknownOption } from '../render/help.js';
import { refuseUnlessRole } from '../run/refuse.js';

/**
 * `/help`, and any `/word` plangate does not know: the command list with this repository's
 * settings; an option a command does not take: that command's options. Reading them is harmless,
 * so `read` is enough; a guess is answered rather than ignored.
 */
export async function helpFlow(ctx: RunContext, command: CommandOf<'help'>): Promise<FlowResult> {
  const { thread, settings } = ctx;
  const { unknown, unknownOption } = command;
  const name = unknownOption ? `/${unknownOption.command}` : unknown === undefined ? '/help' : `/${unknown}`;
  const allowed = await refuseUnlessRole(thread, command, name, 'read', 'Ask a collaborator of this repository.');
  if ('refused' in allowed) return allowed.refused;
  const reply = unknownOption
    ? renderUnknownOption(command.author, unknownOption.command, unknownOption.option)
    : renderHelp(command.author, settings, unknown);
  await thread.postComment(command.thread.number, reply);
  const guessed = unknown !== undefined || unknownOption !== undefined;
  await thread.react(command.commentId, guessed ? 'confused' : 'eyes', command.origin).catch(() => undefined);
  // An unknown command or option was not carried out; the reply only says what exists.
  return { outcome: guessed ? 'refused' : 'answered' };
}
