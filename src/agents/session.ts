import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Role } from '../machine/fields.js';
import { hashPrefix } from './prefix-hash.js';

/** What a session last sent, kept so the next request can be checked against it. */
export interface SentRequest {
  /** A deep copy: a later in-place edit of a message must show up as a difference, not vanish. */
  readonly messages: readonly ChatCompletionMessageParam[];
  /** The prompt size the provider reported for it: what the next request should find cached. */
  readonly promptTokens: number;
}

/**
 * An append-only conversation behind a frozen prefix. The system prompt and tool schemas are fixed
 * when the session starts and messages are only ever appended, so every request begins with the
 * previous request byte for byte and the provider's prompt cache stays warm.
 */
export class Session {
  /** Identifies the frozen prefix; two sessions with the same hash share a cacheable prefix. */
  readonly prefixHash: string;
  private readonly log: ChatCompletionMessageParam[];
  private sent: SentRequest | undefined;

  constructor(
    readonly role: Role,
    readonly systemPrompt: string,
    readonly tools: readonly ChatCompletionFunctionTool[],
  ) {
    this.log = [{ role: 'system', content: systemPrompt }];
    this.prefixHash = hashPrefix(systemPrompt, tools);
    Object.freeze(this.tools);
  }

  /** The whole conversation, in order; a copy, so nobody can rewrite what was sent. */
  get messages(): ChatCompletionMessageParam[] {
    return [...this.log];
  }

  append(message: ChatCompletionMessageParam): void {
    this.log.push(message);
  }

  /** The last request this session sent and had answered; undefined before the first. */
  get lastRequest(): SentRequest | undefined {
    return this.sent;
  }

  /** Remembers an answered request, so the next one can be checked for extending it exactly. */
  recordRequest(messages: readonly ChatCompletionMessageParam[], promptTokens: number): void {
    this.sent = { messages: structuredClone([...messages]), promptTokens };
  }
}
