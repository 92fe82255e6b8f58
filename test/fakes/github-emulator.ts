import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RestEndpointMethodTypes } from '@octokit/rest';
import { ACTIONS_ROUTES, workflowRunShape, type RunConclusion, type RunStatus } from './github-emulator-actions.js';
import { openOrigin } from './github-emulator-git.js';
import { GIT_DATA_ROUTES } from './github-emulator-git-data.js';
import { REVIEW_ROUTES, reviewCommentJson, reviewStore } from './github-emulator-reviews.js';
import { answerGraphql, GRAPHQL_DOCS, graphqlUnauthorized } from './github-emulator-graphql.js';
import { errorReply, notFound, ROUTES, type Reply, type Route, type RouteRequest } from './github-emulator-routes.js';
import { EMULATED_REPO_ID, type RepoRole, type UserType } from './github-emulator-shapes.js';
import { characterCount, EmulatorSetupError, GITHUB_BODY_LIMIT, GitHubState } from './github-emulator-state.js';

export type { RepoRole } from './github-emulator-shapes.js';
export type { RunConclusion, RunStatus } from './github-emulator-actions.js';
export { EmulatorSetupError, GITHUB_BODY_LIMIT } from './github-emulator-state.js';

/**
 * The web (html_url) base of every emulated object. A reserved `.example` host rather than the
 * emulator's own address, so links rendered into comments and pull requests are the same on every
 * run whatever port the emulator got; set GITHUB_SERVER_URL to it when running the action.
 */
export const GITHUB_EMULATOR_SERVER_URL = 'https://github.example';

/** Objects as GitHub's REST API returns them; the unit test checks them against the OpenAPI description. */
export type EmulatedIssue = RestEndpointMethodTypes['issues']['get']['response']['data'];
export type EmulatedComment = RestEndpointMethodTypes['issues']['getComment']['response']['data'];
export type EmulatedPull = RestEndpointMethodTypes['pulls']['get']['response']['data'];
export type EmulatedReaction = RestEndpointMethodTypes['reactions']['createForIssueComment']['response']['data'];
export type EmulatedWorkflowRun = RestEndpointMethodTypes['actions']['getWorkflowRun']['response']['data'];

/** A workflow permission area a token can be denied (the workflow's `permissions:` keys). */
export type PermissionArea = 'pull-requests' | 'contents' | 'issues';

/**
 * What `failAfter` does once the request has been served: answer with this status instead of the
 * real answer, destroy the connection without answering (`reset`), or never answer at all (`hang`,
 * until the client gives up or the emulator closes).
 */
export type AfterFault = number | 'reset' | 'hang';

/** GitHub's words for a secondary rate limit; the throttling plugin recognises one by "secondary rate". */
export const SECONDARY_RATE_LIMIT_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID PLANGATE:000000.';

/**
 * The failure GitHub sends for a secondary rate limit, for `failNext(method, path, 403, n, ...)`:
 * Octokit's throttling plugin retries a 403 or 429 whose message says "secondary rate", after
 * `retry-after` seconds (a minute when the header is missing or 0).
 */
export function secondaryRateLimit(retryAfterSeconds = 1): FailureInit {
  return {
    body: {
      message: SECONDARY_RATE_LIMIT_MESSAGE,
      documentation_url:
        'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      status: '403',
    },
    headers: { 'retry-after': String(retryAfterSeconds) },
  };
}

export interface GitHubEmulatorOptions {
  owner: string;
  repo: string;
  /** Defaults to `main`. */
  defaultBranch?: string;
  /** The only token accepted, as `token <t>` or `Bearer <t>`. */
  token: string;
  /**
   * Bare git repository playing `origin`: pull request heads and bases are looked up in it and
   * refused when missing or empty, as GitHub does. Without it every branch name exists and shas are
   * derived from the name.
   */
  originPath?: string;
  /** Private repositories answer 404 for the permission of a login they have no grant for. */
  private?: boolean;
  /** Whom the token acts as (author of what the API creates); defaults to `github-actions[bot]`. */
  tokenLogin?: string;
  /**
   * Where the emulated clock starts, in ms since the epoch (default 2024-01-01T00:00:00Z). A world
   * whose action compares GitHub's timestamps with its own clock (an approval's age) starts it at the
   * test's wall-clock time, as GitHub's and a runner's clocks agree.
   */
  clockStartMs?: number;
}

/** One request the emulator answered, for tests that assert on what the action sent. */
export interface RequestLogEntry {
  /** `graphql` for `/graphql`, whose answers GitHub's OpenAPI description does not cover. */
  api: 'rest' | 'graphql';
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  /** The request body: parsed JSON, the raw text when it was not JSON, undefined when empty. */
  body: unknown;
  /**
   * The OpenAPI path template that answered, or null when none did (401, 404, injected failure)
   * and always for GraphQL, which has no OpenAPI operation to check the answer against.
   */
  route: string | null;
  /** The response body sent back. */
  response: unknown;
  /**
   * Set when `failAfter` replaced the answer after the request was served. For `reset` and `hang`
   * no answer was sent and `status` is 0.
   */
  fault?: AfterFault;
}

/** Options for an injected failure; the default body is GitHub's error shape for the status. */
export interface FailureInit {
  body?: unknown;
  headers?: Record<string, string>;
}

export interface GitHubEmulator {
  /** API base, no trailing slash: GITHUB_API_URL, or Octokit's `baseUrl`. */
  readonly url: string;
  /** html_url base: GITHUB_SERVER_URL. Always GITHUB_EMULATOR_SERVER_URL. */
  readonly serverUrl: string;
  /** Everything answered so far, oldest first. */
  readonly requests: readonly RequestLogEntry[];
  close(): Promise<void>;

  setPermission(login: string, role: RepoRole): void;
  /** Moves GitHub's clock on by `ms`, as days passing: what is created after carries the later time. */
  advanceClock(ms: number): void;
  addIssue(input: { title: string; body?: string; login: string; labels?: string[] }): EmulatedIssue;
  addPullRequest(input: {
    title: string;
    body?: string;
    login: string;
    head: string;
    base?: string;
    draft?: boolean;
    /**
     * A pull request from a fork owned by this account: its head names the fork (`fork: true`) and
     * its commit is origin's branch `head` at the time, or the base's when origin has no such branch.
     */
    forkOwner?: string;
  }): EmulatedPull;
  addComment(issueNumber: number, input: { login: string; body: string; type?: UserType }): EmulatedComment;
  /**
   * Edits a comment as `login`, the way a person (or another app) does in the web UI: GraphQL then
   * names that account as the comment's editor, which is what plangate checks before believing a plan.
   */
  editComment(commentId: number, input: { login: string; body: string; type?: UserType }): EmulatedComment;
  /** Deletes a comment the way a person does in the web UI (no API call logged). */
  deleteComment(commentId: number): void;

  /** Changes an issue's title or body the way its author does in the web UI (no API call logged). */
  updateIssue(issueNumber: number, input: { title?: string; body?: string }): EmulatedIssue;

  /**
   * A reviewer's comment on a line of a pull request's diff (`outdated`: on code that changed since).
   * On a thread's first comment, `resolvedBy` resolves the thread as that account, which GraphQL's
   * reviewThreads tells (GitHub lets the pull request's author resolve any thread); `resolved` alone
   * resolves it as the comment's own author.
   */
  addReviewComment(
    pull: number,
    input: {
      login: string;
      body: string;
      path: string;
      line: number;
      outdated?: boolean;
      inReplyTo?: number;
      resolved?: boolean;
      resolvedBy?: string;
    },
  ): Record<string, unknown>;
  /** A submitted review with its verdict and summary. */
  addReview(pull: number, input: { login: string; body: string; state: string }): { id: number; submitted_at: string };
  /** A completed check run on a commit, with the annotations it left. */
  addCheckRun(
    sha: string,
    input: {
      name: string;
      conclusion: string;
      annotations?: { path: string; line: number; level?: string; title?: string; message: string }[];
    },
  ): { id: number };

  comments(issueNumber: number): EmulatedComment[];
  pulls(): EmulatedPull[];
  reactions(commentId: number): EmulatedReaction[];
  issue(issueNumber: number): EmulatedIssue | undefined;
  /**
   * Answers the next `times` requests whose method matches and whose path matches `path` with
   * `status` instead of serving them (after authentication, before any side effect). `POST /graphql`
   * fails the same way; a 200 with a custom body injects a canned GraphQL answer.
   */
  failNext(method: string, path: RegExp | string, status: number, times?: number, init?: FailureInit): void;
  /**
   * Serves the next `times` matching requests (their side effects happen: the comment is stored,
   * the ref moves) and then answers with `fault` instead: a status (with `init`'s body and headers),
   * a reset connection or no answer at all. This is the "GitHub stored it but the answer was lost" case.
   */
  failAfter(method: string, path: RegExp | string, fault: AfterFault, times?: number, init?: FailureInit): void;
  /**
   * Settles with the first request from now on whose method and path match, once it has been served
   * (its side effects happened), whether or not an answer was sent: a test's cue to act at that moment.
   */
  served(method: string, path: RegExp | string): Promise<RequestLogEntry>;

  /** Registers a workflow run (or moves it on), for `GET /repos/{o}/{r}/actions/runs/{id}`. */
  setRun(runId: number | string, status: RunStatus, conclusion?: RunConclusion): EmulatedWorkflowRun;
  /**
   * Turns off "Allow GitHub Actions to create and approve pull requests": creating a pull request
   * answers 403 as GitHub does for an Actions token then.
   */
  forbidActionsPullRequests(forbidden?: boolean): void;
  /**
   * Withholds a workflow permission: writes needing it answer 403 "Resource not accessible by
   * integration". A pull request's conversation accepts `issues` or `pull-requests`, so a comment
   * there fails only when both are denied. Pushes to origin are plain git and are not affected.
   */
  denyPermission(area: PermissionArea): void;
  /** Gives a denied permission back. */
  grantPermission(area: PermissionArea): void;
}

interface Failure {
  method: string;
  path: RegExp;
  status: number;
  remaining: number;
  init: FailureInit;
}

interface LateFailure {
  method: string;
  path: RegExp;
  fault: AfterFault;
  remaining: number;
  init: FailureInit;
}

function compilePath(path: RegExp | string): RegExp {
  // Without the stateful flags, RegExp.test answers the same for the same path every time.
  return typeof path === 'string' ? new RegExp(path) : new RegExp(path.source, path.flags.replace(/[gy]/g, ''));
}

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  keys: string[];
}

/** Fixed rate-limit headers: plenty left, so Octokit's throttling plugin never waits. */
const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': '5000',
  'x-ratelimit-remaining': '4999',
  'x-ratelimit-used': '1',
  'x-ratelimit-reset': String(Date.UTC(2030, 0, 1) / 1000),
  'x-ratelimit-resource': 'core',
};

const STATUS_MESSAGES: Readonly<Record<number, string>> = {
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Validation Failed',
  429: 'Too Many Requests',
  500: 'Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function compile(route: Route): CompiledRoute {
  const keys: string[] = [];
  const source = route.template.replace(/\{(\w+)\}/g, (_, key: string) => {
    keys.push(key);
    // A git ref name spans segments (`heads/feature/x`); GitHub takes it with or without encoded slashes.
    return key === 'ref' ? '(.+?)' : '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}/?$`), keys };
}

const COMPILED = [...ROUTES, ...GIT_DATA_ROUTES, ...ACTIONS_ROUTES, ...REVIEW_ROUTES].map(compile);

const INTEGRATION_DENIED = 'Resource not accessible by integration';
const ACTIONS_MAY_NOT_CREATE_PULLS = 'GitHub Actions is not permitted to create or approve pull requests.';

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function tokenOf(header: string | undefined): string | undefined {
  const match = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Starts a loopback HTTP server that answers like GitHub's REST API for one repository, so the
 * bundled action can run end to end with GITHUB_API_URL pointing at it. Ids and timestamps come from
 * counters: the same calls in the same order give the same bodies on every run.
 */
export async function startGitHubEmulator(options: GitHubEmulatorOptions): Promise<GitHubEmulator> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const defaultBranch = options.defaultBranch ?? 'main';
  const state = new GitHubState(
    {
      apiUrl: url,
      serverUrl: GITHUB_EMULATOR_SERVER_URL,
      owner: options.owner,
      repo: options.repo,
      defaultBranch,
      private: options.private ?? false,
      repoId: EMULATED_REPO_ID,
      repoCreatedAt: '2023-12-31T00:00:00Z',
    },
    options.originPath === undefined ? undefined : openOrigin(options.originPath),
    options.clockStartMs,
  );
  const caller = state.user(options.tokenLogin ?? 'github-actions[bot]');
  const log: RequestLogEntry[] = [];
  const failures: Failure[] = [];
  const lateFailures: LateFailure[] = [];
  const waiters: { method: string; path: RegExp; settle: (entry: RequestLogEntry) => void }[] = [];
  const denied = new Set<PermissionArea>();
  let actionsMayCreatePulls = true;
  let requestCount = 0;

  function route(
    method: string,
    pathname: string,
  ): { compiled: CompiledRoute; params: Record<string, string> } | undefined {
    for (const compiled of COMPILED) {
      if (compiled.route.method !== method) continue;
      const match = compiled.pattern.exec(pathname);
      if (!match) continue;
      const params: Record<string, string> = {};
      try {
        compiled.keys.forEach((key, index) => {
          params[key] = decodeURIComponent(match[index + 1] ?? '');
        });
      } catch {
        return undefined;
      }
      const sameRepo =
        params.owner?.toLowerCase() === options.owner.toLowerCase() &&
        params.repo?.toLowerCase() === options.repo.toLowerCase();
      return sameRepo ? { compiled, params } : undefined;
    }
    return undefined;
  }

  function takeFailure(method: string, pathname: string): Failure | undefined {
    const failure = failures.find((f) => f.remaining > 0 && f.method === method && f.path.test(pathname));
    if (failure) failure.remaining -= 1;
    return failure;
  }

  function takeLateFailure(method: string, pathname: string): LateFailure | undefined {
    const failure = lateFailures.find((f) => f.remaining > 0 && f.method === method && f.path.test(pathname));
    if (failure) failure.remaining -= 1;
    return failure;
  }

  /** The thread a write touches, for writes whose permission depends on it being a pull request. */
  function threadOf(params: Readonly<Record<string, string>>): ReturnType<typeof state.issues.get> {
    const number = (raw: string | undefined) => (raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : -1);
    if (params.comment_id !== undefined) {
      const comment = state.commentRecords.get(number(params.comment_id));
      return comment ? state.issues.get(comment.issueNumber) : undefined;
    }
    return state.issues.get(number(params.issue_number ?? params.pull_number));
  }

  /**
   * The refusals that come from the repository's settings rather than from the request: a
   * withheld workflow permission, or Actions not being allowed to open pull requests.
   */
  function settingsRefusal(matched: Route, params: Readonly<Record<string, string>>): Reply | undefined {
    if (matched.writes !== undefined) {
      const areas: PermissionArea[] =
        matched.writes === 'thread'
          ? threadOf(params)?.pull
            ? ['issues', 'pull-requests']
            : ['issues']
          : [matched.writes];
      if (areas.every((area) => denied.has(area))) return errorReply(403, INTEGRATION_DENIED, matched.docs);
    }
    if (!actionsMayCreatePulls && matched.method === 'POST' && matched.template === '/repos/{owner}/{repo}/pulls') {
      return errorReply(403, ACTIONS_MAY_NOT_CREATE_PULLS, matched.docs);
    }
    return undefined;
  }

  /** Runs a handler; a fault in the emulator must show up in the test, not pass as a GitHub outage. */
  function guarded(answer: () => Reply): Reply {
    try {
      return answer();
    } catch (error) {
      return errorReply(
        500,
        `plangate GitHub emulator fault: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = (request.method ?? 'GET').toUpperCase();
    const target = new URL(request.url ?? '/', url);
    const raw = await readBody(request);
    let body: unknown = raw === '' ? undefined : raw;
    let parsedJson = raw === '';
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
        parsedJson = true;
      } catch {
        // Kept as text for the log; answered with GitHub's 400 below once auth has passed.
      }
    }

    let reply: Reply;
    let template: string | null = null;
    const graphql = target.pathname === '/graphql';
    const token = tokenOf(request.headers.authorization);
    const authorized = token === options.token;
    const failure = authorized ? takeFailure(method, target.pathname) : undefined;

    if (!authorized) {
      reply = graphql
        ? graphqlUnauthorized(request.headers.authorization !== undefined)
        : errorReply(401, 'Bad credentials');
    } else if (failure) {
      reply = {
        status: failure.status,
        body: failure.init.body ?? errorReply(failure.status, STATUS_MESSAGES[failure.status] ?? 'Error').body,
        headers: failure.init.headers ?? {},
      };
    } else if (!parsedJson) {
      reply = errorReply(400, 'Problems parsing JSON', graphql ? GRAPHQL_DOCS : undefined);
    } else if (graphql) {
      // GitHub takes GraphQL only as a POST; anything else there is a path it does not serve.
      reply =
        method === 'POST'
          ? guarded(() =>
              answerGraphql(state, body, caller, { mayWritePullRequests: () => !denied.has('pull-requests') }),
            )
          : notFound(GRAPHQL_DOCS);
    } else {
      const found = route(method, target.pathname);
      if (!found) {
        reply = notFound();
      } else {
        const { route: matched } = found.compiled;
        const refusal = settingsRefusal(matched, found.params);
        if (refusal) {
          // Like an injected failure: GitHub's OpenAPI description need not list this answer.
          reply = refusal;
        } else {
          template = matched.template;
          const routeRequest: RouteRequest = {
            params: found.params,
            query: target.searchParams,
            body,
            caller,
            selfUrl: `${url}${target.pathname}`,
          };
          reply = guarded(() => matched.handle(state, routeRequest));
        }
      }
    }

    // The request has been served (its side effects happened); a late failure now loses the answer.
    const late = authorized && !failure ? takeLateFailure(method, target.pathname) : undefined;
    if (late && typeof late.fault === 'number') {
      reply = {
        status: late.fault,
        body: late.init.body ?? errorReply(late.fault, STATUS_MESSAGES[late.fault] ?? 'Error').body,
        headers: late.init.headers ?? {},
      };
      template = null;
    }

    requestCount += 1;
    const silent = late !== undefined && typeof late.fault !== 'number';
    const entry: RequestLogEntry = {
      api: graphql ? 'graphql' : 'rest',
      method,
      path: target.pathname,
      query: Object.fromEntries(target.searchParams),
      status: silent ? 0 : reply.status,
      body,
      route: silent ? null : template,
      response: silent ? undefined : reply.body,
      ...(late ? { fault: late.fault } : {}),
    };
    log.push(entry);
    for (const waiter of waiters.filter((w) => w.method === method && w.path.test(target.pathname))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.settle(entry);
    }
    if (late?.fault === 'reset') {
      response.socket?.destroy();
      return;
    }
    // Never answered: the socket stays open until the client gives up or close() ends it.
    if (late?.fault === 'hang') return;
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    response.writeHead(reply.status, {
      'content-type': 'application/json; charset=utf-8',
      'x-github-media-type': 'github.v3; format=json',
      'x-github-api-version-selected': '2022-11-28',
      'x-github-request-id': `PLANGATE:${String(requestCount).padStart(6, '0')}`,
      ...RATE_LIMIT_HEADERS,
      ...reply.headers,
      'content-length': String(Buffer.byteLength(text)),
    });
    response.end(text);
  }

  server.on('request', (request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });

  function requireIssue(issueNumber: number): NonNullable<ReturnType<typeof state.issues.get>> {
    const issue = state.issues.get(issueNumber);
    if (!issue) throw new EmulatorSetupError(`no issue or pull request #${issueNumber}`);
    return issue;
  }

  function requireBodyWithinLimit(body: string | undefined): void {
    if (body !== undefined && characterCount(body) > GITHUB_BODY_LIMIT) {
      throw new EmulatorSetupError(`GitHub never holds a body over ${GITHUB_BODY_LIMIT} characters`);
    }
  }

  return {
    url,
    serverUrl: GITHUB_EMULATOR_SERVER_URL,
    requests: log,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Octokit keeps connections alive; without this close() would wait for them to time out.
        server.closeAllConnections();
      }),

    setPermission: (login, role) => state.setRole(login, role),
    advanceClock: (ms) => state.advanceClock(ms),
    addIssue: (input) => {
      requireBodyWithinLimit(input.body);
      const issue = state.createIssue({
        title: input.title,
        body: input.body ?? null,
        user: state.user(input.login),
        labels: input.labels ?? [],
      });
      return state.issueJson(issue) as EmulatedIssue;
    },
    addPullRequest: (input) => {
      requireBodyWithinLimit(input.body);
      const base = input.base ?? defaultBranch;
      const baseSha = state.branchSha(base);
      const headSha = state.branchSha(input.head) ?? (input.forkOwner ? baseSha : undefined);
      if (headSha === undefined) throw new EmulatorSetupError(`branch ${input.head} is not in origin`);
      if (baseSha === undefined) throw new EmulatorSetupError(`branch ${base} is not in origin`);
      const issue = state.createPull({
        title: input.title,
        body: input.body ?? null,
        user: state.user(input.login),
        head: input.head,
        base,
        headSha,
        baseSha,
        draft: input.draft ?? false,
        ...(input.forkOwner ? { headOwner: input.forkOwner } : {}),
      });
      return state.pullJson(issue) as EmulatedPull;
    },
    addComment: (issueNumber, input) => {
      requireBodyWithinLimit(input.body);
      const comment = state.createComment(requireIssue(issueNumber), input.body, state.user(input.login, input.type));
      return state.commentJson(comment) as EmulatedComment;
    },
    editComment: (commentId, input) => {
      requireBodyWithinLimit(input.body);
      const comment = state.commentRecords.get(commentId);
      if (!comment) throw new EmulatorSetupError(`no comment ${commentId}`);
      state.editComment(comment, input.body, state.user(input.login, input.type));
      return state.commentJson(comment) as EmulatedComment;
    },
    deleteComment: (commentId) => {
      if (!state.commentRecords.delete(commentId)) throw new EmulatorSetupError(`no comment ${commentId}`);
    },

    updateIssue: (issueNumber, input) => {
      requireBodyWithinLimit(input.body);
      const issue = requireIssue(issueNumber);
      if (input.title !== undefined) issue.title = input.title;
      if (input.body !== undefined) issue.body = input.body;
      issue.updatedAt = state.now();
      return state.issueJson(issue) as EmulatedIssue;
    },

    addReviewComment: (pull, input) => {
      const store = reviewStore(state);
      const record = {
        id: store.nextId++,
        pull,
        user: state.user(input.login),
        body: input.body,
        path: input.path,
        line: input.line,
        position: input.outdated ? null : input.line,
        ...(input.inReplyTo !== undefined ? { inReplyTo: input.inReplyTo } : {}),
        ...(input.resolvedBy !== undefined || input.resolved
          ? { resolvedBy: state.user(input.resolvedBy ?? input.login) }
          : {}),
        createdAt: state.now(),
      };
      store.comments.push(record);
      return reviewCommentJson(state, record);
    },
    addReview: (pull, input) => {
      const store = reviewStore(state);
      const review = {
        id: store.nextId++,
        pull,
        user: state.user(input.login),
        body: input.body,
        state: input.state,
        submittedAt: state.now(),
      };
      store.reviews.push(review);
      return { id: review.id, submitted_at: review.submittedAt };
    },
    addCheckRun: (sha, input) => {
      const store = reviewStore(state);
      const run = {
        id: store.nextId++,
        sha,
        name: input.name,
        conclusion: input.conclusion,
        annotations: (input.annotations ?? []).map((a) => ({ level: 'failure', title: '', ...a })),
      };
      store.checkRuns.push(run);
      return { id: run.id };
    },
    comments: (issueNumber) => state.commentsOf(issueNumber).map((c) => state.commentJson(c) as EmulatedComment),
    pulls: () =>
      [...state.issues.values()]
        .filter((issue) => issue.pull !== undefined)
        .map((issue) => state.pullJson(issue) as EmulatedPull),
    reactions: (commentId) => state.reactionsOf(commentId).map((r) => state.reactionJson(r) as EmulatedReaction),
    issue: (issueNumber) => {
      const issue = state.issues.get(issueNumber);
      return issue ? (state.issueJson(issue) as EmulatedIssue) : undefined;
    },
    failNext: (method, path, status, times = 1, init = {}) => {
      failures.push({ method: method.toUpperCase(), path: compilePath(path), status, remaining: times, init });
    },
    failAfter: (method, path, fault, times = 1, init = {}) => {
      lateFailures.push({ method: method.toUpperCase(), path: compilePath(path), fault, remaining: times, init });
    },
    served: (method, path) =>
      new Promise((settle) => waiters.push({ method: method.toUpperCase(), path: compilePath(path), settle })),

    setRun: (runId, status, conclusion) => {
      const id = Number(runId);
      if (!Number.isSafeInteger(id) || id <= 0)
        throw new EmulatorSetupError(`workflow run ids are positive integers, not ${runId}`);
      const run = state.setRun(id, status, conclusion);
      const head = state.branchSha(defaultBranch) ?? '0'.repeat(40);
      return workflowRunShape(state.ctx, run, head, null) as EmulatedWorkflowRun;
    },
    forbidActionsPullRequests: (forbidden = true) => {
      actionsMayCreatePulls = !forbidden;
    },
    denyPermission: (area) => {
      denied.add(area);
    },
    grantPermission: (area) => {
      denied.delete(area);
    },
  };
}
