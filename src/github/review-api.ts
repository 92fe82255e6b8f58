/**
 * What a pull request's review holds, as plangate reads it for the planner: the changed files, the
 * review comments and review summaries, the failing checks. The shapes are the thread's own, so
 * nothing above github/ sees GitHub's field names.
 */

/** A changed file of a pull request with its line counts. */
export interface PullRequestFile {
  path: string;
  status: string;
  additions: number;
  deletions: number;
}

/** A comment on a line of a pull request's diff; replies name the comment that started their thread. */
export interface ReviewComment {
  id: number;
  url: string;
  author: string;
  body: string;
  path: string;
  /** The line in the current diff; null when the comment no longer applies to the diff. */
  line: number | null;
  /** True when the code the comment was made on has changed since: GitHub shows it as outdated. */
  outdated: boolean;
  /** The id of the first comment of the thread this one replies to. */
  inReplyTo?: number;
}

/**
 * Whether a review thread is resolved, and by whom, which only GraphQL tells: the thread is named by
 * the id of its first comment, the id REST replies carry as `inReplyTo`.
 */
export interface ReviewThreadState {
  firstCommentId: number;
  resolved: boolean;
  /**
   * The login of whoever resolved it. Null when it is open, and when GitHub names nobody (an app, a
   * deleted account): a pull request's author may resolve anyone's thread, so who did matters.
   */
  resolvedBy: string | null;
}

/** A submitted review: its verdict and summary. */
export interface ReviewSummary {
  id: number;
  url: string;
  author: string;
  /** APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED, PENDING. */
  state: string;
  body: string;
}

/** An annotation a check run left on a file, usually the reason it failed. */
export interface CheckAnnotation {
  path: string;
  line: number | null;
  level: string;
  title: string;
  message: string;
}

/** A check run on the pull request's head that did not succeed. */
export interface FailingCheck {
  id: number;
  name: string;
  conclusion: string;
  url: string;
  annotations: CheckAnnotation[];
}

/** The head's failing checks, or why they could not be read (no `checks: read`, say). */
export type ChecksRead = { readable: true; failing: FailingCheck[] } | { readable: false; reason: string };

/** A command written in a review, as GitHub holds it now: what the edit check compares. */
export interface ReviewCommandText {
  body: string;
  edited: boolean;
}

/** The review reads of a thread. */
export interface ReviewReads {
  pullRequestFiles(pull: number): Promise<PullRequestFile[]>;
  reviewComments(pull: number): Promise<ReviewComment[]>;
  /** Which review threads are resolved, read through GraphQL; errors propagate. */
  reviewThreadStates(pull: number): Promise<ReviewThreadState[]>;
  reviews(pull: number): Promise<ReviewSummary[]>;
  /** The failing check runs of a commit with their annotations; a 403 or 404 answers `readable: false`. */
  failingChecks(sha: string): Promise<ChecksRead>;
  /** A review comment's or review's text now; undefined when it is gone. */
  reviewCommandText(
    pull: number,
    id: number,
    kind: 'review-comment' | 'review',
  ): Promise<ReviewCommandText | undefined>;
}
