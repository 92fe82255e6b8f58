import type { CommandOf, FlowResult, RunContext } from '../run/run-context.js';
import { renderHelp } from '../render/help.js';
import { refuseUnlessRole } from '../run/refuse.js';

/**
 * `/help`, and any `/word` plangate does not know: the command list with this repository's
 * settings. Reading it is harmless, so `read` is enough; a guess is answered rather than ignored.
 */
export async function helpFlow(ctx: RunContext, command: CommandOf<'help'>): Promise<FlowResult> {
  const { thread, settings } = ctx;
  const name = command.unknown === undefined ? '/help' : `/${command.unknown}`;
  const allowed = await refuseUnlessRole(thread, command, name, 'read', 'Ask a collaborator of this repository.');
  if ('refused' in allowed) return allowed.refused;
  await thread.postComment(command.thread.number, renderHelp(command.author, settings, command.unknown));
  await thread
    .react(command.commentId, command.unknown === undefined ? 'eyes' : 'confused', command.origin)
    .catch(() => undefined);
  // An unknown command was not carried out; the reply only says which ones exist.
  return { outcome: command.unknown === undefined ? 'answered' : 'refused' };
}
