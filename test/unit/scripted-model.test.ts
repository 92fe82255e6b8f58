import OpenAI, { APIError, AuthenticationError, BadRequestError, RateLimitError } from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PromptCache,
  countTokens,
  reportableCachedTokens,
  serializePrompt,
  sharedPrefixTokens,
  tokensOf,
} from '../fakes/prompt-cache.js';
import { say, startScriptedModel, toolCall } from '../fakes/scripted-model.js';
import type { Reply, ScriptedModel } from '../fakes/scripted-model.js';

const servers: ScriptedModel[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(script: Record<string, Reply[]>, apiKey?: string): Promise<ScriptedModel> {
  const server = await startScriptedModel(apiKey === undefined ? { script } : { script, apiKey });
  servers.push(server);
  return server;
}

function clientFor(server: ScriptedModel, options: { apiKey?: string; maxRetries?: number } = {}): OpenAI {
  return new OpenAI({ apiKey: options.apiKey ?? 'sk-test', baseURL: server.url, maxRetries: options.maxRetries ?? 0 });
}

const user = (content: string): ChatCompletionMessageParam => ({ role: 'user', content });
/** Long enough that its serialization alone passes the 1024-token cache minimum. */
const longSystem = `You are the plangate planner. ${'Read the repository and plan carefully. '.repeat(120)}`;

describe('scripted model: replies', () => {
  it('answers a content reply shaped like OpenAI', async () => {
    const server = await start({ 'gpt-test': [say('hello there')] });
    const completion = await clientFor(server).chat.completions.create({
      model: 'gpt-test',
      messages: [user('hi')],
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toBe('chatcmpl-scripted-1');
    expect(completion.created).toBe(1_700_000_000);
    expect(completion.model).toBe('gpt-test');
    const choice = completion.choices[0];
    expect(choice?.message).toEqual({ role: 'assistant', content: 'hello there', refusal: null });
    expect(choice?.finish_reason).toBe('stop');
    const usage = completion.usage;
    expect(usage?.prompt_tokens).toBe(countTokens(serializePrompt([], [user('hi')])));
    expect(usage?.completion_tokens).toBe(tokensOf('hello there'));
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
    expect(usage?.prompt_tokens_details?.cached_tokens).toBe(0);

    expect(server.requests).toHaveLength(1);
    const recorded = server.requests[0];
    expect(recorded?.model).toBe('gpt-test');
    expect(recorded?.messages).toEqual([user('hi')]);
    expect(recorded?.tools).toEqual([]);
    expect(recorded?.status).toBe(200);
    expect(recorded?.usage).toEqual(usage);
    expect(recorded?.authMatched).toBeNull();
    expect(recorded?.headers['authorization']).toBeUndefined();
    expect(recorded?.headers['content-type']).toContain('application/json');
  });

  it('answers tool calls with null content, deterministic ids and encoded arguments', async () => {
    const server = await start({
      planner: [
        toolCall('read_file', { path: 'src/a.ts' }),
        {
          toolCalls: [
            { name: 'list_files', arguments: '{"glob":"*.md"}' },
            { name: 'search', arguments: { pattern: 'x' } },
          ],
        },
      ],
    });
    const tools: ChatCompletionTool[] = [
      { type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: {} } } },
    ];
    const client = clientFor(server);
    const first = await client.chat.completions.create({ model: 'planner', messages: [user('go')], tools });
    const second = await client.chat.completions.create({ model: 'planner', messages: [user('again')], tools });

    expect(first.choices[0]?.message.content).toBeNull();
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(first.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/a.ts"}' } },
    ]);
    expect(second.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_2', type: 'function', function: { name: 'list_files', arguments: '{"glob":"*.md"}' } },
      { id: 'call_3', type: 'function', function: { name: 'search', arguments: '{"pattern":"x"}' } },
    ]);
    expect(server.requests[0]?.tools).toEqual(tools);
    expect(server.remaining()).toEqual({ planner: 0 });
  });

  it('lets a function compute its reply from the request, synchronously or not', async () => {
    const echo: Reply = (request) => {
      const last = request.messages.at(-1);
      return say(`you said ${String(last?.content)} as request ${request.index}`);
    };
    const later: Reply = async (request) => ({ content: `model ${request.model}`, finishReason: 'length' });
    const server = await start({ m: [echo, later] });
    const client = clientFor(server);
    const first = await client.chat.completions.create({ model: 'm', messages: [user('ping')] });
    const second = await client.chat.completions.create({ model: 'm', messages: [user('pong')] });
    expect(first.choices[0]?.message.content).toBe('you said ping as request 1');
    expect(second.choices[0]?.message.content).toBe('model m');
    expect(second.choices[0]?.finish_reason).toBe('length');
  });

  it('sends a raw reply verbatim so a misbehaving provider can be played', async () => {
    const server = await start({ m: [{ raw: { choices: [] } }] });
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [] }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ choices: [] });
  });

  it('also serves /chat/completions without the /v1 prefix and 404s other paths', async () => {
    const server = await start({ m: [say('ok')] });
    const root = server.url.replace(/\/v1$/, '');
    const ok = await fetch(`${root}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [user('x')] }),
    });
    expect(ok.status).toBe(200);
    const missing = await fetch(`${root}/v1/embeddings`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain('/v1/embeddings');
  });
});

describe('scripted model: errors', () => {
  it('injects a 429 with retry-after that the openai client retries', async () => {
    const server = await start({
      m: [{ error: { status: 429, message: 'slow down', headers: { 'retry-after': '0' } } }, say('after the wait')],
    });
    const completion = await clientFor(server, { maxRetries: 2 }).chat.completions.create({
      model: 'm',
      messages: [user('x')],
    });
    expect(completion.choices[0]?.message.content).toBe('after the wait');
    expect(server.requests.map((request) => request.status)).toEqual([429, 200]);
    expect(server.requests[0]?.usage).toBeNull();
  });

  it('surfaces an injected error as the matching OpenAI error when retries run out', async () => {
    const server = await start({ m: [{ error: { status: 429, message: 'quota gone' } }] });
    const error = await clientFor(server)
      .chat.completions.create({ model: 'm', messages: [user('x')] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).message).toContain('quota gone');
    expect((error as RateLimitError).code).toBe('rate_limit_exceeded');
  });

  it('fails an exhausted queue with a readable 500 that is not retried', async () => {
    const server = await start({ m: [say('only one')] });
    const client = clientFor(server, { maxRetries: 3 });
    await client.chat.completions.create({ model: 'm', messages: [user('x')] });
    const error = await client.chat.completions
      .create({ model: 'm', messages: [user('y')] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(500);
    expect((error as APIError).message).toContain(
      'scripted model "m" got request #2 but its script had only 1 replies',
    );
    expect(server.requests).toHaveLength(2);
  });

  it('names an unknown model and the models it does know', async () => {
    const server = await start({ planner: [], executor: [] });
    const error = await clientFor(server)
      .chat.completions.create({ model: 'gpt-nope', messages: [user('x')] })
      .catch((caught: unknown) => caught);
    expect((error as APIError).status).toBe(500);
    expect((error as APIError).message).toContain(
      'model "gpt-nope" is not in the script (scripted models: planner, executor)',
    );
  });

  it('refuses streaming with an OpenAI-shaped 400 without using up a reply', async () => {
    const server = await start({ m: [say('kept')] });
    const error = await clientFor(server)
      .chat.completions.create({ model: 'm', messages: [user('x')], stream: true })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toContain('streaming is not scripted');
    expect(server.remaining()).toEqual({ m: 1 });
  });

  it('checks the bearer key when one is configured and records only whether it matched', async () => {
    const server = await start({ m: [say('welcome')] }, 'sk-right');
    const error = await clientFor(server, { apiKey: 'sk-wrong' })
      .chat.completions.create({ model: 'm', messages: [user('x')] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    const completion = await clientFor(server, { apiKey: 'sk-right' }).chat.completions.create({
      model: 'm',
      messages: [user('x')],
    });
    expect(completion.choices[0]?.message.content).toBe('welcome');
    expect(server.requests.map((request) => request.authMatched)).toEqual([false, true]);
    expect(JSON.stringify(server.requests)).not.toContain('sk-right');
    expect(JSON.stringify(server.requests)).not.toContain('sk-wrong');
  });
});

describe('scripted model: prompt cache emulation', () => {
  async function cachedAfter(
    script: Reply[],
    prompts: Array<{
      messages: ChatCompletionMessageParam[];
      tools?: ChatCompletionTool[];
      model?: string;
      apiKey?: string;
    }>,
  ): Promise<Array<{ prompt: number; cached: number }>> {
    const server = await start({ m: script, other: [...script] });
    const results: Array<{ prompt: number; cached: number }> = [];
    for (const prompt of prompts) {
      const completion = await clientFor(
        server,
        prompt.apiKey === undefined ? {} : { apiKey: prompt.apiKey },
      ).chat.completions.create({
        model: prompt.model ?? 'm',
        messages: prompt.messages,
        ...(prompt.tools ? { tools: prompt.tools } : {}),
      });
      results.push({
        prompt: completion.usage?.prompt_tokens ?? -1,
        cached: completion.usage?.prompt_tokens_details?.cached_tokens ?? -1,
      });
    }
    return results;
  }

  const base: ChatCompletionMessageParam[] = [
    { role: 'system', content: longSystem },
    user('Plan the change to the parser.'),
  ];

  it('reports the shared prefix of an append-only session in 128-token steps above 1024', async () => {
    const grown: ChatCompletionMessageParam[] = [
      ...base,
      { role: 'assistant', content: 'Reading.' },
      user('Continue.'),
    ];
    const [first, second, repeat] = await cachedAfter(
      [say('a'), say('b'), say('c')],
      [{ messages: base }, { messages: grown }, { messages: grown }],
    );
    expect(first?.cached).toBe(0);
    expect(first?.prompt).toBeGreaterThan(1024);
    // The whole first prompt is a prefix of the second one.
    expect(second?.cached).toBe(Math.floor((first?.prompt ?? 0) / 128) * 128);
    expect(second?.cached).toBeGreaterThanOrEqual(1024);
    expect(second?.prompt).toBeGreaterThan(first?.prompt ?? 0);
    // An identical prompt is cached up to its last whole block.
    expect(repeat?.cached).toBe(Math.floor((second?.prompt ?? 0) / 128) * 128);
  });

  it('reports nothing once the system prompt changes at its start', async () => {
    const changed: ChatCompletionMessageParam[] = [
      { role: 'system', content: `Thou art${longSystem.slice(7)}` },
      ...base.slice(1),
    ];
    const [, second] = await cachedAfter([say('a'), say('b')], [{ messages: base }, { messages: changed }]);
    expect(second?.cached).toBe(0);
  });

  it('keeps the part before a late change, whole blocks only', async () => {
    const edited: ChatCompletionMessageParam[] = [
      base[0] as ChatCompletionMessageParam,
      user('Plan the change to the lexer.'),
    ];
    const [first, second] = await cachedAfter([say('a'), say('b')], [{ messages: base }, { messages: edited }]);
    expect(second?.cached).toBeGreaterThanOrEqual(1024);
    expect((second?.cached ?? 1) % 128).toBe(0);
    expect(second?.cached).toBeLessThan(first?.prompt ?? 0);
    expect(second?.cached).toBeGreaterThan((first?.prompt ?? 0) - 128 - tokensOf(JSON.stringify(base[1])) - 8);
  });

  it('gives nothing below 1024 shared tokens', async () => {
    const short: ChatCompletionMessageParam[] = [{ role: 'system', content: 'Short prompt.' }, user('hi')];
    const [, second] = await cachedAfter([say('a'), say('b')], [{ messages: short }, { messages: short }]);
    expect(second?.cached).toBe(0);
  });

  it('keeps separate caches per model and per key', async () => {
    const results = await cachedAfter(
      [say('a'), say('b'), say('c')],
      [
        { messages: base },
        { messages: base, model: 'other' },
        { messages: base, apiKey: 'sk-another' },
        { messages: base },
      ],
    );
    expect(results.map((result) => result.cached)).toEqual([
      0,
      0,
      0,
      Math.floor((results[0]?.prompt ?? 0) / 128) * 128,
    ]);
  });

  it('misses when the tools that precede the messages change', async () => {
    const tool = (name: string): ChatCompletionTool => ({
      type: 'function',
      function: { name, description: 'x'.repeat(10), parameters: { type: 'object', properties: {} } },
    });
    const [, second, third] = await cachedAfter(
      [say('a'), say('b'), say('c')],
      [
        { messages: base, tools: [tool('read_file'), tool('write_file')] },
        { messages: base, tools: [tool('write_file'), tool('read_file')] },
        { messages: base, tools: [tool('read_file'), tool('write_file')] },
      ],
    );
    expect(second?.cached).toBe(0);
    expect(third?.cached).toBeGreaterThanOrEqual(1024);
  });
});

describe('scripted model: time to answer', () => {
  const prompt: ChatCompletionMessageParam[] = [{ role: 'system', content: longSystem }, user('Plan it.')];

  it('waits delayMs before each answer, so requests sent together are in flight together and miss each other in the cache', async () => {
    const delayMs = 200;
    // Both replies wait until both requests have arrived, so the overlap does not hang on how fast the machine is.
    let arrived = 0;
    let release: () => void = () => undefined;
    const together = new Promise<void>((resolve) => (release = resolve));
    const barrier = async (): Promise<Reply> => {
      if (++arrived === 2) release();
      await together;
      return say('ok');
    };
    const server = await startScriptedModel({ script: { m: [barrier, barrier, say('later')] }, delayMs });
    servers.push(server);
    const client = clientFor(server);
    const send = () => client.chat.completions.create({ model: 'm', messages: prompt });
    const [a, b] = await Promise.all([send(), send()]);
    const c = await send();

    const [first, second, third] = server.requests;
    for (const r of [first, second, third]) {
      // Timers count from the event loop's clock, which trails by the loop's own work: a margin for it.
      expect((r?.answeredAtMs ?? 0) - (r?.receivedAtMs ?? 0)).toBeGreaterThan(delayMs / 2);
    }
    // Each arrived before the other was answered.
    expect(first?.receivedAtMs).toBeLessThan(second?.answeredAtMs ?? 0);
    expect(second?.receivedAtMs).toBeLessThan(first?.answeredAtMs ?? 0);
    // Neither was answered when the other was looked up; once answered, the prompt is cached.
    expect([a, b].map((x) => x.usage?.prompt_tokens_details?.cached_tokens)).toEqual([0, 0]);
    expect(c.usage?.prompt_tokens_details?.cached_tokens).toBe(Math.floor((c.usage?.prompt_tokens ?? 0) / 128) * 128);
  });

  it('answers at once by default, recording when each request arrived and was answered', async () => {
    const server = await start({ m: [say('a')] });
    await clientFor(server).chat.completions.create({ model: 'm', messages: prompt });
    const [r] = server.requests;
    expect(r?.answeredAtMs).toBeGreaterThanOrEqual(r?.receivedAtMs ?? Number.POSITIVE_INFINITY);
  });
});

describe('prompt cache model', () => {
  it('counts ceil(chars / 4) per chunk, tools first, then messages', () => {
    const chunks = serializePrompt([{ type: 'function' }], [{ role: 'user', content: 'hi' }]);
    expect(chunks).toEqual(['tool:{"type":"function"}', 'message:{"content":"hi","role":"user"}']);
    expect(tokensOf('')).toBe(0);
    expect(tokensOf('abcd')).toBe(1);
    expect(tokensOf('abcde')).toBe(2);
    expect(countTokens(chunks)).toBe(Math.ceil(chunks[0]!.length / 4) + Math.ceil(chunks[1]!.length / 4));
  });

  it('ignores key order in messages but not in tool schemas', () => {
    const a = serializePrompt([{ a: 1, b: 2 }], [{ role: 'user', content: 'x' }]);
    const b = serializePrompt([{ b: 2, a: 1 }], [{ content: 'x', role: 'user' }]);
    expect(a[1]).toBe(b[1]);
    expect(a[0]).not.toBe(b[0]);
  });

  it('shares whole chunks, then whole 4-character tokens of the first differing chunk', () => {
    expect(sharedPrefixTokens(['abcdefgh', 'xyz'], ['abcdefgh', 'xyz', 'more'])).toBe(3);
    expect(sharedPrefixTokens(['abcdefgh'], ['abcdefgX'])).toBe(1);
    expect(sharedPrefixTokens(['abcdef'], ['abcdefgh'])).toBe(1);
    expect(sharedPrefixTokens(['X'], ['abcdefgh'])).toBe(0);
  });

  it('rounds down to 128-token blocks and starts at 1024', () => {
    expect(reportableCachedTokens(1023)).toBe(0);
    expect(reportableCachedTokens(1024)).toBe(1024);
    expect(reportableCachedTokens(1151)).toBe(1024);
    expect(reportableCachedTokens(1152)).toBe(1152);
  });

  it('measures against the best earlier prompt of the same partition only', () => {
    const cache = new PromptCache();
    const long = 'x'.repeat(4 * 1300);
    cache.remember('p', ['short']);
    cache.remember('p', [long, 'tail']);
    expect(cache.lookup('p', [long, 'other'])).toBe(1280);
    expect(cache.lookup('q', [long, 'other'])).toBe(0);
  });
});
