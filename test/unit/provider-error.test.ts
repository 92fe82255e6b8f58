import { describe, expect, it } from 'vitest';
import {
  classifyProviderFailure,
  endpointLabel,
  malformedCompletion,
  type ObservedFailure,
  type ProviderContext,
} from '../../src/models/provider-error.js';

const KEY = 'sk-proj-plangate-secret-abcdefghijklmnop';
const planner = { role: 'planner' as const, model: 'gpt-4.1', baseURL: 'https://api.openai.com/v1', secrets: [KEY] };
const executor = { ...planner, role: 'executor' as const, model: 'deepseek-chat', baseURL: 'https://api.deepseek.com' };
const once = { attempts: 1, timeoutMs: 180_000 };
const seven = { attempts: 7, timeoutMs: 180_000 };

const classify = (failure: Partial<ObservedFailure>, context: ProviderContext = planner, summary = once) =>
  classifyProviderFailure({ headers: {}, ...failure }, context, summary);

describe('classifyProviderFailure', () => {
  it.each<[string, Partial<ObservedFailure>, string, string]>([
    [
      'a refused connection',
      { network: 'refused', systemCode: 'ECONNREFUSED' },
      'the connection was refused',
      'Check `planner-base-url` (or `base-url`)',
    ],
    [
      'an unknown host',
      { network: 'dns', systemCode: 'ENOTFOUND' },
      'the host name does not resolve (DNS failure, ENOTFOUND)',
      'Check the host name',
    ],
    [
      'a certificate',
      { network: 'tls', systemCode: 'CERT_HAS_EXPIRED' },
      'the TLS handshake failed (CERT_HAS_EXPIRED)',
      'NODE_EXTRA_CA_CERTS',
    ],
    ['no answer', { network: 'timeout' }, 'did not answer within 3 min', 'raise model-timeout'],
    [
      'a reset connection',
      { network: 'connection', systemCode: 'ECONNRESET' },
      'the connection failed (ECONNRESET)',
      'Re-run the job',
    ],
    [
      'a rejected key',
      { status: 401, providerMessage: 'Incorrect API key provided: sk-proj-****mnop.' },
      'rejected the API key (HTTP 401)',
      'Check the `planner-api-key` (or `api-key`) secret',
    ],
    [
      'a forbidden model',
      { status: 403, providerMessage: 'Project does not have access to model gpt-4.1' },
      'refused access (HTTP 403)',
      "key's permissions",
    ],
    [
      'an unknown model',
      { status: 404, providerMessage: 'The model `gpt-5x` does not exist.' },
      'does not know this model or path (HTTP 404)',
      'Check that `planner-model` names a model',
    ],
    [
      'an exhausted quota',
      { status: 429, code: 'insufficient_quota' },
      'exhausted its quota (HTTP 429, insufficient_quota)',
      'Add credit',
    ],
    ['a rate limit', { status: 429, code: 'rate_limit_exceeded' }, 'rate limited" (HTTP 429)', 'raise model-retries'],
    [
      'a long context',
      {
        status: 400,
        code: 'context_length_exceeded',
        providerMessage: "This model's maximum context length is 128000 tokens.",
      },
      "no longer fits the model's context window",
      'split the work into smaller objectives',
    ],
    [
      'a provider error',
      { status: 503 },
      'kept failing with a provider error (HTTP 503)',
      'Re-run the job when the provider has recovered',
    ],
    [
      'a bad request',
      { status: 400, providerMessage: 'tools are not supported' },
      'rejected the request (HTTP 400)',
      'supports tool calls',
    ],
  ])('names %s with its fix', (_label, failure, cause, hint) => {
    const error = classify(failure);
    expect(error.message).toMatch(/^The planner model "gpt-4\.1" at api\.openai\.com\/v1\/chat\/completions /);
    expect(error.message).toContain(cause);
    expect(error.message).toContain(hint);
    expect(error.message).not.toMatch(/\.\.|state |failed in state/);
    expect(error.message).not.toContain('more specific objective');
    expect(error.message).not.toContain('sk-proj');
    expect(error.message.endsWith('.')).toBe(true);
  });

  it('says only hints that fit: a rejected key is no capacity problem, a timeout no key problem', () => {
    expect(classify({ status: 401 }).message).not.toMatch(/re-run|model-retries|model-timeout/i);
    expect(classify({ network: 'timeout' }).message).not.toMatch(/api-key/);
  });

  it('counts the attempts of a failure that was retried', () => {
    const error = classify({ status: 502 }, executor, seven);
    expect(error.message).toContain(
      'The executor model "deepseek-chat" at api.deepseek.com/chat/completions kept failing with a provider error (HTTP 502) (7 attempts).',
    );
    expect(error.kind).toBe('server');
    expect(error.httpStatus).toBe(502);
    expect(error.role).toBe('executor');
  });

  it("quotes the provider's words where they help, masked and on one line", () => {
    const error = classify({ status: 404, providerMessage: `The model "x" does\nnot exist; key ${KEY}..` });
    expect(error.message).toContain(`(the provider said: "The model 'x' does not exist; key ***")`);
  });

  it('never shows a key, a query string or credentials of the URL', () => {
    const context = { ...planner, baseURL: `https://user:pass@proxy.example.com:8443/openai/v1/?api-key=${KEY}` };
    const error = classify({ status: 401, providerMessage: `Incorrect API key ${KEY}` }, context);
    expect(error.message).toContain('at proxy.example.com:8443/openai/v1/chat/completions ');
    expect(error.message).not.toMatch(/pass|api-key=|sk-proj/);
  });

  it('labels endpoints by host and path', () => {
    expect(endpointLabel('http://127.0.0.1:11434/v1/')).toBe('127.0.0.1:11434/v1/chat/completions');
    expect(endpointLabel('not a url')).toBe('an endpoint whose URL does not parse');
  });

  it('says a malformed completion with where to look', () => {
    const error = malformedCompletion('choices: expected array', executor);
    expect(error.message).toBe(
      'The executor model "deepseek-chat" at api.deepseek.com/chat/completions returned a malformed chat completion: choices: expected array. Check that `executor-base-url` (or `base-url`) points at an OpenAI-compatible Chat Completions API (it usually ends in /v1) and that the model supports tool calls.',
    );
    expect(error.kind).toBe('malformed');
  });
});
