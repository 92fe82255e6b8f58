import type { Fetch } from './timeout-fetch.js';

/** The smallest wait the throttling plugin reads as a wait rather than as "no header": 1 ms. */
const IMMEDIATELY = '0.001';

/**
 * Wraps a fetch so GitHub's `retry-after: 0` means "retry now". Octokit's throttling plugin reads
 * the header with `Number(value) || fallback`, so a 0 counts as missing and a secondary rate limit
 * that asked for no wait at all would be waited out for a full minute.
 */
export function honourZeroRetryAfter(base: Fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.headers.get('retry-after')?.trim() !== '0') return response;
    const headers = new Headers(response.headers);
    headers.set('retry-after', IMMEDIATELY);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
