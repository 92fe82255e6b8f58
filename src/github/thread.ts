import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { GitHubClient } from './client.js';
import { statusOf } from './errors.js';
import { checkStored } from './read-back.js';
import { writeOnce } from './write-once.js';
import { roleSchema, type RepoRole } from '../config/permissions.js';
import { fitBody, githubBodyLimit } from '../text/limits.js';
import { redact } from '../text/redact.js';

/**
 * The slice of GitHub's API a plangate run needs, bound to one repository. Every body posted goes
 * through fitBody, so GitHub's 65,536-character limit cuts content with a notice instead of
 * rejecting the write. Every write is read back: what it returns is what GitHub stored, checked
 * against what was sent. Creating writes (comments, pull requests) are never sent twice blindly:
 * after a lost answer the thread is searched for the first attempt's result before resending.
 */

export interface RepoRef {
  owner: string;
  repo: string;
}

export interface Comment {
  id: number;
  /** GraphQL's id for the comment, the handle `lastEditor` needs. */
  nodeId: string;
  body: string;
  author: string;
  url: string;
  createdAt: string;
  updatedAt: string;
  /**
   * Who last edited the comment, as {@link LastEdit.editor} spells it; present on comments from
   * listComments, which asks GraphQL, so the checks that need it cost no second call. Undefined
   * where GitHub was not asked (REST answers cannot tell).
   */
  editor?: string | null;
}

export type Reaction = 'eyes' | 'rocket' | '-1' | '+1' | 'confused' | 'hooray';

export interface PullRequest {
  number: number;
  url: string;
  title: string;
  /** The body as GitHub stored it. */
  body: string;
  headRef: string;
  headSha: string;
  baseRef: string;
  /** True when head and base live in the same repository (not a fork). */
  sameRepo: boolean;
}

/** Who last edited a comment, as GitHub's GraphQL API reports it. */
export interface LastEdit {
  /**
   * REST spelling of the last editor's login (`name[bot]` for an app), `ghost` when the account
   * is gone, null when the comment was never edited.
   */
  editor: string | null;
  editedAt: string | null;
}

export interface IssueText {
  title: string;
  body: string;
  author: string;
}

/** What an approval was bound to, as GitHub holds it now: one read right before it is relied on. */
export interface ApprovalState {
  /** The comment's body; null when the comment is gone, undefined when none was asked about. */
  commentBody?: string | null;
  /** Who last edited the comment, spelled as {@link LastEdit.editor}; undefined when none was asked about. */
  commentEditor?: string | null;
  title: string;
  body: string;
}

export interface PostCommentOptions {
  /**
   * A string unique to this comment that its body already holds (say, a marker line with the plan
   * id). After a lost answer the bot's comment containing it is the first attempt's. Without it,
   * postComment appends a hidden nonce (an HTML comment) to serve the same purpose, so give one
   * whenever the body must stay exactly as rendered.
   */
  dedupe?: string;
}

export interface ThreadOptions {
  /** The login the token posts as (the `bot-login` input); only its comments can be a lost attempt. */
  botLogin?: string;
  /** Backoff unit between attempts of a creating write; small in tests. */
  retryDelayMs?: number;
}

export interface Thread {
  repoRef: RepoRef;
  /** The repository role of a user; an API error means no permission, never a guess. */
  permissionOf(login: string): Promise<RepoRole>;
  react(commentId: number, content: Reaction): Promise<void>;
  /** Posts at most one comment, even when GitHub's answer is lost; returns it as stored. */
  postComment(issue: number, body: string, options?: PostCommentOptions): Promise<Comment>;
  updateComment(commentId: number, body: string): Promise<Comment>;
  /** Every comment on an issue or pull request, oldest first, each with its last editor. */
  listComments(issue: number): Promise<Comment[]>;
  getComment(commentId: number): Promise<Comment>;
  /** A comment's body and the thread's title and body, read together in one call. */
  approvalState(issue: number, commentNodeId?: string): Promise<ApprovalState>;
  /** Who last edited a comment; REST cannot tell, so this asks GraphQL. Errors propagate. */
  lastEditor(commentNodeId: string): Promise<LastEdit>;
  getIssue(number: number): Promise<IssueText>;
  defaultBranch(): Promise<string>;
  pullRequest(number: number): Promise<PullRequest>;
  findOpenPullRequest(head: string, base: string): Promise<PullRequest | undefined>;
  /**
   * Opens a pull request, or returns (updated to this title and body) the open one from `head`
   * into `base` that a lost earlier attempt or another run already opened. It creates first and
   * looks for an open one only when GitHub says it exists, so the usual case costs one call.
   */
  createPullRequest(input: { title: string; head: string; base: string; body: string; draft: boolean }): Promise<PullRequest>;
  updatePullRequest(number: number, input: { title?: string; body?: string }): Promise<PullRequest>;
  /**
   * Asks users to review a pull request; returns the logins GitHub lists as requested afterwards.
   * GitHub refuses (422) the pull request's author and non-collaborators: the caller decides whether that matters.
   */
  requestReviewers(pullNumber: number, reviewers: readonly string[]): Promise<string[]>;
  /** Adds labels to an issue or pull request (creating unknown ones, as GitHub does); returns all its labels. */
  addLabels(issue: number, labels: readonly string[]): Promise<string[]>;
  /** The oldest open issue (not pull request) carrying `label`: how a task finds its tracking issue again. */
  findOpenIssue(label: string): Promise<IssueRef | undefined>;
  createIssue(input: { title: string; body: string; labels: string[]; assignees: string[] }): Promise<IssueRef>;
  listOpenPullRequests(): Promise<PullRequest[]>;
  /**
   * Creates a ref (a full name, `refs/...`) at a commit; false when it exists already. GitHub's
   * create is atomic, so of two creators exactly one gets true.
   */
  createRef(ref: string, sha: string): Promise<boolean>;
}

export interface IssueRef {
  number: number;
  title: string;
  body: string;
  url: string;
}

interface RawComment {
  id: number;
  node_id: string;
  body?: string | null;
  user: { login: string } | null;
  html_url: string;
  created_at: string;
  updated_at: string;
}

interface RawPull {
  number: number;
  html_url: string;
  title: string;
  body?: string | null;
  head: { ref: string; sha: string; repo: { full_name: string } | null };
  base: { ref: string; repo: { full_name: string } };
}

function toComment(raw: RawComment): Comment {
  return {
    id: raw.id,
    nodeId: raw.node_id,
    body: raw.body ?? '',
    author: raw.user?.login ?? '',
    url: raw.html_url,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
  };
}

/**
 * Who last edited one comment. `__typename` tells an app's bot from a person, because GraphQL
 * drops the `[bot]` suffix that REST (and the `bot-login` input) carry.
 */
const LAST_EDITOR_QUERY = `query plangateLastEditor($id: ID!) {
  node(id: $id) {
    ... on IssueComment {
      editor { __typename login }
      lastEditedAt
    }
  }
}`;

const lastEditorAnswer = z.object({
  node: z
    .object({
      editor: z.object({ __typename: z.string(), login: z.string() }).nullable(),
      lastEditedAt: z.string().nullable(),
    })
    .nullable(),
});

/** GitHub's REST name for a deleted account; an edit by one is still an edit. */
const GHOST = 'ghost';

const actorShape = z.object({ __typename: z.string(), login: z.string() });

/** An account in REST spelling: GraphQL names an app's bot without the `[bot]` suffix. */
function restLogin(actor: z.infer<typeof actorShape>): string {
  return actor.__typename === 'Bot' && !actor.login.endsWith('[bot]') ? `${actor.login}[bot]` : actor.login;
}

function toEdit(editor: z.infer<typeof actorShape> | null, lastEditedAt: string | null): LastEdit {
  // A deleted editor comes back null beside a timestamp: never report that as "not edited".
  if (editor === null) return { editor: lastEditedAt === null ? null : GHOST, editedAt: lastEditedAt };
  return { editor: restLogin(editor), editedAt: lastEditedAt };
}

function toLastEdit(commentNodeId: string, answer: unknown): LastEdit {
  const { node } = lastEditorAnswer.parse(answer);
  if (node === null) throw new Error(`GitHub knows no comment with node id ${commentNodeId}`);
  return toEdit(node.editor, node.lastEditedAt);
}

/**
 * The thread in one GraphQL call per hundred comments: body, author and last editor together, so
 * believing a plan comment (bot-written, never edited by anyone else) needs no second call.
 */
const THREAD_QUERY = `query plangateThread($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    issueOrPullRequest(number: $number) {
      ... on Issue { comments(first: 100, after: $after) { ...plangateComments } }
      ... on PullRequest { comments(first: 100, after: $after) { ...plangateComments } }
    }
  }
}
fragment plangateComments on IssueCommentConnection {
  pageInfo { hasNextPage endCursor }
  nodes {
    id
    fullDatabaseId
    url
    body
    createdAt
    updatedAt
    lastEditedAt
    author { __typename login }
    editor { __typename login }
  }
}`;

const threadAnswer = z.object({
  repository: z.object({
    issueOrPullRequest: z.object({
      comments: z.object({
        pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
        nodes: z.array(
          z.object({
            id: z.string(),
            // A BigInt, which GitHub sends as a string: comment ids no longer fit GraphQL's Int.
            fullDatabaseId: z.union([z.string(), z.number()]).transform(Number).pipe(z.number().int().positive()),
            url: z.string(),
            body: z.string(),
            createdAt: z.string(),
            updatedAt: z.string(),
            lastEditedAt: z.string().nullable(),
            author: actorShape.nullable(),
            editor: actorShape.nullable(),
          }),
        ),
      }),
    }),
  }),
});

/** The plan comment and the thread's text together: the approval's re-check in one call. */
const APPROVAL_QUERY = `query plangateApproval($owner: String!, $name: String!, $number: Int!, $comment: ID!) {
  node(id: $comment) { ... on IssueComment { body lastEditedAt editor { __typename login } } }
  repository(owner: $owner, name: $name) {
    issueOrPullRequest(number: $number) {
      ... on Issue { title body }
      ... on PullRequest { title body }
    }
  }
}`;

/** The thread's text alone, for an execution that has no plan comment. */
const ISSUE_TEXT_QUERY = `query plangateIssueText($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    issueOrPullRequest(number: $number) {
      ... on Issue { title body }
      ... on PullRequest { title body }
    }
  }
}`;

const approvalAnswer = z.object({
  node: z.object({ body: z.string(), lastEditedAt: z.string().nullable(), editor: actorShape.nullable() }).nullable().optional(),
  repository: z.object({ issueOrPullRequest: z.object({ title: z.string(), body: z.string().nullable() }) }),
});

/** GraphQL's partial answer: `data` beside `errors`, which Octokit raises as an error carrying both. */
const partialAnswer = z.object({
  data: z.unknown(),
  errors: z.array(z.object({ type: z.string().optional(), path: z.array(z.union([z.string(), z.number()])).optional() })),
});

/**
 * The data of an answer whose only errors say the comment node is gone (GitHub answers a deleted
 * comment's id with NOT_FOUND beside the rest of the data); undefined for any other failure.
 */
function dataWithoutComment(error: unknown): unknown {
  const parsed = partialAnswer.safeParse(error);
  if (!parsed.success || parsed.data.errors.length === 0) return undefined;
  const onlyNode = parsed.data.errors.every((e) => e.type === 'NOT_FOUND' && e.path?.length === 1 && e.path[0] === 'node');
  return onlyNode ? parsed.data.data : undefined;
}

function toPull(raw: RawPull): PullRequest {
  return {
    number: raw.number,
    url: raw.html_url,
    title: raw.title,
    body: raw.body ?? '',
    headRef: raw.head.ref,
    headSha: raw.head.sha,
    baseRef: raw.base.ref,
    sameRepo: raw.head.repo?.full_name === raw.base.repo.full_name,
  };
}

const DEFAULT_BOT_LOGIN = 'github-actions[bot]';
/** Three tries in all: enough to ride out a blip, few enough that a real outage fails the step soon. */
const CREATE_ATTEMPTS = 3;
const DEFAULT_RETRY_DELAY_MS = 1000;

/** The hidden tail that lets a comment posted without `dedupe` be recognised after a lost answer. */
function nonceMarker(): string {
  return `<!-- plangate:post ${randomBytes(8).toString('hex')} -->`;
}

/** Turns off plugin-retry for one request: a blind resend of a creating write can duplicate it. */
const NO_BLIND_RETRY = { retries: 0 } as const;

/** GitHub's 422 when an open pull request from the head into the base exists already. */
function isPullExists(error: unknown): boolean {
  if (statusOf(error) !== 422) return false;
  return /already exists/i.test(error instanceof Error ? error.message : String(error));
}

/** `secrets` are cut out of every body before it is posted. */
export function createThread(
  octokit: GitHubClient,
  repoRef: RepoRef,
  secrets: readonly string[] = [],
  options: ThreadOptions = {},
): Thread {
  const { owner, repo } = repoRef;
  const botLogin = options.botLogin ?? DEFAULT_BOT_LOGIN;
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const safe = (body: string, limit = githubBodyLimit) => fitBody(redact(body, secrets), limit);

  async function listComments(issue: number): Promise<Comment[]> {
    const comments: Comment[] = [];
    let after: string | null = null;
    do {
      const answer = threadAnswer.parse(await octokit.graphql(THREAD_QUERY, { owner, name: repo, number: issue, after }));
      const { pageInfo, nodes } = answer.repository.issueOrPullRequest.comments;
      for (const node of nodes) {
        comments.push({
          id: node.fullDatabaseId,
          nodeId: node.id,
          body: node.body,
          author: node.author ? restLogin(node.author) : GHOST,
          url: node.url,
          createdAt: node.createdAt,
          updatedAt: node.updatedAt,
          editor: toEdit(node.editor, node.lastEditedAt).editor,
        });
      }
      // A cut listing could hide the newest plan: more without a way to read it is a failure.
      if (pageInfo.hasNextPage && (pageInfo.endCursor === null || pageInfo.endCursor === after)) {
        throw new Error(`GitHub said #${issue} has more comments but gave no new cursor to read them with`);
      }
      after = pageInfo.hasNextPage ? pageInfo.endCursor : null;
    } while (after !== null);
    return comments;
  }

  async function findOpenPullRequest(head: string, base: string): Promise<PullRequest | undefined> {
    const { data } = await octokit.rest.pulls.list({ owner, repo, state: 'open', head: `${owner}:${head}`, base, per_page: 1 });
    const first = data[0];
    return first ? toPull(first) : undefined;
  }

  async function updatePullRequest(number: number, input: { title?: string; body?: string }): Promise<PullRequest> {
    const body = input.body === undefined ? undefined : safe(input.body);
    const { data } = await octokit.rest.pulls.update({ owner, repo, pull_number: number, ...input, body });
    const pull = toPull(data);
    if (body !== undefined) checkStored(`body of pull request #${number}`, body, pull.body);
    return pull;
  }

  return {
    repoRef,
    async permissionOf(login) {
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: login });
        // role_name distinguishes maintain and triage, which `permission` folds into write and read.
        const role = roleSchema.safeParse(data.role_name ?? data.permission);
        return role.success ? role.data : 'none';
      } catch {
        return 'none';
      }
    },
    async react(commentId, content) {
      // Reacting twice is harmless (GitHub answers 200 with the existing reaction), so plugin retries stay on.
      await octokit.rest.reactions.createForIssueComment({ owner, repo, comment_id: commentId, content });
    },
    async postComment(issue, body, postOptions = {}) {
      let sent: string;
      let dedupe: string;
      if (postOptions.dedupe !== undefined) {
        dedupe = postOptions.dedupe;
        sent = safe(body);
        // Checked before sending: a marker lost to redaction or cutting could never find the comment again.
        if (dedupe === '' || !sent.includes(dedupe)) {
          throw new Error(`postComment on #${issue}: the dedupe marker is not in the body as it would be posted`);
        }
      } else {
        dedupe = nonceMarker();
        const tail = `\n\n${dedupe}`;
        sent = safe(body, githubBodyLimit - tail.length) + tail;
      }
      const what = `comment on #${issue}`;
      const comment = await writeOnce({
        attempts: CREATE_ATTEMPTS,
        delayMs: retryDelayMs,
        send: async () => {
          const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: sent, request: NO_BLIND_RETRY });
          return toComment(data);
        },
        find: async () => (await listComments(issue)).find((c) => c.author === botLogin && c.body.includes(dedupe)),
      });
      checkStored(what, sent, comment.body);
      return comment;
    },
    async updateComment(commentId, body) {
      // An edit is idempotent: sending the same body twice leaves the same comment, so plugin retries stay on.
      const sent = safe(body);
      const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: commentId, body: sent });
      const comment = toComment(data);
      checkStored(`comment ${commentId}`, sent, comment.body);
      return comment;
    },
    listComments,
    async getComment(commentId) {
      const { data } = await octokit.rest.issues.getComment({ owner, repo, comment_id: commentId });
      return toComment(data);
    },
    async lastEditor(commentNodeId) {
      return toLastEdit(commentNodeId, await octokit.graphql(LAST_EDITOR_QUERY, { id: commentNodeId }));
    },
    async approvalState(issue, commentNodeId) {
      const variables = { owner, name: repo, number: issue };
      let answer: unknown;
      try {
        answer =
          commentNodeId === undefined
            ? await octokit.graphql(ISSUE_TEXT_QUERY, variables)
            : await octokit.graphql(APPROVAL_QUERY, { ...variables, comment: commentNodeId });
      } catch (error) {
        // A deleted comment is an answer, not a failure: the caller must learn that it is gone.
        answer = commentNodeId === undefined ? undefined : dataWithoutComment(error);
        if (answer === undefined) throw error;
      }
      const { node, repository } = approvalAnswer.parse(answer);
      const { title, body } = repository.issueOrPullRequest;
      const comment = commentNodeId === undefined ? {} : { commentBody: node?.body ?? null, commentEditor: node ? toEdit(node.editor, node.lastEditedAt).editor : null };
      return { ...comment, title, body: body ?? '' };
    },
    async getIssue(number) {
      const { data } = await octokit.rest.issues.get({ owner, repo, issue_number: number });
      return { title: data.title, body: data.body ?? '', author: data.user?.login ?? '' };
    },
    async findOpenIssue(label) {
      const issues = await octokit.paginate(octokit.rest.issues.listForRepo, { owner, repo, state: 'open', labels: label, per_page: 100, sort: 'created', direction: 'asc' });
      const issue = issues.find((i) => !i.pull_request);
      return issue ? { number: issue.number, title: issue.title, body: issue.body ?? '', url: issue.html_url } : undefined;
    },
    async createIssue(input) {
      const body = safe(input.body);
      const toRef = (data: { number: number; title: string; body?: string | null; html_url: string }): IssueRef => ({ number: data.number, title: data.title, body: data.body ?? '', url: data.html_url });
      // A new issue notifies people like a comment does: after a lost answer, look before sending again.
      return writeOnce({
        attempts: CREATE_ATTEMPTS,
        delayMs: retryDelayMs,
        send: async () => {
          const { data } = await octokit.rest.issues.create({
            owner,
            repo,
            title: input.title,
            body,
            labels: input.labels,
            ...(input.assignees.length ? { assignees: input.assignees } : {}),
            request: NO_BLIND_RETRY,
          });
          return toRef(data);
        },
        find: async () => {
          const label = input.labels[0];
          const { data } = await octokit.rest.issues.listForRepo({ owner, repo, state: 'open', sort: 'created', direction: 'desc', per_page: 100, ...(label ? { labels: label } : {}) });
          const found = data.find((i) => !i.pull_request && i.user?.login === botLogin && i.title === input.title && (i.body ?? '') === body);
          return found ? toRef(found) : undefined;
        },
      });
    },
    async listOpenPullRequests() {
      const pulls = await octokit.paginate(octokit.rest.pulls.list, { owner, repo, state: 'open', per_page: 100 });
      return pulls.map(toPull);
    },
    async defaultBranch() {
      const { data } = await octokit.rest.repos.get({ owner, repo });
      return data.default_branch;
    },
    async pullRequest(number) {
      const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number });
      return toPull(data);
    },
    findOpenPullRequest,
    async createPullRequest(input) {
      const { head, base, title } = input;
      const body = safe(input.body);
      // One open pull request per head and base: one found is this branch's, so it is brought up to date.
      const adopt = async (found: PullRequest) =>
        found.body === body && found.title === title ? found : updatePullRequest(found.number, { title, body });
      const pull = await writeOnce({
        attempts: CREATE_ATTEMPTS,
        delayMs: retryDelayMs,
        send: async () => {
          try {
            const { data } = await octokit.rest.pulls.create({ owner, repo, ...input, body, request: NO_BLIND_RETRY });
            return toPull(data);
          } catch (error) {
            // A racing run, or a lost attempt GitHub did store, opened it first: that one is ours too.
            const found = isPullExists(error) ? await findOpenPullRequest(head, base) : undefined;
            if (found) return adopt(found);
            throw error;
          }
        },
        find: async () => {
          const found = await findOpenPullRequest(head, base);
          return found ? adopt(found) : undefined;
        },
      });
      checkStored(`body of pull request #${pull.number}`, body, pull.body);
      return pull;
    },
    updatePullRequest,
    async requestReviewers(pullNumber, reviewers) {
      // Requesting the same reviewer twice leaves one request, so plugin retries stay on.
      const { data } = await octokit.rest.pulls.requestReviewers({ owner, repo, pull_number: pullNumber, reviewers: [...reviewers] });
      return (data.requested_reviewers ?? []).map((user) => user.login);
    },
    async createRef(ref, sha) {
      try {
        await octokit.rest.git.createRef({ owner, repo, ref, sha });
        return true;
      } catch (error) {
        // GitHub's answer for a ref that exists; after a lost answer that may be our own create.
        if (statusOf(error) === 422 && /already exists/i.test(error instanceof Error ? error.message : String(error))) return false;
        throw error;
      }
    },
    async addLabels(issue, labels) {
      // Adding a label it already has changes nothing, so plugin retries stay on.
      const { data } = await octokit.rest.issues.addLabels({ owner, repo, issue_number: issue, labels: [...labels] });
      return data.map((label) => label.name);
    },
  };
}
