import { createHash } from 'node:crypto';

/** Repository roles GitHub assigns, from most to least access. */
export type RepoRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

/** Reaction contents GitHub accepts on issue comments. */
export const REACTION_CONTENTS = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'] as const;
export type ReactionContent = (typeof REACTION_CONTENTS)[number];

export type UserType = 'User' | 'Bot';

/** The emulated repository's id, shared with the webhook payloads so both name the same repository. */
export const EMULATED_REPO_ID = 1_296_269;

/** Where the emulated repository lives; every URL in every shape derives from it. */
export interface ShapeContext {
  apiUrl: string;
  serverUrl: string;
  owner: string;
  repo: string;
  defaultBranch: string;
  private: boolean;
  repoId: number;
  repoCreatedAt: string;
}

export interface UserRecord {
  login: string;
  type: UserType;
}

export interface LabelRecord {
  id: number;
  name: string;
  color: string;
}

export interface PullRecord {
  id: number;
  head: string;
  base: string;
  headSha: string;
  baseSha: string;
  draft: boolean;
  /** The owner of the fork the head branch lives in; absent for a branch of this repository. */
  headOwner?: string;
  /** Users asked to review, in the order they were asked; absent means none. */
  requestedReviewers?: UserRecord[];
  stats: { commits: number; additions: number; deletions: number; changedFiles: number };
}

export interface IssueRecord {
  number: number;
  id: number;
  title: string;
  body: string | null;
  user: UserRecord;
  state: 'open' | 'closed';
  stateReason: 'completed' | 'reopened' | 'not_planned' | 'duplicate' | null;
  labels: LabelRecord[];
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  closedBy: UserRecord | null;
  pull?: PullRecord;
}

export interface CommentRecord {
  id: number;
  issueNumber: number;
  body: string;
  user: UserRecord;
  createdAt: string;
  updatedAt: string;
  /** Who made the last edit, null until someone edits; only GraphQL shows it, REST never does. */
  editor: UserRecord | null;
  lastEditedAt: string | null;
}

export interface ReactionRecord {
  id: number;
  commentId: number;
  user: UserRecord;
  content: ReactionContent;
  createdAt: string;
}

/** The legacy node id GitHub still returns for REST objects: base64 of "0<len>:<Type><id>". */
export function legacyNodeId(typeName: string, id: number): string {
  return Buffer.from(`0${typeName.length}:${typeName}${id}`).toString('base64');
}

/** The id GitHub gives the Actions bot, so payloads and API answers agree on it. */
const KNOWN_USER_IDS: Readonly<Record<string, number>> = { 'github-actions[bot]': 41898282 };

/**
 * A user id derived from the login alone, so the emulator and the webhook payload builder give one
 * login the same id without sharing state.
 */
export function stableUserId(login: string): number {
  const known = KNOWN_USER_IDS[login];
  if (known !== undefined) return known;
  return 1_000_000 + (createHash('sha256').update(login).digest().readUInt32BE(0) % 9_000_000);
}

/** A login GitHub would show as an app's bot account. */
export function isBotLogin(login: string): boolean {
  return login.endsWith('[bot]');
}

function repoApi(ctx: ShapeContext): string {
  return `${ctx.apiUrl}/repos/${ctx.owner}/${ctx.repo}`;
}

function repoHtml(ctx: ShapeContext): string {
  return `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}`;
}

/** A `simple-user`, with every URL GitHub lists for one. */
export function userShape(ctx: ShapeContext, user: UserRecord): Record<string, unknown> {
  const id = stableUserId(user.login);
  const api = `${ctx.apiUrl}/users/${encodeURIComponent(user.login)}`;
  const html =
    user.type === 'Bot'
      ? `${ctx.serverUrl}/apps/${encodeURIComponent(user.login.replace(/\[bot\]$/, ''))}`
      : `${ctx.serverUrl}/${encodeURIComponent(user.login)}`;
  return {
    login: user.login,
    id,
    node_id: legacyNodeId(user.type, id),
    avatar_url: `${ctx.serverUrl}/avatars/u/${id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url: html,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: user.type,
    user_view_type: 'public',
    site_admin: false,
  };
}

/** A `full-repository`; it also satisfies `repository`, which pull request heads and bases embed. */
export function repositoryShape(ctx: ShapeContext): Record<string, unknown> {
  const api = repoApi(ctx);
  const html = repoHtml(ctx);
  const host = new URL(ctx.serverUrl).host;
  return {
    id: ctx.repoId,
    node_id: legacyNodeId('Repository', ctx.repoId),
    name: ctx.repo,
    full_name: `${ctx.owner}/${ctx.repo}`,
    private: ctx.private,
    owner: userShape(ctx, { login: ctx.owner, type: 'User' }),
    html_url: html,
    description: null,
    fork: false,
    url: api,
    forks_url: `${api}/forks`,
    keys_url: `${api}/keys{/key_id}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    teams_url: `${api}/teams`,
    hooks_url: `${api}/hooks`,
    issue_events_url: `${api}/issues/events{/number}`,
    events_url: `${api}/events`,
    assignees_url: `${api}/assignees{/user}`,
    branches_url: `${api}/branches{/branch}`,
    tags_url: `${api}/tags`,
    blobs_url: `${api}/git/blobs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    trees_url: `${api}/git/trees{/sha}`,
    statuses_url: `${api}/statuses/{sha}`,
    languages_url: `${api}/languages`,
    stargazers_url: `${api}/stargazers`,
    contributors_url: `${api}/contributors`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    commits_url: `${api}/commits{/sha}`,
    git_commits_url: `${api}/git/commits{/sha}`,
    comments_url: `${api}/comments{/number}`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    contents_url: `${api}/contents/{+path}`,
    compare_url: `${api}/compare/{base}...{head}`,
    merges_url: `${api}/merges`,
    archive_url: `${api}/{archive_format}{/ref}`,
    downloads_url: `${api}/downloads`,
    issues_url: `${api}/issues{/number}`,
    pulls_url: `${api}/pulls{/number}`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    labels_url: `${api}/labels{/name}`,
    releases_url: `${api}/releases{/id}`,
    deployments_url: `${api}/deployments`,
    created_at: ctx.repoCreatedAt,
    updated_at: ctx.repoCreatedAt,
    pushed_at: ctx.repoCreatedAt,
    git_url: `git://${host}/${ctx.owner}/${ctx.repo}.git`,
    ssh_url: `git@${host}:${ctx.owner}/${ctx.repo}.git`,
    clone_url: `${html}.git`,
    svn_url: html,
    homepage: null,
    size: 0,
    stargazers_count: 0,
    watchers_count: 0,
    language: null,
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    forks_count: 0,
    mirror_url: null,
    archived: false,
    disabled: false,
    open_issues_count: 0,
    license: null,
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: [],
    visibility: ctx.private ? 'private' : 'public',
    forks: 0,
    open_issues: 0,
    watchers: 0,
    default_branch: ctx.defaultBranch,
    network_count: 0,
    subscribers_count: 0,
  };
}

/** A `label`; colours come from the record so a label looks the same in every answer. */
export function labelShape(ctx: ShapeContext, label: LabelRecord): Record<string, unknown> {
  return {
    id: label.id,
    node_id: legacyNodeId('Label', label.id),
    url: `${repoApi(ctx)}/labels/${encodeURIComponent(label.name)}`,
    name: label.name,
    description: null,
    color: label.color,
    default: false,
  };
}

/** The `reaction-rollup` GitHub embeds in issues and comments. */
export function reactionRollupShape(url: string, reactions: readonly ReactionRecord[]): Record<string, unknown> {
  const rollup: Record<string, unknown> = { url, total_count: reactions.length };
  for (const content of REACTION_CONTENTS) rollup[content] = reactions.filter((r) => r.content === content).length;
  return rollup;
}

/** How GitHub labels a user's relation to the repository in `author_association`. */
export function authorAssociation(ctx: ShapeContext, login: string, role: RepoRole | undefined): string {
  if (login.toLowerCase() === ctx.owner.toLowerCase()) return 'OWNER';
  if (role !== undefined && role !== 'none' && role !== 'read') return 'COLLABORATOR';
  return 'NONE';
}

/** Path segment GitHub uses in html URLs: pull requests live under /pull/, issues under /issues/. */
function threadHtml(ctx: ShapeContext, issue: IssueRecord): string {
  return `${repoHtml(ctx)}/${issue.pull ? 'pull' : 'issues'}/${issue.number}`;
}

/** An `issue`; a pull request's issue carries the `pull_request` key, as on GitHub. */
export function issueShape(
  ctx: ShapeContext,
  issue: IssueRecord,
  extra: { comments: number; association: string; reactions: readonly ReactionRecord[] },
): Record<string, unknown> {
  const url = `${repoApi(ctx)}/issues/${issue.number}`;
  const shape: Record<string, unknown> = {
    url,
    repository_url: repoApi(ctx),
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: threadHtml(ctx, issue),
    id: issue.id,
    node_id: legacyNodeId(issue.pull ? 'PullRequest' : 'Issue', issue.id),
    number: issue.number,
    title: issue.title,
    user: userShape(ctx, issue.user),
    labels: issue.labels.map((label) => labelShape(ctx, label)),
    state: issue.state,
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: extra.comments,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    author_association: extra.association,
    active_lock_reason: null,
    body: issue.body,
    closed_by: issue.closedBy ? userShape(ctx, issue.closedBy) : null,
    reactions: reactionRollupShape(`${url}/reactions`, extra.reactions),
    timeline_url: `${url}/timeline`,
    performed_via_github_app: null,
    state_reason: issue.stateReason,
  };
  if (issue.pull) {
    shape.draft = issue.pull.draft;
    const pullUrl = `${repoApi(ctx)}/pulls/${issue.number}`;
    const html = threadHtml(ctx, issue);
    shape.pull_request = {
      url: pullUrl,
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      merged_at: null,
    };
  }
  return shape;
}

/** An `issue-comment`. */
export function commentShape(
  ctx: ShapeContext,
  comment: CommentRecord,
  issue: IssueRecord,
  extra: { association: string; reactions: readonly ReactionRecord[] },
): Record<string, unknown> {
  const url = `${repoApi(ctx)}/issues/comments/${comment.id}`;
  return {
    url,
    html_url: `${threadHtml(ctx, issue)}#issuecomment-${comment.id}`,
    issue_url: `${repoApi(ctx)}/issues/${issue.number}`,
    id: comment.id,
    node_id: legacyNodeId('IssueComment', comment.id),
    user: userShape(ctx, comment.user),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    author_association: extra.association,
    body: comment.body,
    reactions: reactionRollupShape(`${url}/reactions`, extra.reactions),
    performed_via_github_app: null,
  };
}

/** A `reaction`. */
export function reactionShape(ctx: ShapeContext, reaction: ReactionRecord): Record<string, unknown> {
  return {
    id: reaction.id,
    node_id: legacyNodeId('Reaction', reaction.id),
    user: userShape(ctx, reaction.user),
    content: reaction.content,
    created_at: reaction.createdAt,
  };
}

/** A pull request's head or base; a fork's head names the fork, with its own id and `fork: true`. */
function branchShape(ctx: ShapeContext, ref: string, sha: string, forkOwner?: string): Record<string, unknown> {
  const owner = forkOwner ?? ctx.owner;
  const repo = forkOwner
    ? { ...repositoryShape({ ...ctx, owner, repoId: ctx.repoId + 1 }), fork: true }
    : repositoryShape(ctx);
  return {
    label: `${owner}:${ref}`,
    ref,
    sha,
    user: userShape(ctx, { login: owner, type: 'User' }),
    repo,
  };
}

/** A `pull-request-simple`, what the pull request list returns. */
export function pullSimpleShape(
  ctx: ShapeContext,
  issue: IssueRecord,
  pull: PullRecord,
  extra: { association: string },
): Record<string, unknown> {
  const api = repoApi(ctx);
  const url = `${api}/pulls/${issue.number}`;
  const html = threadHtml(ctx, issue);
  const issueUrl = `${api}/issues/${issue.number}`;
  const link = (href: string): { href: string } => ({ href });
  return {
    url,
    id: pull.id,
    node_id: legacyNodeId('PullRequest', pull.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issueUrl,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${issueUrl}/comments`,
    statuses_url: `${api}/statuses/${pull.headSha}`,
    number: issue.number,
    state: issue.state,
    locked: false,
    title: issue.title,
    user: userShape(ctx, issue.user),
    body: issue.body,
    labels: issue.labels.map((label) => labelShape(ctx, label)),
    milestone: null,
    active_lock_reason: null,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    merged_at: null,
    merge_commit_sha: null,
    assignee: null,
    assignees: [],
    requested_reviewers: (pull.requestedReviewers ?? []).map((user) => userShape(ctx, user)),
    requested_teams: [],
    head: branchShape(ctx, pull.head, pull.headSha, pull.headOwner),
    base: branchShape(ctx, pull.base, pull.baseSha),
    _links: {
      self: link(url),
      html: link(html),
      issue: link(issueUrl),
      comments: link(`${issueUrl}/comments`),
      review_comments: link(`${url}/comments`),
      review_comment: link(`${api}/pulls/comments{/number}`),
      commits: link(`${url}/commits`),
      statuses: link(`${api}/statuses/${pull.headSha}`),
    },
    author_association: extra.association,
    auto_merge: null,
    draft: pull.draft,
  };
}

/** A `pull-request`, what get, create and update return: the simple shape plus merge state and counts. */
export function pullShape(
  ctx: ShapeContext,
  issue: IssueRecord,
  pull: PullRecord,
  extra: { association: string; comments: number },
): Record<string, unknown> {
  const open = issue.state === 'open';
  return {
    ...pullSimpleShape(ctx, issue, pull, extra),
    merged: false,
    mergeable: open ? true : null,
    rebaseable: open ? true : null,
    mergeable_state: open ? (pull.draft ? 'draft' : 'clean') : 'unknown',
    merged_by: null,
    comments: extra.comments,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: pull.stats.commits,
    additions: pull.stats.additions,
    deletions: pull.stats.deletions,
    changed_files: pull.stats.changedFiles,
  };
}

/** The collaborator-permission answer: legacy `permission` plus the precise `role_name`. */
export function permissionShape(ctx: ShapeContext, login: string, role: RepoRole): Record<string, unknown> {
  // GitHub folds maintain into write and triage into read for the legacy field.
  const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
  const rank = ['none', 'read', 'triage', 'write', 'maintain', 'admin'].indexOf(role);
  return {
    permission,
    role_name: role,
    user: {
      ...userShape(ctx, { login, type: isBotLogin(login) ? 'Bot' : 'User' }),
      permissions: {
        admin: rank >= 5,
        maintain: rank >= 4,
        push: rank >= 3,
        triage: rank >= 2,
        pull: rank >= 1,
      },
      role_name: role,
    },
  };
}
