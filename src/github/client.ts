import * as core from '@actions/core';
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';

/**
 * The Octokit client plangate talks to GitHub with. `getOctokit` brings the runner's proxy settings
 * and the GitHub Enterprise Server base URL; the retry plugin absorbs transient 5xx answers and the
 * throttling plugin waits out primary and secondary rate limits a bounded number of times.
 */
export type GitHubClient = ReturnType<typeof getOctokit>;

const maxRateLimitRetries = 2;

export function createGitHubClient(token: string, apiUrl: string): GitHubClient {
  return getOctokit(
    token,
    {
      baseUrl: apiUrl,
      userAgent: 'plangate',
      retry: { retries: 3 },
      throttle: {
        onRateLimit: (retryAfter, options, _octokit, retryCount) => {
          core.warning(`GitHub rate limit hit on ${options.method} ${options.url}; retry ${retryCount + 1} in ${retryAfter}s.`);
          return retryCount < maxRateLimitRetries;
        },
        onSecondaryRateLimit: (retryAfter, options, _octokit, retryCount) => {
          core.warning(`GitHub secondary rate limit on ${options.method} ${options.url}; retry ${retryCount + 1} in ${retryAfter}s.`);
          return retryCount < maxRateLimitRetries;
        },
      },
    },
    retry,
    throttling,
  );
}
