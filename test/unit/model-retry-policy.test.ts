import { describe, expect, it } from 'vitest';
import {
  decideRetry,
  defaultRetryLimits,
  formatWait,
  parseDuration,
  providerWaitMs,
  type AttemptFailure,
  type RetryLimits,
} from '../../src/models/retry-policy.js';
import { withRetries } from '../../src/models/retry-loop.js';
import { ModelError } from '../../src/models/model-error.js';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';

const limits: RetryLimits = { ...defaultRetryLimits, retries: 6 };
const half = () => 0.5;
const status = (code: number, headers: Record<string, string> = {}, extra: Partial<AttemptFailure> = {}) => ({
  status: code,
  headers,
  ...extra,
});

describe('retry policy: what is retried', () => {
  it.each([408, 409, 429, 500, 502, 503, 504, 529])('retries HTTP %i', (code) => {
    expect(decideRetry(status(code), 1, 0, limits, half).retry).toBe(true);
  });

  it.each([400, 401, 403, 404, 422])('never retries HTTP %i', (code) => {
    expect(decideRetry(status(code), 1, 0, limits, half)).toEqual({ retry: false });
  });

  it('never retries an exhausted quota, which no wait brings back', () => {
    expect(decideRetry(status(429, {}, { code: 'insufficient_quota' }), 1, 0, limits).retry).toBe(false);
  });

  it('believes a provider that says not to retry', () => {
    expect(decideRetry(status(500, { 'x-should-retry': 'false' }), 1, 0, limits).retry).toBe(false);
  });

  it('retries timeouts and lost connections, refused ones and unknown hosts at most twice, TLS never', () => {
    const net = (network: AttemptFailure['network']) => ({ headers: {}, network });
    expect(decideRetry(net('timeout'), 6, 0, limits, half).retry).toBe(true);
    expect(decideRetry(net('connection'), 6, 0, limits, half).retry).toBe(true);
    expect(decideRetry(net('refused'), 2, 0, limits, half).retry).toBe(true);
    expect(decideRetry(net('refused'), 3, 0, limits, half).retry).toBe(false);
    expect(decideRetry(net('dns'), 3, 0, limits, half).retry).toBe(false);
    expect(decideRetry(net('tls'), 1, 0, limits, half).retry).toBe(false);
  });

  it('stops after model-retries retries', () => {
    expect(decideRetry(status(503), 6, 0, limits, half).retry).toBe(true);
    expect(decideRetry(status(503), 7, 0, limits, half).retry).toBe(false);
    expect(decideRetry(status(503), 1, 0, { ...limits, retries: 0 }, half).retry).toBe(false);
  });
});

describe('retry policy: how long it waits', () => {
  it('backs off exponentially with jitter between half and all of each step', () => {
    const waits = [1, 2, 3, 4, 5, 6].map((attempt) => decideRetry(status(500), attempt, 0, limits, () => 0));
    expect(waits.map((d) => (d.retry ? d.waitMs : -1))).toEqual([500, 1000, 2000, 4000, 8000, 15000]);
    const top = decideRetry(status(500), 3, 0, limits, () => 0.999);
    expect(top.retry && top.waitMs).toBeGreaterThan(3990);
    expect(top.retry && top.waitMs).toBeLessThanOrEqual(4000);
  });

  it('honours retry-after, retry-after-ms and an HTTP date', () => {
    expect(decideRetry(status(429, { 'retry-after': '1' }), 1, 0, limits)).toEqual({
      retry: true,
      waitMs: 1000,
      source: 'retry-after',
    });
    expect(providerWaitMs(status(503, { 'retry-after-ms': '250', 'retry-after': '9' }))).toEqual({
      ms: 250,
      source: 'retry-after-ms',
    });
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(providerWaitMs(status(503, { 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)?.ms).toBe(3000);
    expect(providerWaitMs(status(503, { 'retry-after': 'soon' }))).toBeUndefined();
  });

  it("takes a 429's rate-limit reset: the exhausted limit's, else the sooner one", () => {
    const both = { 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-reset-tokens': '6m0s' };
    expect(providerWaitMs(status(429, both))).toEqual({ ms: 1000, source: 'x-ratelimit-reset-requests' });
    expect(providerWaitMs(status(429, { ...both, 'x-ratelimit-remaining-tokens': '0' }))).toEqual({
      ms: 360_000,
      source: 'x-ratelimit-reset-tokens',
    });
    // Reset headers on other statuses say nothing about this failure.
    expect(providerWaitMs(status(500, both))).toBeUndefined();
  });

  it('gives up rather than wait longer than a minute at once or two minutes in all', () => {
    const long = status(429, { 'x-ratelimit-reset-tokens': '6m0s', 'x-ratelimit-remaining-tokens': '0' });
    expect(decideRetry(long, 1, 0, limits)).toEqual({ retry: false, why: 'the provider asked to wait 6 min' });
    expect(decideRetry(status(503, { 'retry-after': '30' }), 3, 100_000, limits).retry).toBe(false);
    const clipped = decideRetry(status(503), 6, 119_000, limits, half);
    expect(clipped).toEqual({ retry: true, waitMs: 1000, source: 'backoff' });
    expect(decideRetry(status(503), 6, 120_000, limits, half).retry).toBe(false);
  });

  it('sums to at most about two minutes over the default retries', () => {
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      const d = decideRetry(status(503), attempt, waited, { ...limits, retries: 20 }, () => 0.999);
      if (!d.retry) break;
      waited += d.waitMs;
    }
    expect(waited).toBeLessThanOrEqual(120_000);
  });
});

describe('OpenAI durations', () => {
  it.each([
    ['1s', 1000],
    ['6m0s', 360_000],
    ['20ms', 20],
    ['1h2m3.5s', 3_723_500],
    ['0.5', 500],
    ['2', 2000],
  ])('reads %s as %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'soon', '1x', '-1s'])('reads %j as none', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('formats waits for a log line', () => {
    expect([formatWait(350), formatWait(2500), formatWait(180_000)]).toEqual(['350 ms', '2.5 s', '3 min']);
  });
});

describe('the retry loop', () => {
  const context = { role: 'planner' as const, model: 'm', baseURL: 'https://api.example.com/v1?key=x', secrets: [] };
  const headers = (h: Record<string, string>) => new Headers(h);

  it('rides out 500, 500 and a 429 with retry-after, sleeping as told and logging each retry once', async () => {
    const failures = [
      APIError.generate(500, { error: { message: 'boom' } }, undefined, headers({})),
      APIError.generate(500, { error: { message: 'boom' } }, undefined, headers({})),
      APIError.generate(
        429,
        { error: { message: 'slow', code: 'rate_limit_exceeded' } },
        undefined,
        headers({ 'retry-after': '1' }),
      ),
    ];
    const slept: number[] = [];
    const lines: string[] = [];
    const result = await withRetries(
      async () => {
        const next = failures.shift();
        if (next) throw next;
        return 'ok';
      },
      context,
      {
        maxRetries: 6,
        timeoutMs: 1000,
        random: () => 0,
        sleep: async (ms) => void slept.push(ms),
        onRetry: (line) => lines.push(line),
      },
    );
    expect(result).toBe('ok');
    expect(slept).toEqual([500, 1000, 1000]);
    expect(lines).toEqual([
      'planner model "m": HTTP 500; retry 1 of 6 in 500 ms.',
      'planner model "m": HTTP 500; retry 2 of 6 in 1 s.',
      'planner model "m": HTTP 429 (rate_limit_exceeded); retry 3 of 6 in 1 s (retry-after).',
    ]);
  });

  it('throws the classified failure when the retries run out, with the attempts counted', async () => {
    let calls = 0;
    const error = await withRetries(
      async () => {
        calls += 1;
        throw new APIConnectionTimeoutError();
      },
      context,
      { maxRetries: 2, timeoutMs: 2000, sleep: async () => undefined, onRetry: () => undefined },
    ).catch((caught: unknown) => caught);
    expect(calls).toBe(3);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe(
      'The planner model "m" at api.example.com/v1/chat/completions did not answer within 2 s (3 attempts). The provider may be overloaded: re-run the job when the provider has recovered, or raise model-timeout if its answers take longer.',
    );
  });

  it('reads a refused connection from the cause fetch gives', async () => {
    const refused = new APIConnectionError({
      cause: Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
      }),
    });
    const lines: string[] = [];
    const error = await withRetries(
      async () => {
        throw refused;
      },
      context,
      { maxRetries: 6, timeoutMs: 1000, sleep: async () => undefined, onRetry: (l) => lines.push(l) },
    ).catch((caught: unknown) => caught as ModelError);
    expect(lines).toHaveLength(2);
    expect(error.kind).toBe('refused');
  });
});
