import { z } from 'zod';
import type { LastEdit } from './thread-api.js';

/**
 * GraphQL's accounts in REST spelling. The bot knows its own comments by the `bot-login` input,
 * which is REST's spelling (`name[bot]`), so every login read over GraphQL is turned into it before
 * anyone compares: a mismatch here would make the bot's own plan comment look edited by a stranger.
 */

/** GitHub's REST name for a deleted account; an edit by one is still an edit. */
export const GHOST = 'ghost';

/** An author or editor as GraphQL answers: `__typename` tells an app's bot from a person. */
export const actorShape = z.object({ __typename: z.string(), login: z.string() });

/** An account as {@link actorShape} parses it. */
export type Actor = z.infer<typeof actorShape>;

/** An account in REST spelling: GraphQL names an app's bot without the `[bot]` suffix. */
export function restLogin(actor: Actor): string {
  return actor.__typename === 'Bot' && !actor.login.endsWith('[bot]') ? `${actor.login}[bot]` : actor.login;
}

/** Who last edited, and when; a deleted editor beside a timestamp is {@link GHOST}, never "not edited". */
export function toEdit(editor: Actor | null, lastEditedAt: string | null): LastEdit {
  // A deleted editor comes back null beside a timestamp: never report that as "not edited".
  if (editor === null) return { editor: lastEditedAt === null ? null : GHOST, editedAt: lastEditedAt };
  return { editor: restLogin(editor), editedAt: lastEditedAt };
}
