import { APIConnectionTimeoutError, APIError } from 'openai';
import type { Role } from '../machine/fields.js';
import { redact } from '../text/redact.js';
import { code } from '../text/markdown.js';
import { isJsonType, type NotJsonAnswer } from './answer-body.js';
import { ModelError, type ProviderCause } from './model-error.js';
import { formatWait, type AttemptFailure } from './retry-policy.js';

/**
 * The one classifier of model failures. Whatever went wrong between plangate and a provider (a
 * refused connection, an unknown host, a certificate, no answer in time, a rejected key, an unknown
 * model, a quota, a context window, the provider's own trouble, an answer that is no chat completion)
 * becomes one ModelError whose message says which role, which model, which endpoint (host and path,
 * never a key or a query string), the cause in plain words and one hint that fits it. That message
 * is what the log, the thread and the job summary show.
 */

/** What a classification needs to know about the role's endpoint. */
export interface ProviderContext {
  role: Role;
  model: string;
  baseURL: string;
  /** Values that must not appear in the message (the key). */
  secrets: readonly string[];
  /** How the host names the settings a hint points at; the action's inputs when not given. */
  words?: SettingWords;
}

/**
 * The settings a hint tells the reader to check, in the words of the host they configured: the
 * action's inputs in a workflow, the CLI's flags and variables in a terminal. A hint that names a
 * setting the reader cannot find is no hint.
 */
export interface SettingWords {
  /** The API key, as the subject of "Check …: it must be a valid key". */
  key(role: Role): string;
  url(role: Role): string;
  model(role: Role): string;
  retries: string;
  timeout: string;
  /** How the reader tries again: "Re-run the job". */
  rerun: string;
  /** Whose network a failed connection may be about. */
  network: string;
}

/** The action's inputs. */
export const actionSettingWords: SettingWords = {
  key: (role) => `the \`${role}-api-key\` (or \`api-key\`) secret`,
  url: (role) => `\`${role}-base-url\` (or \`base-url\`)`,
  model: (role) => `\`${role}-model\``,
  retries: 'model-retries',
  timeout: 'model-timeout',
  rerun: 'Re-run the job',
  network: "the runner's network",
};

/** One failed attempt as the SDK reported it, with what the classifier and the retry policy read. */
export interface ObservedFailure extends AttemptFailure {
  /** The provider's own words (its error body's message), when it answered. */
  providerMessage?: string;
  /** For a failure without an answer: the low-level error code (ECONNREFUSED, ...), when known. */
  systemCode?: string;
  /** An error answer that was not JSON: its content type and body, as something other than the API answers. */
  notJson?: { contentType: string; body: string };
}

/** How the request went in the end: the attempts made, the time allowed per attempt, why retries stopped. */
export interface AttemptSummary {
  attempts: number;
  timeoutMs: number;
  /** Set when retries stopped for a reason other than the failure's kind. */
  gaveUp?: string;
}

/** Reads a thrown SDK error into what the retry policy and the classifier need. */
export function observeFailure(error: unknown): ObservedFailure {
  if (error instanceof APIConnectionTimeoutError) return { headers: {}, network: 'timeout' };
  if (error instanceof APIError && error.status !== undefined) {
    const headers: Record<string, string> = {};
    (error.headers as Headers | undefined)?.forEach(
      (value: string, name: string) => (headers[name.toLowerCase()] = value),
    );
    const body = error.error as { message?: unknown; code?: unknown } | undefined;
    const code = typeof error.code === 'string' ? error.code : typeof body?.code === 'string' ? body.code : undefined;
    const message = typeof body?.message === 'string' ? body.message : undefined;
    const contentType = headers['content-type'] ?? '';
    // The client puts a body that is not JSON into its message, after the status.
    const notJson =
      error.error === undefined && !isJsonType(contentType)
        ? { contentType, body: error.message.replace(/^\d{3} /, '') }
        : undefined;
    return {
      status: error.status,
      headers,
      ...(code ? { code } : {}),
      ...(message ? { providerMessage: message } : {}),
      ...(notJson ? { notJson } : {}),
    };
  }
  const systemCode = systemCodeOf(error);
  return { headers: {}, network: networkKind(systemCode), ...(systemCode ? { systemCode } : {}) };
}

/** The low-level code somewhere in the cause chain (fetch wraps it; happy eyeballs aggregates it). */
function systemCodeOf(error: unknown, depth = 0): string | undefined {
  if (depth > 6 || typeof error !== 'object' || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && /^[A-Z_0-9]+$/.test(code)) return code;
  const nested = systemCodeOf(cause, depth + 1);
  if (nested) return nested;
  if (Array.isArray(errors)) for (const inner of errors) return systemCodeOf(inner, depth + 1);
  return undefined;
}

function networkKind(code: string | undefined): NonNullable<AttemptFailure['network']> {
  if (code === undefined) return 'connection';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'dns';
  if (code.includes('CERT') || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('SELF_SIGNED'))
    return 'tls';
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT')
    return 'timeout';
  return 'connection';
}

/** `host/path/chat/completions` of a base URL: no scheme's credentials, no query, no fragment. */
export function endpointLabel(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.host}${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  } catch {
    return 'an endpoint whose URL does not parse';
  }
}

/** The failure as the ModelError every caller sees. */
export function classifyProviderFailure(
  failure: ObservedFailure,
  context: ProviderContext,
  summary: AttemptSummary,
): ModelError {
  // A proxy's login or error page, or a website's, at a status an API uses for its own answers: not the API.
  if (failure.status !== undefined && failure.notJson && [401, 403, 404, 405, 407].includes(failure.status))
    return notJsonAnswer({ status: failure.status, ...failure.notJson }, context);
  const { cause, words, hint } = explain(failure, context, summary);
  const who = `The ${context.role} model "${context.model}" at ${endpointLabel(context.baseURL)}`;
  const said = failure.providerMessage && showsProviderWords(cause) ? providerWords(failure.providerMessage) : '';
  const text = `${who} ${words}${said ? ` (the provider said: "${said}")` : ''}. ${hint}`;
  return new ModelError(context.role, context.model, clean(redact(text, context.secrets)), {
    cause,
    ...(failure.status !== undefined ? { status: failure.status } : {}),
  });
}

/** A ModelError for an answer that is no usable chat completion. */
export function malformedCompletion(detail: string, context: ProviderContext): ModelError {
  const who = `The ${context.role} model "${context.model}" at ${endpointLabel(context.baseURL)}`;
  const text = `${who} returned a malformed chat completion: ${trimWords(detail, 400)}. Check that ${wordsOf(context).url(context.role)} points at an OpenAI-compatible Chat Completions API (it usually ends in /v1) and that the model supports tool calls.`;
  return new ModelError(context.role, context.model, clean(redact(text, context.secrets)), { cause: 'malformed' });
}

/**
 * A ModelError for an answer that is not JSON at all: something other than a Chat Completions API
 * answered (a website, a proxy's login page). Says what answered, in its first words, and where the
 * base URL should point.
 */
export function notJsonAnswer(
  answer: Pick<NotJsonAnswer, 'status' | 'contentType' | 'body'>,
  context: ProviderContext,
): ModelError {
  const who = `The ${context.role} model "${context.model}" at ${endpointLabel(context.baseURL)}`;
  const type = answer.contentType.split(';')[0]?.trim() || 'no content type';
  const start = firstWords(answer.body);
  const text =
    `${who} did not answer JSON: HTTP ${answer.status}, ${type}, ${start ? `starting ${code(start)}` : 'an empty body'}. Something other than a Chat Completions API answered (a website, or a proxy's login page). ` +
    `Check that ${wordsOf(context).url(context.role)} is the API's base URL: for most providers it ends in /v1 (https://api.openai.com/v1, https://api.deepseek.com/v1, http://localhost:11434/v1 for Ollama), and a proxy between here and the provider must let API requests through.`;
  return new ModelError(context.role, context.model, clean(redact(text, context.secrets)), {
    cause: 'not-json',
    status: answer.status,
  });
}

/** The first words a reader of the page would see: tags, scripts and styles left out, keys masked, short. */
function firstWords(body: string): string {
  const words = body
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&amp;/gi, '&')
    .replace(/&#?\w+;/g, ' ')
    .replace(/\bsk-[A-Za-z0-9*_.-]{3,}/g, '***')
    .replace(/\s+/g, ' ')
    .trim();
  if (words.length <= 80) return words;
  const cut = words.slice(0, 80);
  const space = cut.lastIndexOf(' ');
  return `${space > 40 ? cut.slice(0, space) : cut}…`;
}

interface Explanation {
  cause: ProviderCause;
  words: string;
  hint: string;
}

function explain(failure: ObservedFailure, context: ProviderContext, summary: AttemptSummary): Explanation {
  const tries =
    summary.attempts > 1 ? ` (${summary.attempts} attempts${summary.gaveUp ? `; ${summary.gaveUp}` : ''})` : '';
  const later = `${wordsOf(context).rerun} when the provider has recovered`;
  const { status } = failure;
  if (status === undefined) return explainNetwork(failure, context, summary, tries, later);
  const words = wordsOf(context);
  const settings = { key: words.key(context.role), url: words.url(context.role), model: words.model(context.role) };
  if (status === 401)
    return {
      cause: 'key',
      words: 'rejected the API key (HTTP 401)',
      hint: `Check ${settings.key}: it must be a valid key for this endpoint.`,
    };
  if (status === 403)
    return {
      cause: 'forbidden',
      words: 'refused access (HTTP 403)',
      hint: `The key may lack access to this model or project, or the provider blocks this region; check the key's permissions, or use ${settings.model} to pick a model the key may use.`,
    };
  if (status === 404)
    return {
      cause: 'not-found',
      words: 'does not know this model or path (HTTP 404)',
      hint: `Check that ${settings.model} names a model this endpoint serves and that ${settings.url} ends where the API starts (usually …/v1).`,
    };
  if (status === 429 && failure.code === 'insufficient_quota')
    return {
      cause: 'quota',
      words: 'refused the request because the account has exhausted its quota (HTTP 429, insufficient_quota)',
      hint: 'Add credit or raise the spending limit of the account the key belongs to; waiting does not help.',
    };
  if (status === 429)
    return {
      cause: 'rate-limit',
      words: `kept answering "rate limited" (HTTP 429)${tries}`,
      hint: `${words.rerun} later, raise ${words.retries}, or ask the provider for a higher rate limit.`,
    };
  if (contextTooLong(failure))
    return {
      cause: 'context',
      words: `refused the request because the conversation no longer fits the model's context window (HTTP ${status})`,
      hint: `Use a model with a larger context window (${settings.model}), or split the work into smaller objectives.`,
    };
  if (status >= 500)
    return {
      cause: 'server',
      words: `kept failing with a provider error (HTTP ${status})${tries}`,
      hint: `${later}, or raise ${words.retries} to wait out longer outages.`,
    };
  if (status === 408 || status === 409)
    return { cause: 'server', words: `kept answering HTTP ${status}${tries}`, hint: `${later}.` };
  return {
    cause: 'bad-request',
    words: `rejected the request (HTTP ${status})`,
    hint: `Check that ${settings.model} supports tool calls on this endpoint.`,
  };
}

function explainNetwork(
  failure: ObservedFailure,
  context: ProviderContext,
  summary: AttemptSummary,
  tries: string,
  later: string,
): Explanation {
  const words = wordsOf(context);
  const url = words.url(context.role);
  const code = failure.systemCode ? `, ${failure.systemCode}` : '';
  switch (failure.network) {
    case 'refused':
      return {
        cause: 'refused',
        words: `could not be reached: the connection was refused${tries}`,
        hint: `Check ${url}: nothing accepts connections at that host and port.`,
      };
    case 'dns':
      return {
        cause: 'dns',
        words: `could not be reached: the host name does not resolve (DNS failure${code})`,
        hint: `Check the host name in ${url}.`,
      };
    case 'tls':
      return {
        cause: 'tls',
        words: `could not be reached securely: the TLS handshake failed${code ? ` (${failure.systemCode})` : ''}`,
        hint: `Check that ${url} uses the right scheme and host; a private certificate authority must be trusted through NODE_EXTRA_CA_CERTS.`,
      };
    case 'timeout':
      return {
        cause: 'timeout',
        words: `did not answer within ${formatWait(summary.timeoutMs)}${tries}`,
        hint: `The provider may be overloaded: ${later.toLowerCase()}, or raise ${words.timeout} if its answers take longer.`,
      };
    default:
      return {
        cause: 'connection',
        words: `could not be reached: the connection failed${code ? ` (${failure.systemCode})` : ''}${tries}`,
        hint: `${later}; if it keeps failing, check ${url} and ${words.network}.`,
      };
  }
}

function contextTooLong(failure: ObservedFailure): boolean {
  if (failure.code === 'context_length_exceeded') return true;
  return /context length|context window|maximum context|too many tokens|prompt is too long/i.test(
    failure.providerMessage ?? '',
  );
}

/** The provider's words help where the cause has detail (which model, which field); a 401's may quote the key. */
function showsProviderWords(cause: ProviderCause): boolean {
  return cause === 'forbidden' || cause === 'not-found' || cause === 'bad-request' || cause === 'context';
}

const wordsOf = (context: ProviderContext): SettingWords => context.words ?? actionSettingWords;

/** A provider's message, one line, masked keys (OpenAI quotes part of a rejected one), bounded. */
function providerWords(message: string): string {
  // Quoted on GitHub too: no markup, no code spans, no HTML from a provider's text.
  const masked = message
    .replace(/\bsk-[A-Za-z0-9*_.-]{3,}/g, '***')
    .replace(/"/g, "'")
    .replace(/[<>`]/g, '');
  return trimWords(
    masked
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[.\s]+$/, ''),
    300,
  );
}

function trimWords(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** No doubled stops, no stop after a closing parenthesis that already follows one. */
function clean(text: string): string {
  return text.replace(/\.{2,}(?!\.)/g, '.').replace(/\.\s*\./g, '.');
}
