import { z } from 'zod';
import { errorMessage } from '../text/error-message.js';

/**
 * What a failed GitHub request means for the person running plangate. Octokit's errors carry the
 * status and GitHub's message, but "Resource not accessible by integration" does not say which
 * workflow permission is missing; this names the setting or permission to change.
 */
export type GitHubErrorKind = 'pull-requests-disabled' | 'missing-permission' | 'rate-limited' | 'not-found' | 'other';

export interface GitHubErrorExplanation {
  kind: GitHubErrorKind;
  /** What happened and what to change, in words a repository admin can act on. */
  message: string;
}

/** The parts of an Octokit RequestError this module reads; anything else thrown parses to less. */
const requestErrorShape = z.looseObject({
  status: z.number().optional(),
  message: z.string().optional(),
  request: z.looseObject({ method: z.string().optional(), url: z.string().optional() }).optional(),
  response: z
    .looseObject({
      headers: z.record(z.string(), z.unknown()).optional(),
      data: z.unknown().optional(),
    })
    .optional(),
});

type RequestErrorShape = z.infer<typeof requestErrorShape>;

const messageShape = z.looseObject({ message: z.string() });

/** The first error in the cause chain that looks like a failed HTTP request, if any. */
function requestErrorIn(error: unknown): RequestErrorShape | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    const parsed = requestErrorShape.safeParse(current);
    if (parsed.success && parsed.data.status !== undefined) return parsed.data;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The HTTP status of a failed Octokit request (500 for a network error or timeout), if it was one. */
export function statusOf(error: unknown): number | undefined {
  return requestErrorIn(error)?.status;
}

/** GitHub's own `message` from the response body, else the error's message. */
function gitHubMessage(failure: RequestErrorShape | undefined, error: unknown): string {
  const body = messageShape.safeParse(failure?.response?.data);
  if (body.success) return body.data.message;
  if (failure?.message) return failure.message;
  return errorMessage(error);
}

/**
 * Whether GitHub may have carried out a request that failed: a 5xx, a reset connection or a
 * timeout says nothing about whether the write was stored, while a 4xx is GitHub refusing it.
 * A non-HTTP error (say, a bug before sending) is treated as unknown too: looking costs a read,
 * a duplicate costs a second comment or pull request.
 */
export function outcomeUnknown(error: unknown): boolean {
  const status = statusOf(error);
  return status === undefined || status >= 500;
}

const PULL_REQUESTS_DISABLED = /GitHub Actions is not permitted to create or approve pull requests/i;
const NOT_ACCESSIBLE = /Resource not accessible by (integration|personal access token)/i;
const RATE_LIMIT = /rate limit/i;

/** The workflow permission a request path needs; `write` unless the request only reads. */
function permissionFor(method: string, url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url, 'https://api.github.invalid').pathname;
  } catch {
    return undefined;
  }
  const access = method.toUpperCase() === 'GET' ? 'read' : 'write';
  const area = /^\/repos\/[^/]+\/[^/]+\/([^/]+)/.exec(path)?.[1];
  switch (area) {
    case 'pulls':
      return `pull-requests: ${access}`;
    case 'issues':
      return `issues: ${access}`;
    case 'git':
    case 'contents':
      return `contents: ${access}`;
    case 'actions':
      return `actions: ${access}`;
    default:
      return undefined;
  }
}

function describeRequest(failure: RequestErrorShape | undefined): string {
  const method = failure?.request?.method;
  const url = failure?.request?.url;
  if (!method || !url) return 'a GitHub request';
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // Not an absolute URL: show it as it is.
  }
  return `${method} ${path}`;
}

/**
 * Classifies a failed GitHub call and says what to fix. Every kind but `other` is a problem with
 * the repository's settings, the workflow's permissions or GitHub's limits, never with plangate's
 * input, so the message names the setting or permission rather than repeating the HTTP status.
 */
export function explainGitHubError(error: unknown): GitHubErrorExplanation {
  const failure = requestErrorIn(error);
  const status = failure?.status;
  const said = gitHubMessage(failure, error);
  const request = describeRequest(failure);
  const headers = failure?.response?.headers ?? {};

  if (status === 403 && PULL_REQUESTS_DISABLED.test(said)) {
    return {
      kind: 'pull-requests-disabled',
      message:
        'GitHub Actions may not create pull requests in this repository. Enable Settings → Actions → General → ' +
        'Workflow permissions → "Allow GitHub Actions to create and approve pull requests" (for an organization ' +
        "repository, the organization's Actions settings must allow it as well).",
    };
  }
  if (
    status === 429 ||
    ((status === 403 || status === undefined) && RATE_LIMIT.test(said)) ||
    headers['x-ratelimit-remaining'] === '0'
  ) {
    return {
      kind: 'rate-limited',
      message: `GitHub's rate limit refused ${request} even after waiting and retrying (${said}). Re-run the job later; if it keeps happening, plangate runs too often for this token.`,
    };
  }
  if (status === 403 && NOT_ACCESSIBLE.test(said)) {
    const permission = permissionFor(failure?.request?.method ?? '', failure?.request?.url ?? '');
    const grant = permission
      ? `add \`${permission}\` to the \`permissions:\` block of the workflow that runs plangate`
      : 'grant the workflow token the permission this request needs in the `permissions:` block of the workflow that runs plangate';
    return {
      kind: 'missing-permission',
      message: `The workflow token may not do ${request} (${said}): ${grant}.`,
    };
  }
  if (status === 404) {
    return {
      kind: 'not-found',
      message: `GitHub answered 404 for ${request}: it does not exist, or the workflow token cannot see it.`,
    };
  }
  if (status === undefined) return { kind: 'other', message: said };
  // Octokit reports a network failure or timeout as a 500 with no response: GitHub never answered.
  if (failure?.response === undefined)
    return { kind: 'other', message: `No answer from GitHub for ${request}: ${said}` };
  return { kind: 'other', message: `GitHub answered ${status} for ${request}: ${said}` };
}

/** What went wrong, in words a user can act on: a GitHub error names the setting or permission to fix. */
export function failureMessage(error: unknown): string {
  return statusOf(error) !== undefined ? explainGitHubError(error).message : errorMessage(error);
}
