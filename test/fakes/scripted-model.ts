import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { PromptCache, countTokens, serializePrompt, tokensOf } from './prompt-cache.js';

/**
 * A local OpenAI-compatible Chat Completions server whose answers are scripted per model. Tests and
 * the end-to-end runs point plangate's real `openai` client at it, so everything between plangate
 * and the wire (retries, parsing, usage accounting, prompt-prefix stability) is exercised for real.
 */

/** One tool call a scripted reply makes; an object `arguments` is JSON-encoded, a string is sent as is. */
export interface ScriptedToolCall {
  name: string;
  arguments: unknown;
}

/** A successful completion: text, tool calls or both. */
export interface CompletionReply {
  content?: string;
  toolCalls?: ScriptedToolCall[];
  finishReason?: string;
}

/** An HTTP error answered in OpenAI's error shape, e.g. a 429 with `retry-after`. */
export interface ErrorReply {
  error: { status: number; message?: string; headers?: Record<string, string> };
}

/** A body sent verbatim (a string as is, anything else as JSON), to play a provider that misbehaves. */
export interface RawReply {
  raw: unknown;
  status?: number;
  /** The content type answered (default application/json), e.g. text/html for a proxy's login page. */
  contentType?: string;
}

/**
 * A fault below HTTP: `hang` never answers (the client's timeout must end the request), `drop`
 * closes the connection without an answer (a reset, as a crashing proxy does).
 */
export interface FaultReply {
  fault: 'hang' | 'drop';
}

/** What one request gets; a function computes its reply from what the model was sent. */
export type Reply =
  CompletionReply | ErrorReply | RawReply | FaultReply | ((request: RecordedRequest) => Reply | Promise<Reply>);

/** A request that never gets an answer. */
export const hang: FaultReply = { fault: 'hang' };

/** A connection closed without an answer. */
export const drop: FaultReply = { fault: 'drop' };

/** An HTTP error in OpenAI's shape with the headers given (`retry-after`, rate-limit resets, ...). */
export function httpError(status: number, headers: Record<string, string> = {}, message?: string): ErrorReply {
  return { error: { status, headers, ...(message === undefined ? {} : { message }) } };
}

/**
 * What a proxy in front of the provider answers a request that has not signed in: 200 with its
 * HTML login page, as a corporate proxy or a wrong base URL pointing at a website does.
 */
export function loginPage(status = 200): RawReply {
  const raw = [
    '<!DOCTYPE html>',
    '<html><head><title>Sign in · Example Corp proxy</title>',
    '<style>body { font-family: sans-serif; }</style><script>window.loginRequired = true;</script></head>',
    '<body><h1>Sign in to continue</h1><p>Your request to the internet needs a Corp &amp; Co account.</p>',
    '<form action="/login"><input name="user"></form></body></html>',
  ].join('\n');
  return { raw, status, contentType: 'text/html; charset=utf-8' };
}

/**
 * A base URL where nothing listens: a port that was free a moment ago on 127.0.0.1, so a request
 * to it is refused. For a `base-url` that is wrong.
 */
export async function refusingUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

/** The usage block the fake returns, shaped like OpenAI's. */
export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

/** Everything a test may want to assert about one request the fake received. */
export interface RecordedRequest {
  /** 1-based position among all requests this server received. */
  index: number;
  model: string;
  messages: ChatCompletionMessageParam[];
  /** Empty when the request sent no tools. */
  tools: ChatCompletionTool[];
  /** The parsed JSON body as received. */
  body: Record<string, unknown>;
  /** Lower-cased request headers without `authorization`; see `authMatched`. */
  headers: Record<string, string>;
  /** Whether `authorization: Bearer <apiKey>` matched; null when the server checks no key. */
  authMatched: boolean | null;
  /** The HTTP status answered; set once the answer is known. */
  status: number | null;
  /** The usage returned with a completion; null for errors and raw replies. */
  usage: ScriptedUsage | null;
  /** When the request arrived (performance.now() of the server's process, ms). */
  receivedAtMs: number;
  /** When its answer was sent, on the same clock; null while unanswered (or never, for a fault). */
  answeredAtMs: number | null;
}

export interface ScriptedModelOptions {
  /** Replies per model name, served in order, one per request. */
  script: Record<string, Reply[]>;
  /** When given, every request must carry `authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /**
   * How long the server waits before it answers each scripted reply (default 0: at once), as a
   * provider takes time to generate: real waiting, so requests sent together are in flight together.
   */
  delayMs?: number;
}

export interface ScriptedModel {
  /** Base URL ending in `/v1`, ready for the `openai` client's `baseURL`. */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Replies not yet served, per model, so a test can assert its script was used up. */
  remaining(): Record<string, number>;
  /** Changes the time to answer from the next request on, e.g. to time one command of a scenario alone. */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

/** Shorthand for a reply that only speaks. */
export function say(content: string): CompletionReply {
  return { content };
}

/** Shorthand for a reply that makes one tool call. */
export function toolCall(name: string, args: unknown): CompletionReply {
  return { toolCalls: [{ name, arguments: args }] };
}

/** A fixed timestamp keeps responses byte-for-byte reproducible. */
const CREATED = 1_700_000_000;
const ROUTES = new Set(['/v1/chat/completions', '/chat/completions']);
/** Guards against a reply function that keeps returning functions. */
const MAX_REPLY_DEPTH = 16;

/** Just enough shape to route and record a request; the rest is the test's business. */
const requestBodySchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(z.looseObject({ role: z.string() })),
  tools: z.array(z.looseObject({ type: z.string() })).optional(),
  stream: z.boolean().nullish(),
});

/** Starts the server on an ephemeral port of 127.0.0.1. */
export async function startScriptedModel(options: ScriptedModelOptions): Promise<ScriptedModel> {
  const queues = new Map<string, Reply[]>(
    Object.entries(options.script).map(([model, replies]) => [model, [...replies]]),
  );
  const servedPerModel = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const cache = new PromptCache();
  let delayMs = options.delayMs ?? 0;
  let completionCount = 0;
  let toolCallCount = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAtMs = performance.now();
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (!ROUTES.has(path)) {
      sendError(res, 404, `scripted model serves POST /v1/chat/completions, not ${req.method} ${path}`);
      return;
    }
    if (req.method !== 'POST') {
      sendError(res, 405, `method ${req.method} is not allowed on ${path}`);
      return;
    }

    const text = await readBody(req);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      sendError(res, 400, 'request body is not valid JSON');
      return;
    }
    const parsed = requestBodySchema.safeParse(json);
    if (!parsed.success) {
      sendError(res, 400, `request body is not a chat completion request: ${z.prettifyError(parsed.error)}`);
      return;
    }
    const body = parsed.data;
    const { authorization, ...headers } = flattenHeaders(req);
    const authMatched = options.apiKey === undefined ? null : authorization === `Bearer ${options.apiKey}`;
    const record: RecordedRequest = {
      index: requests.length + 1,
      model: body.model,
      messages: body.messages as unknown as ChatCompletionMessageParam[],
      tools: (body.tools ?? []) as unknown as ChatCompletionTool[],
      body: json as Record<string, unknown>,
      headers,
      authMatched,
      status: null,
      usage: null,
      receivedAtMs,
      answeredAtMs: null,
    };
    requests.push(record);

    const answer = (status: number, payload: string, extraHeaders: Record<string, string> = {}): void => {
      record.status = status;
      record.answeredAtMs = performance.now();
      res.writeHead(status, { 'content-type': 'application/json', ...extraHeaders });
      res.end(payload);
    };
    const answerError = (status: number, message: string, extraHeaders: Record<string, string> = {}): void => {
      answer(status, errorBody(status, message), extraHeaders);
    };

    if (authMatched === false) {
      answerError(401, 'Incorrect API key provided to the scripted model.');
      return;
    }
    if (body.stream === true) {
      answerError(400, 'streaming is not scripted: the scripted model only answers non-streaming requests');
      return;
    }

    const queue = queues.get(body.model);
    const served = servedPerModel.get(body.model) ?? 0;
    const next = queue?.shift();
    if (queue === undefined || next === undefined) {
      const why =
        queue === undefined
          ? `model "${body.model}" is not in the script (scripted models: ${[...queues.keys()].join(', ') || 'none'})`
          : `scripted model "${body.model}" got request #${served + 1} but its script had only ${served} replies`;
      // A retry cannot help, so tell the client not to hide the failure behind backoff.
      answerError(500, why, { 'x-should-retry': 'false' });
      return;
    }
    servedPerModel.set(body.model, served + 1);

    const reply = await resolveReply(next, record);
    if ('fault' in reply) {
      // A hung request stays open until the client gives up (or the server closes).
      if (reply.fault === 'drop') req.socket.destroy();
      return;
    }
    // The provider's time to answer; nothing is awaited when there is none, so nothing else changes.
    if (delayMs > 0 && ('error' in reply || 'raw' in reply)) await sleep(delayMs);
    if ('error' in reply) {
      answerError(
        reply.error.status,
        reply.error.message ?? `scripted error ${reply.error.status}`,
        reply.error.headers,
      );
      return;
    }
    if ('raw' in reply) {
      answer(
        reply.status ?? 200,
        typeof reply.raw === 'string' ? reply.raw : JSON.stringify(reply.raw),
        reply.contentType ? { 'content-type': reply.contentType } : {},
      );
      return;
    }

    const chunks = serializePrompt(body.tools ?? [], body.messages);
    const partition = `${body.model}\u0000${authorization ?? ''}`;
    const promptTokens = countTokens(chunks);
    const cachedTokens = cache.lookup(partition, chunks);
    // The provider caches a prompt once it has processed it: a request sent while another is still
    // being answered does not find that one's prompt in the cache.
    if (delayMs > 0) await sleep(delayMs);
    cache.remember(partition, chunks);

    const toolCalls = (reply.toolCalls ?? []).map((call) => ({
      id: `call_${++toolCallCount}`,
      type: 'function' as const,
      function: {
        name: call.name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      },
    }));
    const completionTokens =
      tokensOf(reply.content ?? '') +
      toolCalls.reduce((sum, call) => sum + tokensOf(call.function.name + call.function.arguments), 0);
    const usage: ScriptedUsage = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: cachedTokens },
    };
    record.usage = usage;

    const message: Record<string, unknown> = {
      role: 'assistant',
      content: reply.content ?? (toolCalls.length > 0 ? null : ''),
      refusal: null,
    };
    if (toolCalls.length > 0) message['tool_calls'] = toolCalls;
    answer(
      200,
      JSON.stringify({
        id: `chatcmpl-scripted-${++completionCount}`,
        object: 'chat.completion',
        created: CREATED,
        model: body.model,
        choices: [
          {
            index: 0,
            message,
            logprobs: null,
            finish_reason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
          },
        ],
        usage,
      }),
    );
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A throwing reply function is a bug in the test; make it visible in the client's error.
      if (!res.headersSent) sendError(res, 500, `scripted model failed: ${String(error)}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    remaining: () => Object.fromEntries([...queues].map(([model, queue]) => [model, queue.length])),
    setDelay: (ms) => {
      delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets of the client would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

async function resolveReply(
  reply: Reply,
  request: RecordedRequest,
): Promise<CompletionReply | ErrorReply | RawReply | FaultReply> {
  let current = reply;
  for (let depth = 0; typeof current === 'function'; depth++) {
    if (depth >= MAX_REPLY_DEPTH) throw new Error('reply functions nested too deeply');
    current = await current(request);
  }
  return current;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function sendError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-should-retry': 'false' });
  res.end(errorBody(status, message));
}

/** OpenAI's error envelope, with the type and code it uses for the common statuses. */
function errorBody(status: number, message: string): string {
  const [type, code] =
    status === 401
      ? ['invalid_request_error', 'invalid_api_key']
      : status === 404
        ? ['invalid_request_error', 'not_found']
        : status === 429
          ? ['requests', 'rate_limit_exceeded']
          : status >= 500
            ? ['server_error', null]
            : ['invalid_request_error', null];
  return JSON.stringify({ error: { message, type, param: null, code } });
}
