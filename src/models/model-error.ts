import type { Role } from '../machine/fields.js';

/**
 * What went wrong with a model request, in the words a reader acts on: `key` (rejected API key),
 * `quota` (the account's credit is gone) and `rate-limit` differ in what fixes them, and so on.
 */
export type ProviderCause =
  | 'refused'
  | 'dns'
  | 'tls'
  | 'timeout'
  | 'connection'
  | 'key'
  | 'forbidden'
  | 'not-found'
  | 'quota'
  | 'rate-limit'
  | 'context'
  | 'bad-request'
  | 'server'
  | 'malformed'
  | 'not-json'
  | 'client';

/**
 * A model request that failed for good: the provider refused it after plangate's retries, the
 * connection failed, or the answer was not a usable chat completion. Its message (built by
 * provider-error.ts) names the role, the model and the endpoint, says the cause in plain words and
 * gives one hint that fits, so a user can tell which of the two configured endpoints to fix. It
 * never carries the API key: these messages end up in logs and in comments on GitHub.
 */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  /** The cause, for callers that choose a reaction or a wording by it. */
  readonly kind: ProviderCause;
  /**
   * The provider's HTTP status, when it answered at all. Not `status`: that name marks a failed
   * GitHub request to the code that explains those (github/errors.ts).
   */
  readonly httpStatus?: number;

  constructor(
    readonly role: Role,
    readonly model: string,
    message: string,
    details: { cause: ProviderCause; status?: number },
  ) {
    super(message);
    this.kind = details.cause;
    if (details.status !== undefined) this.httpStatus = details.status;
  }
}

/** The model failure behind a thrown value: the value itself, or what a host's stop carries. */
export function modelFailureOf(error: unknown): ModelError | undefined {
  if (error instanceof ModelError) return error;
  const carried = (error as { modelError?: unknown } | null)?.modelError;
  return carried instanceof ModelError ? carried : undefined;
}
