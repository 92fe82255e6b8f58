import type { GitHubClient } from './client.js';
import type { RepoRef, ThreadOptions } from './thread-api.js';
import { writeOnce } from './write-once.js';
import { inputDefaults } from '../config/defaults.js';
import { fitBody, githubBodyLimit } from '../text/limits.js';
import { redact } from '../text/redact.js';
import { maskedText } from '../repo/credential-mask.js';

/**
 * What every part of a thread shares: the client, the repository, who the bot is and how a body is
 * made safe to post. The parts (GraphQL reads, comments, pull requests, issues, repository) each
 * take one scope, so the redaction, the credential scan and the size limit are decided in one place
 * for all of them.
 */
export interface ThreadScope {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  /** The login the token posts as; only its comments and issues can be a lost attempt's result. */
  botLogin: string;
  /** Backoff unit between attempts of a creating write. */
  retryDelayMs: number;
  /**
   * A body with the secrets cut out, every credential the scan finds masked by rule, and fitted under
   * `limit` (GitHub's body limit by default).
   */
  safe(body: string, limit?: number): Promise<string>;
  /** A title made safe the same way (titles are short: GitHub's own limit cuts them). */
  safeTitle(title: string): Promise<string>;
}

/** Three tries in all: enough to ride out a blip, few enough that a real outage fails the step soon. */
const CREATE_ATTEMPTS = 3;
const DEFAULT_RETRY_DELAY_MS = 1000;

/** Turns off plugin-retry for one request: a blind resend of a creating write can duplicate it. */
export const NO_BLIND_RETRY = { retries: 0 } as const;

/** `secrets` are cut out of every body the thread posts. */
export function threadScope(
  octokit: GitHubClient,
  repoRef: RepoRef,
  secrets: readonly string[],
  options: ThreadOptions,
): ThreadScope {
  return {
    octokit,
    owner: repoRef.owner,
    repo: repoRef.repo,
    botLogin: options.botLogin ?? inputDefaults['bot-login'],
    retryDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
    safe: async (body, limit = githubBodyLimit) => fitBody(await maskedText(redact(body, secrets)), limit),
    safeTitle: (title) => maskedText(redact(title, secrets)),
  };
}

/**
 * A creating write (comment, issue, pull request) sent at most once, with the thread's attempts and
 * backoff: `send` must pass {@link NO_BLIND_RETRY}, `find` looks for what a lost attempt stored.
 */
export function createOnce<T>(
  scope: ThreadScope,
  send: () => Promise<T>,
  find: () => Promise<T | undefined>,
): Promise<T> {
  return writeOnce({ attempts: CREATE_ATTEMPTS, delayMs: scope.retryDelayMs, send, find });
}
