import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { GitHubClient } from './client.js';
import { statusOf } from './errors.js';
import { checkStored } from './read-back.js';
import { writeOnce } from './write-once.js';
import { roleSchema, type RepoRole } from '../permissions.js';
import { fitBody, githubBodyLimit } from '../render/limits.js';
import { redact } from '../redact.js';

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
  listComments(issue: number): Promise<Comment[]>;
  getComment(commentId: number): Promise<Comment>;
  /** Who last edited a comment; REST cannot tell, so this asks GraphQL. Errors propagate. */
  lastEditor(commentNodeId: string): Promise<LastEdit>;
  getIssue(number: number): Promise<IssueText>;
  defaultBranch(): Promise<string>;
  pullRequest(number: number): Promise<PullRequest>;
  findOpenPullRequest(head: string, base: string): Promise<PullRequest | undefined>;
  /**
   * Opens a pull request, or returns (updated to this title and body) the open one from `head`
   * into `base` that a lost earlier attempt or another run already opened.
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
 * The only GraphQL plangate sends. `__typename` tells an app's bot from a person, because GraphQL
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

function toLastEdit(commentNodeId: string, answer: unknown): LastEdit {
  const { node } = lastEditorAnswer.parse(answer);
  if (node === null) throw new Error(`GitHub knows no comment with node id ${commentNodeId}`);
  const { editor, lastEditedAt } = node;
  if (editor === null) {
    // A deleted editor comes back null beside a timestamp: never report that as "not edited".
    return { editor: lastEditedAt === null ? null : GHOST, editedAt: lastEditedAt };
  }
  const login = editor.__typename === 'Bot' && !editor.login.endsWith('[bot]') ? `${editor.login}[bot]` : editor.login;
  return { editor: login, editedAt: lastEditedAt };
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
    const all = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: issue, per_page: 100 });
    return all.map(toComment);
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
      const { data } = await octokit.rest.issues.create({
        owner,
        repo,
        title: input.title,
        body: safe(input.body),
        labels: input.labels,
        ...(input.assignees.length ? { assignees: input.assignees } : {}),
      });
      return { number: data.number, title: data.title, body: data.body ?? '', url: data.html_url };
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
      const existing = await findOpenPullRequest(head, base);
      if (existing) return adopt(existing);
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
    async addLabels(issue, labels) {
      // Adding a label it already has changes nothing, so plugin retries stay on.
      const { data } = await octokit.rest.issues.addLabels({ owner, repo, issue_number: issue, labels: [...labels] });
      return data.map((label) => label.name);
    },
  };
}
