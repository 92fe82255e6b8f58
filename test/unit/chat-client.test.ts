import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { createChatClient } from '../../src/models/chat-client.js';
import type { ChatClientOptions, ModelEndpoint } from '../../src/models/chat-client.js';
import { ModelError } from '../../src/models/model-error.js';
import { loginPage, say, startScriptedModel, toolCall } from '../fakes/scripted-model.js';
import type { Reply, ScriptedModel } from '../fakes/scripted-model.js';

const KEY = 'sk-plangate-test-secret-0123456789';
const servers: ScriptedModel[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(replies: Reply[], model = 'gpt-test'): Promise<ScriptedModel> {
  const server = await startScriptedModel({ script: { [model]: replies }, apiKey: KEY });
  servers.push(server);
  return server;
}

function endpoint(server: ScriptedModel, model = 'gpt-test'): ModelEndpoint {
  return { model, baseURL: server.url, apiKey: KEY };
}

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ModelError);
  const modelError = error as ModelError;
  // Whatever went wrong, the key must not travel with the error.
  expect(modelError.message).not.toContain(KEY);
  expect(String(modelError.stack)).not.toContain(KEY);
  expect(JSON.stringify(modelError)).not.toContain(KEY);
  expect(modelError.cause).toBeUndefined();
  return modelError;
}

const readFile: ChatCompletionFunctionTool = {
  type: 'function',
  function: {
    name: 'read_file',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
};
const noRetry: ChatClientOptions = { maxRetries: 0 };

const completionBody = {
  choices: [{ message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1 },
};

describe('createChatClient: turns', () => {
  it('returns a content turn with usage, and sends neither tools nor tool_choice when there are none', async () => {
    const server = await start([say('Here is the plan.')]);
    const client = createChatClient('planner', endpoint(server), noRetry);
    expect(client.role).toBe('planner');
    expect(client.model).toBe('gpt-test');

    const turn = await client.complete({ messages: [{ role: 'user', content: 'plan it' }], tools: [] });
    expect(turn.message).toEqual({ role: 'assistant', content: 'Here is the plan.', refusal: null });
    expect(turn.finishReason).toBe('stop');
    const usage = server.requests[0]?.usage;
    expect(turn.usage).toEqual({
      promptTokens: usage?.prompt_tokens,
      cachedTokens: 0,
      completionTokens: usage?.completion_tokens,
    });
    expect(server.requests[0]?.authMatched).toBe(true);
    expect(server.requests[0]?.body).not.toHaveProperty('tools');
    expect(server.requests[0]?.body).not.toHaveProperty('tool_choice');
  });

  it('returns tool calls with string arguments and sends tool_choice auto with the tools', async () => {
    const server = await start([toolCall('read_file', { path: 'README.md' })]);
    const client = createChatClient('executor', endpoint(server), noRetry);
    const turn = await client.complete({ messages: [{ role: 'user', content: 'read' }], tools: [readFile] });
    expect(turn.message.content).toBeNull();
    expect(turn.message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"README.md"}' } },
    ]);
    expect(turn.finishReason).toBe('tool_calls');
    const body = server.requests[0]?.body;
    expect(body?.['tools']).toEqual([readFile]);
    expect(body?.['tool_choice']).toBe('auto');
    expect(body).not.toHaveProperty('parallel_tool_calls');
    expect(body?.['model']).toBe('gpt-test');
  });

  it('reports cached tokens when a session grows append-only', async () => {
    const server = await start([toolCall('read_file', { path: 'a.ts' }), say('done')]);
    const client = createChatClient('executor', endpoint(server), noRetry);
    const system = {
      role: 'system' as const,
      content: `You are the plangate executor. ${'Follow the directive. '.repeat(300)}`,
    };
    const messages = [system, { role: 'user' as const, content: 'Do step 1.' }];
    const first = await client.complete({ messages, tools: [readFile] });
    const call = first.message.tool_calls?.[0];
    const second = await client.complete({
      messages: [...messages, first.message, { role: 'tool', tool_call_id: call?.id ?? '', content: 'export {}' }],
      tools: [readFile],
    });
    expect(first.usage.cachedTokens).toBe(0);
    expect(second.usage.cachedTokens).toBe(Math.floor(first.usage.promptTokens / 128) * 128);
    expect(second.usage.cachedTokens).toBeGreaterThanOrEqual(1024);
  });

  it('reads DeepSeek-style cache hits and never reports more cached than prompt tokens', async () => {
    const completion = (usage: Record<string, unknown>): Reply => ({
      raw: { choices: [{ message: { role: 'assistant', content: 'ok' }, finish_reason: null }], usage },
    });
    const server = await start([
      completion({ prompt_tokens: 2000, completion_tokens: 10, prompt_cache_hit_tokens: 1536 }),
      completion({ prompt_tokens: 100, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 500 } }),
    ]);
    const client = createChatClient('planner', endpoint(server), noRetry);
    const request = { messages: [{ role: 'user' as const, content: 'x' }], tools: [] };
    const deepseek = await client.complete(request);
    expect(deepseek.usage).toEqual({ promptTokens: 2000, cachedTokens: 1536, completionTokens: 10 });
    expect(deepseek.finishReason).toBe('unknown');
    const odd = await client.complete(request);
    expect(odd.usage.cachedTokens).toBe(100);
  });

  it('lets the openai client retry a 429 that carries retry-after', async () => {
    const server = await start([
      { error: { status: 429, message: 'rate limited', headers: { 'retry-after': '0' } } },
      say('made it'),
    ]);
    const client = createChatClient('planner', endpoint(server), { maxRetries: 1 });
    const turn = await client.complete({ messages: [{ role: 'user', content: 'x' }], tools: [] });
    expect(turn.message.content).toBe('made it');
    expect(server.requests.map((request) => request.status)).toEqual([429, 200]);
  });

  it('goes through the fetch it is given', async () => {
    const server = await start([say('via custom fetch')]);
    const seen: string[] = [];
    const client = createChatClient('planner', endpoint(server), {
      maxRetries: 0,
      fetch: async (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      },
    });
    const turn = await client.complete({ messages: [{ role: 'user', content: 'x' }], tools: [] });
    expect(turn.message.content).toBe('via custom fetch');
    expect(seen).toEqual([`${server.url}/chat/completions`]);
  });
});

describe('createChatClient: failures', () => {
  const malformed: Array<[string, unknown, string]> = [
    ['no choices', { choices: [], usage: { prompt_tokens: 1, completion_tokens: 1 } }, 'choices'],
    [
      'no message',
      { choices: [{ finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1 } },
      'message',
    ],
    [
      'object arguments',
      {
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: { path: 'a' } } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      },
      'arguments',
    ],
    ['no usage', { choices: [{ message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }] }, 'usage'],
    [
      'negative usage',
      {
        choices: [{ message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: -1, completion_tokens: 1 },
      },
      'prompt_tokens',
    ],
  ];

  it.each(malformed)(
    'turns a response with %s into a ModelError naming role and model',
    async (_label, raw, mentions) => {
      const server = await start([{ raw }], 'deepseek-chat');
      const client = createChatClient('executor', endpoint(server, 'deepseek-chat'), noRetry);
      const error = await failure(client.complete({ messages: [{ role: 'user', content: 'x' }], tools: [] }));
      expect(error.message).toMatch(
        /^The executor model "deepseek-chat" at 127\.0\.0\.1:\d+\/v1\/chat\/completions returned a malformed chat completion/,
      );
      expect(error.message).toContain(mentions);
      expect(error.role).toBe('executor');
      expect(error.model).toBe('deepseek-chat');
      expect(error.httpStatus).toBeUndefined();
      expect(error.kind).toBe('malformed');
    },
  );

  it('names an answer that is not JSON, with its status, content type and first words, tried once', async () => {
    const server = await start([loginPage(), { raw: 'Bad gateway' }, loginPage(404)], 'deepseek-chat');
    const client = createChatClient('executor', endpoint(server, 'deepseek-chat'), { maxRetries: 6 });
    const request = { messages: [{ role: 'user' as const, content: 'x' }], tools: [] };
    const page = await failure(client.complete(request));
    expect(page.message).toMatch(
      /^The executor model "deepseek-chat" at 127\.0\.0\.1:\d+\/v1\/chat\/completions did not answer JSON: HTTP 200, text\/html, starting `Sign in · Example Corp proxy Sign in to continue Your request to the internet…`\. Something other than a Chat Completions API answered/,
    );
    expect(page.message).toContain('Check that `executor-base-url` (or `base-url`) is the API');
    expect(page.kind).toBe('not-json');
    expect(page.httpStatus).toBe(200);
    // Labelled JSON, but not: the same sentence.
    const labelled = await failure(client.complete(request));
    expect(labelled.message).toContain('did not answer JSON: HTTP 200, application/json, starting `Bad gateway`.');
    // A website's 404 page is not the provider's "unknown model".
    const missing = await failure(client.complete(request));
    expect(missing.message).toContain('did not answer JSON: HTTP 404, text/html, starting `Sign in');
    expect(missing.kind).toBe('not-json');
    expect(server.requests).toHaveLength(3);
  });

  it('takes a completion whose content type is not JSON but whose body is', async () => {
    const server = await start([{ raw: JSON.stringify(completionBody), contentType: 'text/plain' }]);
    const turn = await createChatClient('planner', endpoint(server), noRetry).complete({
      messages: [{ role: 'user', content: 'x' }],
      tools: [],
    });
    expect(turn.message.content).toBe('hi');
  });

  it('says a rejected key once, with the fix, and never echoes what the provider quoted of it', async () => {
    const server = await start([{ error: { status: 401, message: `Incorrect API key provided: ${KEY}.` } }]);
    const client = createChatClient('planner', endpoint(server), { maxRetries: 6 });
    const error = await failure(client.complete({ messages: [{ role: 'user', content: 'x' }], tools: [] }));
    expect(error.httpStatus).toBe(401);
    expect(error.kind).toBe('key');
    expect(error.message).toMatch(/^The planner model "gpt-test" at 127\.0\.0\.1:\d+\/v1\/chat\/completions rejected/);
    expect(error.message).toContain(
      'rejected the API key (HTTP 401). Check the `planner-api-key` (or `api-key`) secret',
    );
    expect(error.message).not.toContain('Incorrect API key');
    expect(error.message).not.toMatch(/\.\.|401.*401/);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a 429 that outlasts the retries', async () => {
    const limited: Reply = {
      error: { status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '0' } },
    };
    const server = await start([limited, limited]);
    const client = createChatClient('executor', endpoint(server), { maxRetries: 1 });
    const error = await failure(client.complete({ messages: [{ role: 'user', content: 'x' }], tools: [] }));
    expect(error.httpStatus).toBe(429);
    expect(error.kind).toBe('rate-limit');
    expect(error.message).toContain('kept answering "rate limited" (HTTP 429) (2 attempts)');
    expect(server.requests).toHaveLength(2);
  });

  it('reports a connection failure without a status', async () => {
    const server = await start([]);
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const client = createChatClient('planner', endpoint(server), noRetry);
    const error = await failure(client.complete({ messages: [{ role: 'user', content: 'x' }], tools: [] }));
    expect(error.httpStatus).toBeUndefined();
    expect(error.kind).toBe('refused');
    expect(error.message).toContain('could not be reached: the connection was refused');
    expect(error.message).toContain('Check `planner-base-url` (or `base-url`)');
  });

  it('gives up after its timeout when the endpoint never answers', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await start([
      async () => {
        await held;
        return say('too late');
      },
    ]);
    const client = createChatClient('executor', endpoint(server), { maxRetries: 0, timeoutMs: 50 });
    try {
      const error = await failure(client.complete({ messages: [{ role: 'user', content: 'x' }], tools: [] }));
      expect(error.message).toContain('did not answer within 50 ms');
      expect(error.kind).toBe('timeout');
    } finally {
      release();
    }
  });

  it('refuses to build a client without a key, saying which role', () => {
    expect(() => createChatClient('executor', { model: 'm', baseURL: 'http://127.0.0.1:9/v1', apiKey: '' })).toThrow(
      /^The executor model "m": cannot create the client/,
    );
  });
});
