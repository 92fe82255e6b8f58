import { APIConnectionTimeoutError } from 'openai';

/**
 * Reads a provider's successful HTTP answer as JSON, or says that it was not JSON. A base URL that
 * points at a website, or a proxy that answers with its login page, answers 200 with HTML; the
 * `openai` client would hand that on as a string and the schema would report a validator's text.
 * Kept here instead: the status, the content type and the start of the body, for a sentence that
 * says what answered (provider-error.ts).
 */

/** An answer that is not JSON; never retried, since the same URL answers the same page. */
export class NotJsonAnswer extends Error {
  override readonly name = 'NotJsonAnswer';

  constructor(
    readonly status: number,
    readonly contentType: string,
    /** The body as received; provider-error.ts shows only its first words, sanitized. */
    readonly body: string,
  ) {
    super(`HTTP ${status} answered ${contentType || 'no content type'}, not JSON`);
  }
}

/** Whether a content type says JSON (`application/json`, `application/problem+json`, ...). */
export function isJsonType(contentType: string): boolean {
  const media = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return media.includes('application/json') || media.endsWith('+json');
}

/**
 * The answer's JSON value. A body that parses is taken whatever its content type says (some servers
 * label JSON text/plain); an empty one is undefined, for the schema to call malformed.
 */
export async function readJsonAnswer(response: Response): Promise<unknown> {
  let body: string;
  try {
    body = await response.text();
  } catch (error) {
    // The client's timeout aborts a body that stops arriving; it is the same failure as no answer.
    if ((error as { name?: unknown } | null)?.name === 'AbortError') throw new APIConnectionTimeoutError();
    throw error;
  }
  if (body.trim() === '') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new NotJsonAnswer(response.status, response.headers.get('content-type') ?? '', body);
  }
}
