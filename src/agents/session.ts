import { createHash } from 'node:crypto';
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Role } from '../machine/fields.js';

/**
 * An append-only conversation behind a frozen prefix. The system prompt and tool schemas are fixed
 * when the session starts and messages are only ever appended, so every request begins with the
 * previous request byte for byte and the provider's prompt cache stays warm.
 */
export class Session {
  /** Identifies the frozen prefix; two sessions with the same hash share a cacheable prefix. */
  readonly prefixHash: string;
  private readonly log: ChatCompletionMessageParam[];

  constructor(
    readonly role: Role,
    systemPrompt: string,
    readonly tools: readonly ChatCompletionFunctionTool[],
  ) {
    this.log = [{ role: 'system', content: systemPrompt }];
    this.prefixHash = createHash('sha256')
      .update(JSON.stringify([systemPrompt, tools]))
      .digest('hex')
      .slice(0, 16);
    Object.freeze(this.tools);
  }

  /** The whole conversation, in order; a copy, so nobody can rewrite what was sent. */
  get messages(): ChatCompletionMessageParam[] {
    return [...this.log];
  }

  append(message: ChatCompletionMessageParam): void {
    this.log.push(message);
  }
}
