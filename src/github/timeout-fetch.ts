/** The fetch signature Octokit calls; declared here so any compatible implementation can be wrapped. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Raised when GitHub did not answer a request in time; its message names the request. */
export class GitHubTimeoutError extends Error {
  override name = 'GitHubTimeoutError';
}

/**
 * Wraps a fetch so every request gives up after `timeoutMs`. Octokit sets no deadline of its own,
 * and a connection GitHub never answers would otherwise hold the job until the runner kills it.
 * The error is an ordinary one (not an AbortError), so Octokit reports it as a failed request
 * (status 500) that the retry plugin and plangate's idempotent writes treat like any lost answer.
 */
export function fetchWithTimeout(base: Fetch, timeoutMs: number): Fetch {
  return async (input, init = {}) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      return await base(input, { ...init, signal });
    } catch (error) {
      // Only our own deadline is reworded; a caller's abort stays the caller's.
      if (deadline.aborted && !(init.signal?.aborted ?? false)) {
        const method = init.method ?? 'GET';
        const url = input instanceof Request ? input.url : String(input);
        throw new GitHubTimeoutError(`GitHub did not answer ${method} ${url} within ${timeoutMs} ms`, { cause: error });
      }
      throw error;
    }
  };
}
