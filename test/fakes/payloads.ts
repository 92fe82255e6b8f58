import { createRequire } from 'node:module';
import { z } from 'zod';
import { EMULATED_REPO_ID, legacyNodeId, REACTION_CONTENTS, stableUserId } from './github-emulator-shapes.js';

/**
 * Webhook payloads for the end-to-end tests, made by editing GitHub's own examples (the
 * @octokit/webhooks-examples package) rather than written from scratch, so every field GitHub sends
 * and plangate never reads is still there, shaped as GitHub shapes it.
 */

const userSchema = z.looseObject({
  login: z.string(),
  id: z.number(),
  node_id: z.string(),
  type: z.string(),
  url: z.string(),
  html_url: z.string(),
});

const repositorySchema = z.looseObject({
  id: z.number(),
  name: z.string(),
  full_name: z.string(),
  owner: userSchema,
  private: z.boolean(),
  html_url: z.string(),
  url: z.string(),
  default_branch: z.string(),
});

const issueCommentCreatedSchema = z.looseObject({
  action: z.literal('created'),
  issue: z.looseObject({
    number: z.number(),
    title: z.string(),
    body: z.string().nullable(),
    user: userSchema,
    state: z.string(),
  }),
  comment: z.looseObject({ id: z.number(), body: z.string(), user: userSchema }),
  repository: repositorySchema,
  sender: userSchema,
});

const workflowDispatchSchema = z.looseObject({
  inputs: z.record(z.string(), z.unknown()).nullable(),
  ref: z.string(),
  repository: repositorySchema,
  sender: userSchema,
  workflow: z.string(),
});

export type WebhookUser = z.infer<typeof userSchema>;
export type WebhookRepository = z.infer<typeof repositorySchema>;
export type IssueCommentCreatedPayload = z.infer<typeof issueCommentCreatedSchema>;
export type WorkflowDispatchPayload = z.infer<typeof workflowDispatchSchema>;

/** What GitHub Actions writes to GITHUB_EVENT_PATH for `on: schedule`. */
export interface SchedulePayload {
  schedule: string;
  repository: WebhookRepository;
  workflow: string;
}

const definitionsSchema = z.array(z.looseObject({ name: z.string(), examples: z.array(z.unknown()) }));

function examplesOf(event: string): unknown[] {
  // The package's main file is the api.github.com JSON; createRequire loads it without an import attribute.
  const load = createRequire(import.meta.url);
  const definitions = definitionsSchema.parse(load('@octokit/webhooks-examples'));
  const definition = definitions.find((d) => d.name === event);
  if (!definition) throw new Error(`@octokit/webhooks-examples has no ${event} examples`);
  return definition.examples;
}

/** Where the payload's repository lives; defaults are github.com, as in GitHub's examples. */
export interface RepositoryTarget {
  owner: string;
  repo: string;
  /** Defaults to `main`. */
  defaultBranch?: string;
  private?: boolean;
  /** API base the payload's `url` fields use; pass the emulator's `url`. */
  apiUrl?: string;
  /** Web base of `html_url` fields; pass the emulator's `serverUrl`. */
  serverUrl?: string;
}

/** A user as given by callers; emulator objects (`comment.user`) fit as they are. */
export interface UserLike {
  login: string;
  type?: string;
}

interface Urls {
  api: string;
  web: string;
}

function urlsOf(target: RepositoryTarget): Urls {
  return {
    api: (target.apiUrl ?? 'https://api.github.com').replace(/\/$/, ''),
    web: (target.serverUrl ?? 'https://github.com').replace(/\/$/, ''),
  };
}

/** Deep copy of `value` with every string's occurrences of each `from` replaced by its `to`. */
function replaceInStrings<T>(value: T, pairs: ReadonlyArray<readonly [string, string]>): T {
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return pairs.reduce((text, [from, to]) => text.replaceAll(from, to), node);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child)]));
    }
    return node;
  };
  return walk(value) as T;
}

/** Turns the example's user into `who`, keeping every field GitHub sends for a user. */
function userFrom(template: WebhookUser, who: UserLike, urls: Urls): WebhookUser {
  const type =
    who.type === 'Bot' || who.login.endsWith('[bot]') ? 'Bot' : who.type === 'Organization' ? 'Organization' : 'User';
  const id = stableUserId(who.login);
  const api = `${urls.api}/users/${encodeURIComponent(who.login)}`;
  const html =
    type === 'Bot'
      ? `${urls.web}/apps/${encodeURIComponent(who.login.replace(/\[bot\]$/, ''))}`
      : `${urls.web}/${encodeURIComponent(who.login)}`;
  const user = replaceInStrings(template, [[template.url, api]]);
  return {
    ...user,
    login: who.login,
    id,
    node_id: legacyNodeId(type, id),
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    url: api,
    html_url: html,
    type,
    site_admin: false,
  };
}

/** Turns the example's repository into the target one: names, owner, every URL, visibility. */
function repositoryFrom(template: WebhookRepository, target: RepositoryTarget, urls: Urls): WebhookRepository {
  const from = template.full_name;
  const to = `${target.owner}/${target.repo}`;
  const webHost = new URL(urls.web).host;
  const repository = replaceInStrings(template, [
    [`https://api.github.com/repos/${from}`, `${urls.api}/repos/${to}`],
    [`https://github.com/${from}`, `${urls.web}/${to}`],
    [`git://github.com/${from}.git`, `git://${webHost}/${to}.git`],
    [`git@github.com:${from}.git`, `git@${webHost}:${to}.git`],
  ]);
  const isPrivate = target.private ?? false;
  return {
    ...repository,
    id: EMULATED_REPO_ID,
    node_id: legacyNodeId('Repository', EMULATED_REPO_ID),
    name: target.repo,
    full_name: to,
    owner: userFrom(template.owner, { login: target.owner, type: 'User' }, urls),
    private: isPrivate,
    ...('visibility' in repository ? { visibility: isPrivate ? 'private' : 'public' } : {}),
    default_branch: target.defaultBranch ?? 'main',
  };
}

function zeroReactions(url: string): Record<string, unknown> {
  return { url, total_count: 0, ...Object.fromEntries(REACTION_CONTENTS.map((content) => [content, 0])) };
}

/**
 * Fields are given flat (`login`, `isPullRequest`) or as GitHub objects (`user`, `pull_request`), so
 * an issue or comment returned by the emulator can be passed as it is.
 */
export interface IssueCommentPayloadOptions extends RepositoryTarget {
  issue: {
    number: number;
    title: string;
    body?: string | null;
    id?: number;
    state?: string;
    /** The issue's author; defaults to the comment's. */
    login?: string;
    user?: UserLike | null;
    author_association?: string;
    /** Makes the thread a pull request; without it a non-null `pull_request` key does. */
    isPullRequest?: boolean;
    pull_request?: unknown;
  };
  comment: {
    id: number;
    body?: string;
    /** The comment's author; `user.login` when absent. */
    login?: string;
    type?: string;
    user?: UserLike | null;
    author_association?: string;
    created_at?: string;
    updated_at?: string;
  };
  /** Who triggered the event; defaults to the comment's author. */
  sender?: string | UserLike;
}

function toUser(who: string | UserLike): UserLike {
  return typeof who === 'string' ? { login: who } : who;
}

/** The issue_comment `created` event, as GITHUB_EVENT_PATH holds it for a new comment. */
export function issueCommentPayload(options: IssueCommentPayloadOptions): IssueCommentCreatedPayload {
  const examples = examplesOf('issue_comment').map((example) => issueCommentCreatedSchema.safeParse(example));
  // The newest-shaped example (comments carry reactions) on a user-owned repository without an app.
  const chosen = examples.find(
    (r) => r.success && !('organization' in r.data) && !('installation' in r.data) && 'reactions' in r.data.comment,
  );
  if (!chosen?.success) throw new Error('@octokit/webhooks-examples has no usable issue_comment created example');
  const example = chosen.data;
  const urls = urlsOf(options);
  const repoApi = `${urls.api}/repos/${options.owner}/${options.repo}`;
  const isPull = options.issue.isPullRequest ?? options.issue.pull_request != null;
  const threadHtml = `${urls.web}/${options.owner}/${options.repo}/${isPull ? 'pull' : 'issues'}/${options.issue.number}`;
  const issueUrl = `${repoApi}/issues/${options.issue.number}`;
  const commentUrl = `${repoApi}/issues/comments/${options.comment.id}`;
  const commentAuthor: UserLike | undefined =
    options.comment.login !== undefined
      ? { login: options.comment.login, ...(options.comment.type !== undefined ? { type: options.comment.type } : {}) }
      : (options.comment.user ?? undefined);
  if (!commentAuthor) throw new Error('issueCommentPayload needs comment.login or comment.user');
  const issueAuthor =
    options.issue.login !== undefined ? { login: options.issue.login } : (options.issue.user ?? commentAuthor);
  const issueId = options.issue.id ?? 100_000 + options.issue.number;

  const issue: IssueCommentCreatedPayload['issue'] = {
    ...example.issue,
    url: issueUrl,
    repository_url: repoApi,
    labels_url: `${issueUrl}/labels{/name}`,
    comments_url: `${issueUrl}/comments`,
    events_url: `${issueUrl}/events`,
    html_url: threadHtml,
    id: issueId,
    node_id: legacyNodeId(isPull ? 'PullRequest' : 'Issue', issueId),
    number: options.issue.number,
    title: options.issue.title,
    body: options.issue.body ?? null,
    user: userFrom(example.issue.user, issueAuthor, urls),
    labels: [],
    state: options.issue.state ?? 'open',
    assignee: null,
    assignees: [],
    milestone: null,
    author_association: options.issue.author_association ?? 'NONE',
    ...('reactions' in example.issue ? { reactions: zeroReactions(`${issueUrl}/reactions`) } : {}),
  };
  if (isPull) {
    // Shape of `pull_request` as GitHub puts it on a pull request's issue (see the `issues` examples).
    issue.pull_request = {
      url: `${repoApi}/pulls/${options.issue.number}`,
      html_url: threadHtml,
      diff_url: `${threadHtml}.diff`,
      patch_url: `${threadHtml}.patch`,
      merged_at: null,
    };
  } else {
    delete issue.pull_request;
  }

  const comment: IssueCommentCreatedPayload['comment'] = {
    ...example.comment,
    url: commentUrl,
    html_url: `${threadHtml}#issuecomment-${options.comment.id}`,
    issue_url: issueUrl,
    id: options.comment.id,
    node_id: legacyNodeId('IssueComment', options.comment.id),
    user: userFrom(example.comment.user, commentAuthor, urls),
    body: options.comment.body ?? '',
    author_association: options.comment.author_association ?? 'NONE',
    ...(options.comment.created_at !== undefined ? { created_at: options.comment.created_at } : {}),
    ...(options.comment.updated_at !== undefined ? { updated_at: options.comment.updated_at } : {}),
    reactions: zeroReactions(`${commentUrl}/reactions`),
  };

  return {
    ...example,
    action: 'created',
    issue,
    comment,
    repository: repositoryFrom(example.repository, options, urls),
    sender: userFrom(example.sender, toUser(options.sender ?? commentAuthor), urls),
  };
}

function dispatchExample(): WorkflowDispatchPayload {
  const example = examplesOf('workflow_dispatch')[0];
  return workflowDispatchSchema.parse(example);
}

export interface WorkflowDispatchPayloadOptions extends RepositoryTarget {
  sender: string | UserLike;
  /** Defaults to the default branch. */
  ref?: string;
  inputs?: Record<string, unknown>;
  /** Defaults to `.github/workflows/plangate.yml`. */
  workflow?: string;
}

/** The workflow_dispatch event; the example's organization is dropped since the target is user-owned. */
export function workflowDispatchPayload(options: WorkflowDispatchPayloadOptions): WorkflowDispatchPayload {
  const example = dispatchExample();
  const urls = urlsOf(options);
  const rest: Record<string, unknown> = { ...example };
  delete rest.organization;
  return {
    ...rest,
    inputs: options.inputs ?? {},
    ref: options.ref ?? `refs/heads/${options.defaultBranch ?? 'main'}`,
    repository: repositoryFrom(example.repository, options, urls),
    sender: userFrom(example.sender, toUser(options.sender), urls),
    workflow: options.workflow ?? '.github/workflows/plangate.yml',
  };
}

export interface SchedulePayloadOptions extends RepositoryTarget {
  /** The cron line that fired, exactly as written under `on.schedule`. */
  cron: string;
  /** Defaults to `.github/workflows/plangate.yml`. */
  workflow?: string;
}

/**
 * The schedule event. @octokit/webhooks-examples has none (schedule is an Actions event, never a
 * webhook); GitHub's payload is the `schedule` cron plus, since September 2022, the repository and
 * the workflow path, with no sender. The repository comes from the real workflow_dispatch example.
 */
export function schedulePayload(options: SchedulePayloadOptions): SchedulePayload {
  return {
    schedule: options.cron,
    repository: repositoryFrom(dispatchExample().repository, options, urlsOf(options)),
    workflow: options.workflow ?? '.github/workflows/plangate.yml',
  };
}

/** A command written in a pull request's review: a review comment's or a review's text and author. */
export interface ReviewPayloadOptions extends RepositoryTarget {
  pull: { number: number; title: string; body?: string | null; head: string; headSha: string };
  written: { id: number; body: string; login: string; author_association?: string; created_at?: string };
}

function reviewExample(event: string, action: string): Record<string, unknown> {
  const example = examplesOf(event).find(
    (e): e is Record<string, unknown> =>
      typeof e === 'object' && e !== null && (e as { action?: unknown }).action === action,
  );
  if (!example) throw new Error(`@octokit/webhooks-examples has no ${event} ${action} example`);
  return example;
}

/**
 * A `pull_request_review_comment` `created` or `pull_request_review` `submitted` event, from
 * GitHub's example with the repository, pull request and comment (or review) made the given ones.
 */
export function reviewEventPayload(
  event: 'pull_request_review_comment' | 'pull_request_review',
  options: ReviewPayloadOptions,
): Record<string, unknown> {
  const example = reviewExample(event, event === 'pull_request_review' ? 'submitted' : 'created');
  const urls = urlsOf(options);
  const repository = repositoryFrom(example.repository as WebhookRepository, options, urls);
  const repoApi = `${urls.api}/repos/${options.owner}/${options.repo}`;
  const pullTemplate = example.pull_request as Record<string, Record<string, unknown>>;
  const pullHtml = `${urls.web}/${options.owner}/${options.repo}/pull/${options.pull.number}`;
  const pullRequest = {
    ...pullTemplate,
    url: `${repoApi}/pulls/${options.pull.number}`,
    html_url: pullHtml,
    number: options.pull.number,
    title: options.pull.title,
    body: options.pull.body ?? null,
    head: { ...pullTemplate.head, ref: options.pull.head, sha: options.pull.headSha, repo: repository },
    base: { ...pullTemplate.base, ref: 'main', repo: repository },
  };
  const field = event === 'pull_request_review' ? 'review' : 'comment';
  const template = example[field] as Record<string, unknown>;
  const { written } = options;
  const at = written.created_at ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const user = userFrom(template.user as WebhookUser, { login: written.login }, urls);
  const writtenNow =
    field === 'review'
      ? {
          ...template,
          id: written.id,
          body: written.body,
          user,
          submitted_at: at,
          html_url: `${pullHtml}#pullrequestreview-${written.id}`,
          author_association: written.author_association ?? 'COLLABORATOR',
        }
      : {
          ...template,
          id: written.id,
          body: written.body,
          user,
          created_at: at,
          updated_at: at,
          html_url: `${pullHtml}#discussion_r${written.id}`,
          author_association: written.author_association ?? 'COLLABORATOR',
        };
  return {
    ...example,
    repository,
    pull_request: pullRequest,
    [field]: writtenNow,
    sender: user,
  };
}
