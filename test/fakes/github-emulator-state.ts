import { createHash } from 'node:crypto';
import type { RunConclusion, RunRecord, RunStatus } from './github-emulator-actions.js';
import type { OriginRepo } from './github-emulator-git.js';
import {
  authorAssociation,
  commentShape,
  isBotLogin,
  issueShape,
  permissionShape,
  pullShape,
  pullSimpleShape,
  reactionShape,
  repositoryShape,
  type CommentRecord,
  type IssueRecord,
  type LabelRecord,
  type PullRecord,
  type ReactionContent,
  type ReactionRecord,
  type RepoRole,
  type ShapeContext,
  type UserRecord,
  type UserType,
} from './github-emulator-shapes.js';

/**
 * The emulated clock starts here unless told otherwise, and moves one second per event, never with
 * the wall clock.
 */
export const CLOCK_ORIGIN_MS = Date.UTC(2024, 0, 1, 0, 0, 0);

/** GitHub's limit on issue, comment and pull request bodies, in characters. */
export const GITHUB_BODY_LIMIT = 65_536;

/** Label colours handed out in turn, so a label keeps its colour for the emulator's lifetime. */
const LABEL_COLOURS = ['d73a4a', '0075ca', 'a2eeef', '7057ff', '008672', 'e4e669', 'd876e3', 'cfd3d7'];

/** Raised by setup helpers when a test asks for something GitHub itself would never hold. */
export class EmulatorSetupError extends Error {
  override name = 'EmulatorSetupError';
}

/**
 * The data behind the emulated repository: issues and pull requests (one number sequence),
 * comments, reactions, labels and roles. Route handlers and the test-facing setup helpers both work
 * through it, so a thread set up by a test looks exactly like one created over HTTP.
 */
export class GitHubState {
  readonly issues = new Map<number, IssueRecord>();
  readonly commentRecords = new Map<number, CommentRecord>();
  readonly reactionRecords: ReactionRecord[] = [];
  /** Workflow runs by id, registered by tests and the e2e harness. */
  readonly runs = new Map<number, RunRecord>();
  private readonly roles = new Map<string, RepoRole>();
  private readonly labelRecords = new Map<string, LabelRecord>();
  /** The emulated instant last handed out, in ms: whole seconds, as GitHub's timestamps have them. */
  private clockMs: number;
  private nextNumber = 1;
  private readonly nextIds = {
    issue: 2_000_001,
    pull: 3_000_001,
    comment: 4_000_001,
    reaction: 5_000_001,
    label: 6_000_001,
  };

  constructor(
    readonly ctx: ShapeContext,
    readonly origin: OriginRepo | undefined,
    clockStartMs: number = CLOCK_ORIGIN_MS,
  ) {
    this.clockMs = Math.floor(clockStartMs / 1000) * 1000;
  }

  /** The next emulated instant, formatted the way GitHub formats timestamps (no milliseconds). */
  now(): string {
    this.clockMs += 1000;
    return new Date(this.clockMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  /** Moves the clock on by `ms` (rounded down to whole seconds), as time passing between events. */
  advanceClock(ms: number): void {
    this.clockMs += Math.floor(ms / 1000) * 1000;
  }

  nextId(kind: keyof GitHubState['nextIds']): number {
    const id = this.nextIds[kind];
    this.nextIds[kind] = id + 1;
    return id;
  }

  user(login: string, type?: UserType): UserRecord {
    return { login, type: type ?? (isBotLogin(login) ? 'Bot' : 'User') };
  }

  setRole(login: string, role: RepoRole): void {
    this.roles.set(login.toLowerCase(), role);
  }

  /** The role GitHub would report, or undefined for a login the repository has no grant for. */
  roleOf(login: string): RepoRole | undefined {
    const role = this.roles.get(login.toLowerCase());
    if (role !== undefined) return role;
    // The owner of a user-owned repository is its admin without being listed as a collaborator.
    if (login.toLowerCase() === this.ctx.owner.toLowerCase()) return 'admin';
    return undefined;
  }

  association(login: string): string {
    return authorAssociation(this.ctx, login, this.roleOf(login));
  }

  /** Finds or creates a repository label, as GitHub does for labels named when writing an issue. */
  label(name: string): LabelRecord {
    const key = name.toLowerCase();
    const existing = this.labelRecords.get(key);
    if (existing) return existing;
    const id = this.nextId('label');
    const record: LabelRecord = { id, name, color: LABEL_COLOURS[(id - 1) % LABEL_COLOURS.length] ?? 'ededed' };
    this.labelRecords.set(key, record);
    return record;
  }

  createIssue(input: {
    title: string;
    body: string | null;
    user: UserRecord;
    labels?: readonly string[];
  }): IssueRecord {
    const at = this.now();
    const issue: IssueRecord = {
      number: this.nextNumber++,
      id: this.nextId('issue'),
      title: input.title,
      body: input.body,
      user: input.user,
      state: 'open',
      stateReason: null,
      labels: dedupeLabels((input.labels ?? []).map((name) => this.label(name))),
      createdAt: at,
      updatedAt: at,
      closedAt: null,
      closedBy: null,
    };
    this.issues.set(issue.number, issue);
    return issue;
  }

  /**
   * The commit a branch points at: read from origin when there is one, otherwise derived from the
   * name so tests without git still get stable, distinct shas.
   */
  branchSha(branch: string): string | undefined {
    if (this.origin) return this.origin.branchSha(branch);
    return branch === '' ? undefined : createHash('sha1').update(`refs/heads/${branch}`).digest('hex');
  }

  createPull(
    input: Pick<IssueRecord, 'title' | 'body' | 'user'> &
      Pick<PullRecord, 'head' | 'base' | 'headSha' | 'baseSha' | 'draft' | 'headOwner'>,
  ): IssueRecord {
    const issue = this.createIssue({ title: input.title, body: input.body, user: input.user });
    issue.pull = {
      id: this.nextId('pull'),
      head: input.head,
      base: input.base,
      headSha: input.headSha,
      baseSha: input.baseSha,
      draft: input.draft,
      ...(input.headOwner ? { headOwner: input.headOwner } : {}),
      stats: { commits: 0, additions: 0, deletions: 0, changedFiles: 0 },
    };
    this.refreshPull(issue);
    return issue;
  }

  /** Follows pushes to an open pull request's branches, as GitHub does; a closed one stays frozen. */
  refreshPull(issue: IssueRecord): void {
    const pull = issue.pull;
    if (!pull || issue.state !== 'open') return;
    if (this.origin) {
      // A fork's head branch lives in the fork: origin's branch of that name is another one.
      if (!pull.headOwner) pull.headSha = this.origin.branchSha(pull.head) ?? pull.headSha;
      pull.baseSha = this.origin.branchSha(pull.base) ?? pull.baseSha;
      pull.stats = this.origin.diffStats(pull.baseSha, pull.headSha);
    } else {
      pull.stats = { commits: pull.headSha === pull.baseSha ? 0 : 1, additions: 0, deletions: 0, changedFiles: 0 };
    }
  }

  /** The open pull request GitHub would name in "A pull request already exists". */
  openPullFor(head: string, base: string): IssueRecord | undefined {
    for (const issue of this.issues.values()) {
      const pull = issue.pull;
      if (issue.state === 'open' && pull?.head === head && !pull.headOwner && pull.base === base) return issue;
    }
    return undefined;
  }

  /** Whether GitHub would refuse a pull request because `head` adds nothing to `base`. */
  noCommitsBetween(baseSha: string, headSha: string): boolean {
    if (headSha === baseSha) return true;
    return this.origin ? this.origin.isAncestor(headSha, baseSha) : false;
  }

  createComment(issue: IssueRecord, body: string, user: UserRecord): CommentRecord {
    const at = this.now();
    const comment: CommentRecord = {
      id: this.nextId('comment'),
      issueNumber: issue.number,
      body,
      user,
      createdAt: at,
      updatedAt: at,
      editor: null,
      lastEditedAt: null,
    };
    this.commentRecords.set(comment.id, comment);
    issue.updatedAt = at;
    return comment;
  }

  /**
   * Replaces a comment's body as `editor`: through the REST API that is the token's account, in a
   * test it can be anyone, which is how a human editing a plan in the web UI is simulated.
   */
  editComment(comment: CommentRecord, body: string, editor: UserRecord): void {
    const at = this.now();
    comment.body = body;
    comment.updatedAt = at;
    comment.editor = editor;
    comment.lastEditedAt = at;
  }

  /** Adds a reaction unless the user already left the same one; `created` tells the two apart. */
  react(
    comment: CommentRecord,
    user: UserRecord,
    content: ReactionContent,
  ): { reaction: ReactionRecord; created: boolean } {
    const existing = this.reactionRecords.find(
      (r) =>
        r.commentId === comment.id && r.content === content && r.user.login.toLowerCase() === user.login.toLowerCase(),
    );
    if (existing) return { reaction: existing, created: false };
    const reaction: ReactionRecord = {
      id: this.nextId('reaction'),
      commentId: comment.id,
      user,
      content,
      createdAt: this.now(),
    };
    this.reactionRecords.push(reaction);
    return { reaction, created: true };
  }

  /** Registers or moves a workflow run; a completed run without a conclusion succeeded. */
  setRun(id: number, status: RunStatus, conclusion?: RunConclusion): RunRecord {
    const at = this.now();
    const existing = this.runs.get(id);
    const run: RunRecord = existing ?? {
      id,
      runNumber: this.runs.size + 1,
      status,
      conclusion: null,
      createdAt: at,
      updatedAt: at,
    };
    run.status = status;
    run.conclusion = status === 'completed' ? (conclusion ?? 'success') : null;
    run.updatedAt = at;
    this.runs.set(id, run);
    return run;
  }

  setIssueState(
    issue: IssueRecord,
    state: 'open' | 'closed',
    by: UserRecord,
    reason?: IssueRecord['stateReason'],
  ): void {
    if (issue.state === state) return;
    const at = this.now();
    issue.state = state;
    issue.updatedAt = at;
    if (state === 'closed') {
      issue.closedAt = at;
      issue.closedBy = by;
      issue.stateReason = reason ?? 'completed';
    } else {
      issue.closedAt = null;
      issue.closedBy = null;
      issue.stateReason = 'reopened';
    }
  }

  setLabels(issue: IssueRecord, names: readonly string[]): void {
    issue.labels = dedupeLabels(names.map((name) => this.label(name)));
  }

  commentsOf(issueNumber: number): CommentRecord[] {
    return [...this.commentRecords.values()].filter((c) => c.issueNumber === issueNumber).sort((a, b) => a.id - b.id);
  }

  reactionsOf(commentId: number): ReactionRecord[] {
    return this.reactionRecords.filter((r) => r.commentId === commentId);
  }

  repositoryJson(): Record<string, unknown> {
    return repositoryShape(this.ctx);
  }

  issueJson(issue: IssueRecord): Record<string, unknown> {
    return issueShape(this.ctx, issue, {
      comments: this.commentsOf(issue.number).length,
      association: this.association(issue.user.login),
      reactions: [],
    });
  }

  commentJson(comment: CommentRecord): Record<string, unknown> {
    const issue = this.issues.get(comment.issueNumber);
    if (!issue) throw new Error(`comment ${comment.id} belongs to no issue`);
    return commentShape(this.ctx, comment, issue, {
      association: this.association(comment.user.login),
      reactions: this.reactionsOf(comment.id),
    });
  }

  reactionJson(reaction: ReactionRecord): Record<string, unknown> {
    return reactionShape(this.ctx, reaction);
  }

  pullJson(issue: IssueRecord): Record<string, unknown> {
    const pull = requirePull(issue);
    this.refreshPull(issue);
    return pullShape(this.ctx, issue, pull, {
      association: this.association(issue.user.login),
      comments: this.commentsOf(issue.number).length,
    });
  }

  pullSimpleJson(issue: IssueRecord): Record<string, unknown> {
    const pull = requirePull(issue);
    this.refreshPull(issue);
    return pullSimpleShape(this.ctx, issue, pull, { association: this.association(issue.user.login) });
  }

  permissionJson(login: string, role: RepoRole): Record<string, unknown> {
    return permissionShape(this.ctx, login, role);
  }
}

function requirePull(issue: IssueRecord): PullRecord {
  if (!issue.pull) throw new Error(`#${issue.number} is not a pull request`);
  return issue.pull;
}

function dedupeLabels(labels: readonly LabelRecord[]): LabelRecord[] {
  return [...new Map(labels.map((label) => [label.id, label])).values()];
}

/** Body length as GitHub counts it: in characters, so a surrogate pair counts once. */
export function characterCount(text: string): number {
  return [...text].length;
}
