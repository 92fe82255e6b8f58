import type { Role } from '../machine/fields.js';

/**
 * A model request that failed for good: the provider refused it after the client's retries, the
 * connection failed, or the answer was not a usable chat completion. It names the role and model so
 * a user can tell which of the two configured endpoints to fix, and it never carries the API key:
 * these messages end up in logs and in comments on GitHub.
 */
export class ModelError extends Error {
  override readonly name = 'ModelError';

  constructor(
    readonly role: Role,
    readonly model: string,
    detail: string,
    /** The provider's HTTP status, when it answered at all. */
    readonly status?: number,
  ) {
    super(`${role} model "${model}": ${detail}`);
  }
}
