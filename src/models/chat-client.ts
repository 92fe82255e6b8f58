import OpenAI from 'openai';
import type { ClientOptions } from 'openai';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessage,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { Role } from '../machine/fields.js';
import { redact } from '../text/redact.js';
import { ModelError } from './model-error.js';
import { malformedCompletion, type ProviderContext, type SettingWords } from './provider-error.js';
import { withRetries, type RetryOptions } from './retry-loop.js';
import { readJsonAnswer } from './answer-body.js';
import type { TokenUsage } from './usage.js';
import { errorMessage } from '../text/error-message.js';

/**
 * One role's connection to its model. Planner and executor each get their own client, because each
 * may run on a different provider, model and key. The `openai` package does the HTTP with its own
 * retries off; plangate's retry policy (retry-policy.ts) decides what is tried again and how long
 * to wait, and every failure that remains is classified once (provider-error.ts).
 */

/** Where a role's model lives: any OpenAI-compatible Chat Completions endpoint. */
export interface ModelEndpoint {
  model: string;
  baseURL: string;
  apiKey: string;
}

/** One answer of the model, already validated, ready to append to the session as is. */
export interface ChatTurn {
  /** The assistant message: content and/or function tool calls with string arguments. */
  message: ChatCompletionMessage;
  usage: TokenUsage;
  /** The provider's finish reason (`stop`, `tool_calls`, `length`, ...); `unknown` when it gave none. */
  finishReason: string;
}

export interface ChatRequest {
  messages: ChatCompletionMessageParam[];
  tools: ChatCompletionFunctionTool[];
}

/** What the agent loop needs from a model, so tests and other providers can stand in for it. */
export interface ChatClient {
  readonly role: Role;
  readonly model: string;
  complete(request: ChatRequest): Promise<ChatTurn>;
}

export interface ChatClientOptions extends RetryOptions {
  /** How long one attempt may go without an answer (`model-timeout`). */
  timeoutMs?: number;
  /** A fetch implementation, for proxies or tests. */
  fetch?: ClientOptions['fetch'];
  /** How the host names its settings in the hints of a failure (the action's inputs by default). */
  words?: SettingWords;
}

/** The action's defaults, for hosts that build a client without settings (tests, tools). */
export const defaultModelRetries = 6;
export const defaultModelTimeoutMs = 180_000;

const tokenCount = z.number().int().nonnegative();

/** Only function tool calls: plangate declares no other tool kind, so anything else is malformed. */
const toolCallSchema = z.object({
  id: z.string().min(1),
  // Some OpenAI-compatible servers omit the type; a function is the only kind plangate sends.
  type: z.literal('function').optional(),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          role: z.literal('assistant'),
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z.array(toolCallSchema).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.object({
    prompt_tokens: tokenCount,
    completion_tokens: tokenCount,
    prompt_tokens_details: z.object({ cached_tokens: tokenCount.nullish() }).nullish(),
    // DeepSeek reports its cache hits here instead of in prompt_tokens_details.
    prompt_cache_hit_tokens: tokenCount.nullish(),
  }),
});

/** Builds the client for one role; the key stays inside the `openai` client and out of every error. */
export function createChatClient(role: Role, endpoint: ModelEndpoint, options: ChatClientOptions = {}): ChatClient {
  const context: ProviderContext = {
    role,
    model: endpoint.model,
    baseURL: endpoint.baseURL,
    secrets: [endpoint.apiKey],
    ...(options.words ? { words: options.words } : {}),
  };
  const timeoutMs = options.timeoutMs ?? defaultModelTimeoutMs;
  let client: OpenAI;
  try {
    client = new OpenAI({
      apiKey: endpoint.apiKey,
      baseURL: endpoint.baseURL,
      // Explicit nulls keep ambient OPENAI_* variables from attaching another account's headers.
      organization: null,
      project: null,
      // The retries are plangate's (retry-policy.ts): the client makes one attempt per call.
      maxRetries: 0,
      timeout: timeoutMs,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  } catch (error) {
    const detail = redact(errorMessage(error), [endpoint.apiKey]).replace(/[.\s]+$/, '');
    throw new ModelError(
      role,
      endpoint.model,
      `The ${role} model "${endpoint.model}": cannot create the client: ${detail}.`,
      {
        cause: 'client',
      },
    );
  }

  // The body is read here, not by the client, so an answer that is not JSON says what answered (answer-body.ts).
  const attempt = async ({ messages, tools }: ChatRequest): Promise<unknown> => {
    const response = await client.chat.completions
      .create({
        model: endpoint.model,
        messages,
        // Providers reject tool_choice without tools, so a tool-less request sends neither.
        ...(tools.length > 0 ? { tools, tool_choice: 'auto' as const } : {}),
      })
      .asResponse();
    return readJsonAnswer(response);
  };

  return {
    role,
    model: endpoint.model,
    async complete(request) {
      const response = await withRetries(() => attempt(request), context, { ...options, timeoutMs });
      const parsed = completionSchema.safeParse(response);
      if (!parsed.success) throw malformedCompletion(z.prettifyError(parsed.error), context);
      return toTurn(parsed.data);
    },
  };
}

function toTurn(completion: z.infer<typeof completionSchema>): ChatTurn {
  // min(1) above guarantees the first choice.
  const choice = completion.choices[0] as (typeof completion.choices)[number];
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = (choice.message.tool_calls ?? []).map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.function.name, arguments: call.function.arguments },
  }));
  const message: ChatCompletionMessage = {
    role: 'assistant',
    content: choice.message.content ?? null,
    refusal: choice.message.refusal ?? null,
    // An empty tool_calls array is rejected when the message is sent back, so it is left out.
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  const { usage } = completion;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0;
  return {
    message,
    usage: {
      promptTokens: usage.prompt_tokens,
      // A cache cannot serve more than was sent; clamping keeps the hit ratio within 0..1.
      cachedTokens: Math.min(cached, usage.prompt_tokens),
      completionTokens: usage.completion_tokens,
    },
    finishReason: choice.finish_reason ?? 'unknown',
  };
}
