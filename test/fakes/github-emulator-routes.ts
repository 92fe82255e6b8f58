import { z } from 'zod';
import {
  REACTION_CONTENTS,
  type IssueRecord,
  type ReactionContent,
  type UserRecord,
} from './github-emulator-shapes.js';
import { characterCount, GITHUB_BODY_LIMIT, type GitHubState } from './github-emulator-state.js';

/** One request as a route handler sees it, after authentication and JSON parsing. */
export interface RouteRequest {
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  body: unknown;
  /** Who the token belongs to: the author of anything the request creates. */
  caller: UserRecord;
  /** Absolute URL of the requested path without its query, the base for pagination links. */
  selfUrl: string;
}

/** What a handler answers; the server adds GitHub's common headers and logs it. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * The workflow permission a write needs (`permissions:` in the workflow). `thread` is `issues` on an
 * issue and `issues` or `pull-requests` on a pull request's conversation, as GitHub accepts either there.
 */
export type WriteArea = 'issues' | 'pull-requests' | 'contents' | 'thread';

/** One REST operation, named by the OpenAPI path template it answers for. */
export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  template: string;
  docs: string;
  /** Set on writes: the permission area a token must hold, checked before the handler runs. */
  writes?: WriteArea;
  handle(state: GitHubState, request: RouteRequest): Reply;
}

const DOCS = 'https://docs.github.com/rest';

/** GitHub's generic error body; recent GitHub adds the status as a string. */
export function errorReply(status: number, message: string, docs: string = DOCS): Reply {
  return { status, body: { message, documentation_url: docs, status: String(status) } };
}

/** GitHub's answer for anything the token may not see or that does not exist. */
export function notFound(docs: string = DOCS): Reply {
  return errorReply(404, 'Not Found', docs);
}

/** One entry of a 422 `errors` array, as GitHub words them. */
export interface FieldError {
  resource: string;
  code: string;
  field?: string;
  message?: string;
}

export function validationFailed(docs: string, errors: FieldError[]): Reply {
  return { status: 422, body: { message: 'Validation Failed', errors, documentation_url: docs, status: '422' } };
}

function tooLong(resource: string, docs: string): Reply {
  return validationFailed(docs, [
    {
      resource,
      code: 'custom',
      field: 'body',
      message: `body is too long (maximum is ${GITHUB_BODY_LIMIT} characters)`,
    },
  ]);
}

function bodyTooLong(body: string | null | undefined): boolean {
  return typeof body === 'string' && characterCount(body) > GITHUB_BODY_LIMIT;
}

/**
 * Parses a request body the way GitHub's schema check does: the first problem becomes a 422
 * "Invalid request" whose wording follows GitHub's.
 */
export function parseBody<T>(
  schema: z.ZodType<T>,
  body: unknown,
  docs: string,
): { ok: true; value: T } | { ok: false; reply: Reply } {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const key = issue?.path[0];
  let detail: string;
  if (key === undefined || body === null || typeof body !== 'object') {
    detail = `For 'links/0/schema', ${body === undefined ? 'nil' : JSON.stringify(body)} is not an object.`;
  } else {
    const value = (body as Record<string, unknown>)[String(key)];
    detail =
      value === undefined
        ? `"${String(key)}" wasn't supplied.`
        : `For 'properties/${String(key)}', ${JSON.stringify(value)} is not ${issue?.code === 'invalid_type' ? `a ${issue.expected}` : 'valid'}.`;
  }
  return { ok: false, reply: errorReply(422, `Invalid request.\n\n${detail}`, docs) };
}

const PER_PAGE_DEFAULT = 30;
const PER_PAGE_MAX = 100;

function positiveInt(raw: string | null, fallback: number): number {
  const value = raw === null ? Number.NaN : Number(raw);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** Slices a list the way GitHub pages it and writes the RFC 8288 Link header GitHub sends. */
export function paginate(items: readonly unknown[], request: RouteRequest): Reply {
  const perPage = Math.min(positiveInt(request.query.get('per_page'), PER_PAGE_DEFAULT), PER_PAGE_MAX);
  const page = positiveInt(request.query.get('page'), 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const body = items.slice((page - 1) * perPage, page * perPage);
  const link = (target: number, rel: string): string => {
    const query = new URLSearchParams(request.query);
    query.set('page', String(target));
    return `<${request.selfUrl}?${query.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  if (page > 1) links.push(link(1, 'first'));
  return { status: 200, body, headers: links.length > 0 ? { link: links.join(', ') } : {} };
}

/** Newest first unless asked otherwise, as GitHub sorts issue and pull request lists. */
function sortThreads(threads: IssueRecord[], query: URLSearchParams): IssueRecord[] {
  const key = query.get('sort') === 'updated' ? 'updatedAt' : 'createdAt';
  const sign = query.get('direction') === 'asc' ? 1 : -1;
  return threads.sort((a, b) => sign * (a[key].localeCompare(b[key]) || a.number - b.number));
}

export function issueNumber(request: RouteRequest, name: string): number | undefined {
  const raw = request.params[name] ?? '';
  return /^\d+$/.test(raw) ? Number(raw) : undefined;
}

export function created(body: Record<string, unknown>): Reply {
  return { status: 201, body, headers: typeof body.url === 'string' ? { location: body.url } : {} };
}

const labelNames = z.array(z.union([z.string(), z.object({ name: z.string() }).transform((label) => label.name)]));
const titleSchema = z.union([z.string(), z.number().transform(String)]);

const DOC = {
  repo: `${DOCS}/repos/repos#get-a-repository`,
  permission: `${DOCS}/collaborators/collaborators#get-repository-permissions-for-a-user`,
  listIssues: `${DOCS}/issues/issues#list-repository-issues`,
  createIssue: `${DOCS}/issues/issues#create-an-issue`,
  getIssue: `${DOCS}/issues/issues#get-an-issue`,
  updateIssue: `${DOCS}/issues/issues#update-an-issue`,
  addLabels: `${DOCS}/issues/labels#add-labels-to-an-issue`,
  listComments: `${DOCS}/issues/comments#list-issue-comments`,
  createComment: `${DOCS}/issues/comments#create-an-issue-comment`,
  getComment: `${DOCS}/issues/comments#get-an-issue-comment`,
  updateComment: `${DOCS}/issues/comments#update-an-issue-comment`,
  react: `${DOCS}/reactions/reactions#create-reaction-for-an-issue-comment`,
  listPulls: `${DOCS}/pulls/pulls#list-pull-requests`,
  createPull: `${DOCS}/pulls/pulls#create-a-pull-request`,
  getPull: `${DOCS}/pulls/pulls#get-a-pull-request`,
  updatePull: `${DOCS}/pulls/pulls#update-a-pull-request`,
  requestReviewers: `${DOCS}/pulls/review-requests#request-reviewers-for-a-pull-request`,
} as const;

/**
 * The issue and pull request operations; the emulator adds the git data and Actions ones
 * (scripts/extract-github-openapi.mjs extracts all of them).
 */
export const ROUTES: readonly Route[] = [
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}',
    docs: DOC.repo,
    handle: (state) => {
      const open = [...state.issues.values()].filter((issue) => issue.state === 'open').length;
      const shape = state.repositoryJson();
      return { status: 200, body: { ...shape, open_issues_count: open, open_issues: open } };
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/collaborators/{username}/permission',
    docs: DOC.permission,
    handle: (state, request) => {
      const login = request.params.username ?? '';
      const role = state.roleOf(login);
      if (role !== undefined) return { status: 200, body: state.permissionJson(login, role) };
      // Anyone can read a public repository; on a private one GitHub knows no such collaborator.
      if (!state.ctx.private) return { status: 200, body: state.permissionJson(login, 'read') };
      return notFound(DOC.permission);
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/issues',
    docs: DOC.listIssues,
    handle: (state, request) => {
      const wanted = request.query.get('state') ?? 'open';
      const creator = request.query.get('creator')?.toLowerCase();
      const labels = (request.query.get('labels') ?? '')
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name !== '');
      const threads = [...state.issues.values()].filter(
        (issue) =>
          (wanted === 'all' || issue.state === wanted) &&
          (creator === undefined || issue.user.login.toLowerCase() === creator) &&
          labels.every((name) => issue.labels.some((label) => label.name.toLowerCase() === name)),
      );
      return paginate(
        sortThreads(threads, request.query).map((issue) => state.issueJson(issue)),
        request,
      );
    },
  },
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/issues',
    docs: DOC.createIssue,
    writes: 'issues',
    handle: (state, request) => {
      const schema = z.object({
        title: titleSchema,
        body: z.string().nullable().optional(),
        labels: labelNames.optional(),
      });
      const parsed = parseBody(schema, request.body, DOC.createIssue);
      if (!parsed.ok) return parsed.reply;
      const input = parsed.value;
      if (bodyTooLong(input.body)) return tooLong('Issue', DOC.createIssue);
      const issue = state.createIssue({
        title: input.title,
        body: input.body ?? null,
        user: request.caller,
        labels: input.labels ?? [],
      });
      return created(state.issueJson(issue));
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/issues/{issue_number}',
    docs: DOC.getIssue,
    handle: (state, request) => {
      const issue = state.issues.get(issueNumber(request, 'issue_number') ?? -1);
      return issue ? { status: 200, body: state.issueJson(issue) } : notFound(DOC.getIssue);
    },
  },
  {
    method: 'PATCH',
    template: '/repos/{owner}/{repo}/issues/{issue_number}',
    docs: DOC.updateIssue,
    writes: 'thread',
    handle: (state, request) => {
      const issue = state.issues.get(issueNumber(request, 'issue_number') ?? -1);
      if (!issue) return notFound(DOC.updateIssue);
      const schema = z.object({
        title: titleSchema.optional(),
        body: z.string().nullable().optional(),
        state: z.string().optional(),
        state_reason: z.string().nullable().optional(),
        labels: labelNames.optional(),
      });
      const parsed = parseBody(schema, request.body ?? {}, DOC.updateIssue);
      if (!parsed.ok) return parsed.reply;
      const input = parsed.value;
      if (bodyTooLong(input.body)) return tooLong('Issue', DOC.updateIssue);
      if (input.state !== undefined && input.state !== 'open' && input.state !== 'closed') {
        return validationFailed(DOC.updateIssue, [{ resource: 'Issue', code: 'invalid', field: 'state' }]);
      }
      const reasons = ['completed', 'not_planned', 'duplicate', 'reopened'] as const;
      const reason = reasons.find((r) => r === input.state_reason);
      if (input.state_reason != null && reason === undefined) {
        return validationFailed(DOC.updateIssue, [{ resource: 'Issue', code: 'invalid', field: 'state_reason' }]);
      }
      if (input.title !== undefined) issue.title = input.title;
      if (input.body !== undefined) issue.body = input.body;
      if (input.labels !== undefined) state.setLabels(issue, input.labels);
      if (input.state !== undefined) state.setIssueState(issue, input.state, request.caller, reason);
      issue.updatedAt = state.now();
      return { status: 200, body: state.issueJson(issue) };
    },
  },
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/issues/{issue_number}/labels',
    docs: DOC.addLabels,
    writes: 'thread',
    handle: (state, request) => {
      const issue = state.issues.get(issueNumber(request, 'issue_number') ?? -1);
      if (!issue) return notFound(DOC.addLabels);
      // GitHub takes either a bare array of names or an object with a `labels` array.
      const schema = z.union([labelNames, z.object({ labels: labelNames }).transform((input) => input.labels)]);
      const parsed = parseBody(schema, request.body, DOC.addLabels);
      if (!parsed.ok) return parsed.reply;
      state.setLabels(issue, [...issue.labels.map((label) => label.name), ...parsed.value]);
      issue.updatedAt = state.now();
      return { status: 200, body: state.issueJson(issue).labels };
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    docs: DOC.listComments,
    handle: (state, request) => {
      const issue = state.issues.get(issueNumber(request, 'issue_number') ?? -1);
      if (!issue) return notFound(DOC.listComments);
      return paginate(
        state.commentsOf(issue.number).map((comment) => state.commentJson(comment)),
        request,
      );
    },
  },
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    docs: DOC.createComment,
    writes: 'thread',
    handle: (state, request) => {
      const issue = state.issues.get(issueNumber(request, 'issue_number') ?? -1);
      if (!issue) return notFound(DOC.createComment);
      const parsed = parseBody(z.object({ body: z.string() }), request.body, DOC.createComment);
      if (!parsed.ok) return parsed.reply;
      if (bodyTooLong(parsed.value.body)) return tooLong('IssueComment', DOC.createComment);
      return created(state.commentJson(state.createComment(issue, parsed.value.body, request.caller)));
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/issues/comments/{comment_id}',
    docs: DOC.getComment,
    handle: (state, request) => {
      const comment = state.commentRecords.get(issueNumber(request, 'comment_id') ?? -1);
      return comment ? { status: 200, body: state.commentJson(comment) } : notFound(DOC.getComment);
    },
  },
  {
    method: 'PATCH',
    template: '/repos/{owner}/{repo}/issues/comments/{comment_id}',
    docs: DOC.updateComment,
    writes: 'thread',
    handle: (state, request) => {
      const comment = state.commentRecords.get(issueNumber(request, 'comment_id') ?? -1);
      if (!comment) return notFound(DOC.updateComment);
      const parsed = parseBody(z.object({ body: z.string() }), request.body, DOC.updateComment);
      if (!parsed.ok) return parsed.reply;
      if (bodyTooLong(parsed.value.body)) return tooLong('IssueComment', DOC.updateComment);
      state.editComment(comment, parsed.value.body, request.caller);
      return { status: 200, body: state.commentJson(comment) };
    },
  },
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions',
    docs: DOC.react,
    writes: 'thread',
    handle: (state, request) => {
      const comment = state.commentRecords.get(issueNumber(request, 'comment_id') ?? -1);
      if (!comment) return notFound(DOC.react);
      const parsed = parseBody(z.object({ content: z.string() }), request.body, DOC.react);
      if (!parsed.ok) return parsed.reply;
      const content = REACTION_CONTENTS.find((c): c is ReactionContent => c === parsed.value.content);
      if (content === undefined) {
        return validationFailed(DOC.react, [
          { resource: 'Reaction', code: 'invalid', field: 'content', message: 'content is not included in the list' },
        ]);
      }
      const { reaction, created: isNew } = state.react(comment, request.caller, content);
      return { status: isNew ? 201 : 200, body: state.reactionJson(reaction) };
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/pulls',
    docs: DOC.listPulls,
    handle: (state, request) => {
      const wanted = request.query.get('state') ?? 'open';
      const head = request.query.get('head');
      const base = request.query.get('base');
      const threads = [...state.issues.values()].filter(
        (issue) =>
          issue.pull !== undefined &&
          (wanted === 'all' || issue.state === wanted) &&
          (head === null || headMatches(head, issue.pull.headOwner ?? state.ctx.owner, issue.pull.head)) &&
          (base === null || issue.pull.base === base),
      );
      return paginate(
        sortThreads(threads, request.query).map((issue) => state.pullSimpleJson(issue)),
        request,
      );
    },
  },
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/pulls',
    docs: DOC.createPull,
    writes: 'pull-requests',
    handle: (state, request) => createPull(state, request),
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}',
    docs: DOC.getPull,
    handle: (state, request) => {
      const issue = state.issues.get(issueNumber(request, 'pull_number') ?? -1);
      return issue?.pull ? { status: 200, body: state.pullJson(issue) } : notFound(DOC.getPull);
    },
  },
  {
    method: 'PATCH',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}',
    docs: DOC.updatePull,
    writes: 'pull-requests',
    handle: (state, request) => {
      const issue = state.issues.get(issueNumber(request, 'pull_number') ?? -1);
      if (!issue?.pull) return notFound(DOC.updatePull);
      const schema = z.object({
        title: z.string().optional(),
        body: z.string().nullable().optional(),
        state: z.enum(['open', 'closed']).optional(),
        base: z.string().optional(),
      });
      const parsed = parseBody(schema, request.body ?? {}, DOC.updatePull);
      if (!parsed.ok) return parsed.reply;
      const input = parsed.value;
      if (bodyTooLong(input.body)) return tooLong('PullRequest', DOC.updatePull);
      if (input.base !== undefined) {
        const baseSha = state.branchSha(input.base);
        if (baseSha === undefined) {
          return validationFailed(DOC.updatePull, [{ resource: 'PullRequest', code: 'invalid', field: 'base' }]);
        }
        issue.pull.base = input.base;
        issue.pull.baseSha = baseSha;
      }
      if (input.title !== undefined) issue.title = input.title;
      if (input.body !== undefined) issue.body = input.body;
      if (input.state !== undefined) state.setIssueState(issue, input.state, request.caller);
      issue.updatedAt = state.now();
      return { status: 200, body: state.pullJson(issue) };
    },
  },
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
    docs: DOC.requestReviewers,
    writes: 'pull-requests',
    handle: (state, request) => requestReviewers(state, request),
  },
];

/** Review requests, refused for the author and for non-collaborators in GitHub's words. */
function requestReviewers(state: GitHubState, request: RouteRequest): Reply {
  const docs = DOC.requestReviewers;
  const issue = state.issues.get(issueNumber(request, 'pull_number') ?? -1);
  if (!issue?.pull) return notFound(docs);
  const schema = z.object({
    reviewers: z.array(z.string()).optional(),
    team_reviewers: z.array(z.string()).optional(),
  });
  const parsed = parseBody(schema, request.body ?? {}, docs);
  if (!parsed.ok) return parsed.reply;
  const reviewers = parsed.value.reviewers ?? [];
  if (reviewers.some((login) => login.toLowerCase() === issue.user.login.toLowerCase())) {
    return errorReply(422, 'Review cannot be requested from pull request author.', docs);
  }
  const outsider = reviewers.some((login) => {
    const role = state.roleOf(login);
    return role === undefined || role === 'none';
  });
  if (outsider) {
    return errorReply(
      422,
      `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${state.ctx.owner}/${state.ctx.repo} repository.`,
      docs,
    );
  }
  const pull = issue.pull;
  const requested = [...(pull.requestedReviewers ?? [])];
  for (const login of reviewers) {
    if (!requested.some((user) => user.login.toLowerCase() === login.toLowerCase())) requested.push(state.user(login));
  }
  pull.requestedReviewers = requested;
  issue.updatedAt = state.now();
  return created(state.pullSimpleJson(issue));
}

/** `head` filters are `owner:branch`; a bare branch name is accepted too. */
function headMatches(filter: string, owner: string, branch: string): boolean {
  const colon = filter.indexOf(':');
  if (colon === -1) return filter === branch;
  return filter.slice(0, colon).toLowerCase() === owner.toLowerCase() && filter.slice(colon + 1) === branch;
}

/** Pull request creation, refused for the same reasons and in the same words as on GitHub. */
function createPull(state: GitHubState, request: RouteRequest): Reply {
  const docs = DOC.createPull;
  const schema = z.object({
    title: z.string().optional(),
    head: z.string(),
    base: z.string(),
    body: z.string().nullable().optional(),
    draft: z.boolean().optional(),
    maintainer_can_modify: z.boolean().optional(),
  });
  const parsed = parseBody(schema, request.body, docs);
  if (!parsed.ok) return parsed.reply;
  const input = parsed.value;
  if (input.title === undefined || input.title.trim() === '') {
    return validationFailed(docs, [{ resource: 'PullRequest', code: 'missing_field', field: 'title' }]);
  }
  if (bodyTooLong(input.body)) return tooLong('PullRequest', docs);
  const owner = state.ctx.owner;
  const colon = input.head.indexOf(':');
  const headOwner = colon === -1 ? owner : input.head.slice(0, colon);
  const head = colon === -1 ? input.head : input.head.slice(colon + 1);
  // Forks are out of scope: a head in another owner's repository is one this repository cannot see.
  const headSha = headOwner.toLowerCase() === owner.toLowerCase() ? state.branchSha(head) : undefined;
  const baseSha = state.branchSha(input.base);
  if (baseSha === undefined)
    return validationFailed(docs, [{ resource: 'PullRequest', code: 'invalid', field: 'base' }]);
  if (headSha === undefined)
    return validationFailed(docs, [{ resource: 'PullRequest', code: 'invalid', field: 'head' }]);
  if (state.openPullFor(head, input.base)) {
    return validationFailed(docs, [
      { resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${owner}:${head}.` },
    ]);
  }
  if (state.noCommitsBetween(baseSha, headSha)) {
    return validationFailed(docs, [
      { resource: 'PullRequest', code: 'custom', message: `No commits between ${input.base} and ${head}` },
    ]);
  }
  const issue = state.createPull({
    title: input.title,
    body: input.body ?? null,
    user: request.caller,
    head,
    base: input.base,
    headSha,
    baseSha,
    draft: input.draft ?? false,
  });
  return created(state.pullJson(issue));
}
