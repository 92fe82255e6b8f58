import { userShape, type UserRecord } from './github-emulator-shapes.js';
import { issueNumber, notFound, paginate, type Route } from './github-emulator-routes.js';
import type { GitHubState } from './github-emulator-state.js';

/**
 * A pull request's review as GitHub's REST API shows it: changed files, review comments (on lines
 * of the diff, with replies), reviews, and the check runs of a commit with their annotations. Tests
 * add review comments, reviews and check runs; files come from origin's diff.
 */

export interface ReviewCommentRecord {
  id: number;
  pull: number;
  user: UserRecord;
  body: string;
  path: string;
  line: number;
  /** Null once outdated, as GitHub answers for a comment on code that changed. */
  position: number | null;
  inReplyTo?: number;
  /** On a thread's first comment: who resolved the thread (only GraphQL tells); absent while it is open. */
  resolvedBy?: UserRecord;
  createdAt: string;
}

export interface ReviewRecord {
  id: number;
  pull: number;
  user: UserRecord;
  body: string;
  state: string;
  submittedAt: string;
}

export interface CheckRunRecord {
  id: number;
  sha: string;
  name: string;
  conclusion: string;
  annotations: { path: string; line: number; level: string; title: string; message: string }[];
}

export interface ReviewStore {
  comments: ReviewCommentRecord[];
  reviews: ReviewRecord[];
  checkRuns: CheckRunRecord[];
  nextId: number;
}

const stores = new WeakMap<GitHubState, ReviewStore>();

/** The review data of one emulator's state, created on first use. */
export function reviewStore(state: GitHubState): ReviewStore {
  let store = stores.get(state);
  if (!store) {
    store = { comments: [], reviews: [], checkRuns: [], nextId: 70_000_001 };
    stores.set(state, store);
  }
  return store;
}

const DOCS = 'https://docs.github.com/rest';

function pullUrl(state: GitHubState, pull: number): { api: string; html: string } {
  const { apiUrl, serverUrl, owner, repo } = state.ctx;
  return { api: `${apiUrl}/repos/${owner}/${repo}/pulls/${pull}`, html: `${serverUrl}/${owner}/${repo}/pull/${pull}` };
}

/** A `pull-request-review-comment`, with the fields plangate and most clients read. */
export function reviewCommentJson(state: GitHubState, c: ReviewCommentRecord): Record<string, unknown> {
  const { apiUrl, owner, repo } = state.ctx;
  const urls = pullUrl(state, c.pull);
  return {
    url: `${apiUrl}/repos/${owner}/${repo}/pulls/comments/${c.id}`,
    pull_request_review_id: null,
    id: c.id,
    node_id: `PRRC_${c.id}`,
    diff_hunk: '@@',
    path: c.path,
    position: c.position,
    original_position: c.line,
    commit_id: '0'.repeat(40),
    original_commit_id: '0'.repeat(40),
    ...(c.inReplyTo !== undefined ? { in_reply_to_id: c.inReplyTo } : {}),
    user: userShape(state.ctx, c.user),
    body: c.body,
    created_at: c.createdAt,
    updated_at: c.createdAt,
    html_url: `${urls.html}#discussion_r${c.id}`,
    pull_request_url: urls.api,
    author_association: 'COLLABORATOR',
    line: c.position === null ? null : c.line,
    original_line: c.line,
    side: 'RIGHT',
  };
}

function reviewJson(state: GitHubState, r: ReviewRecord): Record<string, unknown> {
  const urls = pullUrl(state, r.pull);
  return {
    id: r.id,
    node_id: `PRR_${r.id}`,
    user: userShape(state.ctx, r.user),
    body: r.body,
    state: r.state,
    html_url: `${urls.html}#pullrequestreview-${r.id}`,
    pull_request_url: urls.api,
    submitted_at: r.submittedAt,
    commit_id: '0'.repeat(40),
    author_association: 'COLLABORATOR',
  };
}

function checkRunJson(state: GitHubState, run: CheckRunRecord): Record<string, unknown> {
  const { apiUrl, serverUrl, owner, repo } = state.ctx;
  return {
    id: run.id,
    head_sha: run.sha,
    node_id: `CR_${run.id}`,
    external_id: '',
    url: `${apiUrl}/repos/${owner}/${repo}/check-runs/${run.id}`,
    html_url: `${serverUrl}/${owner}/${repo}/runs/${run.id}`,
    details_url: null,
    status: 'completed',
    conclusion: run.conclusion,
    started_at: state.now(),
    completed_at: state.now(),
    output: {
      title: run.name,
      summary: '',
      text: null,
      annotations_count: run.annotations.length,
      annotations_url: '',
    },
    name: run.name,
    check_suite: { id: run.id },
    app: null,
    pull_requests: [],
  };
}

export const REVIEW_ROUTES: Route[] = [
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/files',
    docs: `${DOCS}/pulls/pulls#list-pull-requests-files`,
    handle: (state, request) => {
      const issue = state.issues.get(issueNumber(request, 'pull_number') ?? -1);
      if (!issue?.pull || !state.origin) return notFound();
      const files = state.origin.fileStats(issue.pull.baseSha, state.branchSha(issue.pull.head) ?? issue.pull.headSha);
      return paginate(
        files.map((f) => ({
          sha: '0'.repeat(40),
          filename: f.path,
          status: 'modified',
          additions: f.additions,
          deletions: f.deletions,
          changes: f.additions + f.deletions,
          blob_url: '',
          raw_url: '',
          contents_url: '',
        })),
        request,
      );
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/comments',
    docs: `${DOCS}/pulls/comments#list-review-comments-on-a-pull-request`,
    handle: (state, request) => {
      const pull = issueNumber(request, 'pull_number');
      const list = reviewStore(state).comments.filter((c) => c.pull === pull);
      return paginate(
        list.map((c) => reviewCommentJson(state, c)),
        request,
      );
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/pulls/comments/{comment_id}',
    docs: `${DOCS}/pulls/comments#get-a-review-comment-for-a-pull-request`,
    handle: (state, request) => {
      const found = reviewStore(state).comments.find((c) => c.id === issueNumber(request, 'comment_id'));
      return found ? { status: 200, body: reviewCommentJson(state, found) } : notFound();
    },
  },
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions',
    docs: `${DOCS}/reactions/reactions#create-reaction-for-a-pull-request-review-comment`,
    writes: 'pull-requests',
    handle: (state, request) => {
      const found = reviewStore(state).comments.find((c) => c.id === issueNumber(request, 'comment_id'));
      if (!found) return notFound();
      const content = (request.body as { content?: string } | undefined)?.content ?? '';
      return {
        status: 201,
        body: {
          id: reviewStore(state).nextId++,
          user: userShape(state.ctx, request.caller),
          content,
          created_at: state.now(),
        },
      };
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews',
    docs: `${DOCS}/pulls/reviews#list-reviews-for-a-pull-request`,
    handle: (state, request) => {
      const pull = issueNumber(request, 'pull_number');
      return paginate(
        reviewStore(state)
          .reviews.filter((r) => r.pull === pull)
          .map((r) => reviewJson(state, r)),
        request,
      );
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}',
    docs: `${DOCS}/pulls/reviews#get-a-review-for-a-pull-request`,
    handle: (state, request) => {
      const found = reviewStore(state).reviews.find((r) => r.id === issueNumber(request, 'review_id'));
      return found ? { status: 200, body: reviewJson(state, found) } : notFound();
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/commits/{ref}/check-runs',
    docs: `${DOCS}/checks/runs#list-check-runs-for-a-git-reference`,
    handle: (state, request) => {
      const ref = request.params.ref ?? '';
      const sha = /^[0-9a-f]{40}$/.test(ref) ? ref : state.branchSha(ref.replace(/^heads\//, ''));
      const runs = reviewStore(state).checkRuns.filter((r) => r.sha === sha);
      return { status: 200, body: { total_count: runs.length, check_runs: runs.map((r) => checkRunJson(state, r)) } };
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations',
    docs: `${DOCS}/checks/runs#list-check-run-annotations`,
    handle: (state, request) => {
      const run = reviewStore(state).checkRuns.find((r) => r.id === issueNumber(request, 'check_run_id'));
      if (!run) return notFound();
      return paginate(
        run.annotations.map((a) => ({
          path: a.path,
          start_line: a.line,
          end_line: a.line,
          start_column: null,
          end_column: null,
          annotation_level: a.level,
          title: a.title,
          message: a.message,
          raw_details: null,
          blob_href: '',
        })),
        request,
      );
    },
  },
];
