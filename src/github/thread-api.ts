import type { RepoRole } from '../config/permissions.js';
import type { ReviewReads } from './review-api.js';

/**
 * The slice of GitHub's API a plangate run needs, bound to one repository, and the shapes it
 * answers with. The contract lives apart from the calls so that callers (the engine, the record's
 * checks) depend on what a thread does, not on how each call reaches GitHub.
 */

/** The repository a thread is bound to; every call of one thread goes to this repository alone. */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** An issue or pull request comment as GitHub stored it: what a plan record is read from and checked against. */
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

/** The reactions plangate leaves on a command comment, so its author sees it was heard. */
export type Reaction = 'eyes' | 'rocket' | '-1' | '+1' | 'confused' | 'hooray';

/** The fields of a pull request a run relies on to find, adopt or update its own. */
export interface PullRequest {
  number: number;
  /** GraphQL's id for it, the handle marking a draft ready needs. */
  nodeId: string;
  /** Still a draft: not yet asking for review. */
  draft: boolean;
  url: string;
  title: string;
  /** The body as GitHub stored it. */
  body: string;
  headRef: string;
  headSha: string;
  baseRef: string;
  /** True when head and base live in the same repository (not a fork). */
  sameRepo: boolean;
  /** Who opened it; with plangate's marker in the body, this says plangate opened it. */
  author: string;
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

/** An issue's text and author: the objective a maintenance run or a plan starts from. */
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

/** How postComment recognises its own comment after a lost answer. */
export interface PostCommentOptions {
  /**
   * A string unique to this comment that its body already holds (say, a marker line with the plan
   * id). After a lost answer the bot's comment containing it is the first attempt's. Without it,
   * postComment appends a hidden nonce (an HTML comment) to serve the same purpose, so give one
   * whenever the body must stay exactly as rendered.
   */
  dedupe?: string;
}

/** What a thread needs beyond the client and repository to write at most once. */
export interface ThreadOptions {
  /** The login the token posts as (the `bot-login` input); only its comments can be a lost attempt. */
  botLogin?: string;
  /** Backoff unit between attempts of a creating write; small in tests. */
  retryDelayMs?: number;
}

/**
 * Every body posted goes through fitBody, so GitHub's 65,536-character limit cuts content with a
 * notice instead of rejecting the write. Every write is read back: what it returns is what GitHub
 * stored, checked against what was sent. Creating writes (comments, pull requests) are never sent
 * twice blindly: after a lost answer the thread is searched for the first attempt's result before resending.
 */
export interface Thread extends ReviewReads {
  repoRef: RepoRef;
  /** The repository role of a user; an API error means no permission, never a guess. */
  permissionOf(login: string): Promise<RepoRole>;
  /**
   * Reacts to a command. `on` names a command written in a review: a review comment gets the
   * reaction there; a review body cannot carry one (GitHub has no reactions on reviews), so nothing is sent.
   */
  react(commentId: number, content: Reaction, on?: { kind: 'review-comment' | 'review' }): Promise<void>;
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
  createPullRequest(input: {
    title: string;
    head: string;
    base: string;
    body: string;
    draft: boolean;
  }): Promise<PullRequest>;
  /** Changes a pull request's title or body, or closes it (`state: 'closed'`). */
  updatePullRequest(
    number: number,
    input: { title?: string; body?: string; state?: 'open' | 'closed' },
  ): Promise<PullRequest>;
  /**
   * Marks a draft pull request ready for review. REST cannot (its `draft` is set only at creation),
   * so this is GraphQL's `markPullRequestReadyForReview`; errors propagate.
   */
  markPullRequestReady(nodeId: string): Promise<void>;
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

/** An issue found or created by a scheduled task: enough to post to it and link it. */
export interface IssueRef {
  number: number;
  title: string;
  body: string;
  url: string;
}
