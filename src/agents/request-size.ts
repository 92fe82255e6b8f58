import type { ChatRequest } from '../models/chat-client.js';
import type { Session } from './session.js';

/**
 * How many tokens the next request of a session will cost, before it is sent, so a budget can hold
 * it back rather than find out afterwards: the prompt the provider counted for the last request, the
 * messages added since at about four characters a token, the tool schemas when nothing was sent yet,
 * and room for the answer.
 */

/** Tokens kept for the answer: more than most tool calls take. */
export const answerReserve = 1_024;

const tokensOf = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);

export function nextRequestTokens(session: Session, request: ChatRequest): number {
  const last = session.lastRequest;
  if (!last) return tokensOf(request.messages) + tokensOf(request.tools) + answerReserve;
  const added = request.messages.slice(last.messages.length);
  return last.promptTokens + tokensOf(added) + answerReserve;
}
