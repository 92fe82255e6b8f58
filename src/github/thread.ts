import { z } from 'zod';
import type { GitHubClient } from './client.js';
import { roleSchema, type RepoRole } from '../permissions.js';
import { fitBody } from '../render/limits.js';
import { redact } from '../redact.js';

/**
 * The slice of GitHub's API a plangate run needs, bound to one repository. Every body posted goes
 * through fitBody, so GitHub's 65,536-character limit cuts content with a notice instead of
 * rejecting the write.
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

export interface Thread {
  repoRef: RepoRef;
  /** The repository role of a user; an API error means no permission, never a guess. */
  permissionOf(login: string): Promise<RepoRole>;
  react(commentId: number, content: Reaction): Promise<void>;
  postComment(issue: number, body: string): Promise<Comment>;
  updateComment(commentId: number, body: string): Promise<Comment>;
  listComments(issue: number): Promise<Comment[]>;
  getComment(commentId: number): Promise<Comment>;
  /** Who last edited a comment; REST cannot tell, so this asks GraphQL. Errors propagate. */
  lastEditor(commentNodeId: string): Promise<LastEdit>;
  getIssue(number: number): Promise<IssueText>;
  defaultBranch(): Promise<string>;
  pullRequest(number: number): Promise<PullRequest>;
  findOpenPullRequest(head: string, base: string): Promise<PullRequest | undefined>;
  createPullRequest(input: { title: string; head: string; base: string; body: string; draft: boolean }): Promise<PullRequest>;
  updatePullRequest(number: number, input: { title?: string; body?: string }): Promise<PullRequest>;
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
    headRef: raw.head.ref,
    headSha: raw.head.sha,
    baseRef: raw.base.ref,
    sameRepo: raw.head.repo?.full_name === raw.base.repo.full_name,
  };
}

/** `secrets` are cut out of every body before it is posted. */
export function createThread(octokit: GitHubClient, repoRef: RepoRef, secrets: readonly string[] = []): Thread {
  const { owner, repo } = repoRef;
  const safe = (body: string) => fitBody(redact(body, secrets));
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
      await octokit.rest.reactions.createForIssueComment({ owner, repo, comment_id: commentId, content });
    },
    async postComment(issue, body) {
      const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: safe(body) });
      return toComment(data);
    },
    async updateComment(commentId, body) {
      const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: commentId, body: safe(body) });
      return toComment(data);
    },
    async listComments(issue) {
      const all = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: issue, per_page: 100 });
      return all.map(toComment);
    },
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
    async defaultBranch() {
      const { data } = await octokit.rest.repos.get({ owner, repo });
      return data.default_branch;
    },
    async pullRequest(number) {
      const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number });
      return toPull(data);
    },
    async findOpenPullRequest(head, base) {
      const { data } = await octokit.rest.pulls.list({ owner, repo, state: 'open', head: `${owner}:${head}`, base, per_page: 1 });
      const first = data[0];
      return first ? toPull(first) : undefined;
    },
    async createPullRequest(input) {
      const { data } = await octokit.rest.pulls.create({ owner, repo, ...input, body: safe(input.body) });
      return toPull(data);
    },
    async updatePullRequest(number, input) {
      const body = input.body === undefined ? undefined : safe(input.body);
      const { data } = await octokit.rest.pulls.update({ owner, repo, pull_number: number, ...input, body });
      return toPull(data);
    },
  };
}
