import { legacyNodeId, repositoryShape, userShape, type ShapeContext } from './github-emulator-shapes.js';
import { notFound, type Route } from './github-emulator-routes.js';
import type { GitHubState } from './github-emulator-state.js';

/**
 * Workflow runs, as far as plangate asks about them: whether the run holding an execution lock is
 * still going. Runs exist only when a test (or the e2e harness, for each action it starts)
 * registers them with `setRun`.
 */

export type RunStatus = 'queued' | 'in_progress' | 'completed';
export type RunConclusion =
  'success' | 'failure' | 'cancelled' | 'timed_out' | 'skipped' | 'neutral' | 'action_required';

export interface RunRecord {
  id: number;
  runNumber: number;
  status: RunStatus;
  conclusion: RunConclusion | null;
  createdAt: string;
  updatedAt: string;
}

const DOC = 'https://docs.github.com/rest/actions/workflow-runs#get-a-workflow-run';
const WORKFLOW_ID = 161_335;
const WORKFLOW_PATH = '.github/workflows/plangate.yml';

/** A `workflow-run`, with the URLs GitHub gives it; html_url is the page plangate links to. */
export function workflowRunShape(
  ctx: ShapeContext,
  run: RunRecord,
  headSha: string,
  headCommit: unknown,
): Record<string, unknown> {
  const api = `${ctx.apiUrl}/repos/${ctx.owner}/${ctx.repo}`;
  const url = `${api}/actions/runs/${run.id}`;
  const actor = userShape(ctx, { login: ctx.owner, type: 'User' });
  const checkSuiteId = 1_000_000_000 + run.id;
  return {
    id: run.id,
    name: 'plangate',
    node_id: legacyNodeId('WorkflowRun', run.id),
    check_suite_id: checkSuiteId,
    check_suite_node_id: legacyNodeId('CheckSuite', checkSuiteId),
    head_branch: ctx.defaultBranch,
    head_sha: headSha,
    path: WORKFLOW_PATH,
    display_title: 'plangate',
    run_number: run.runNumber,
    run_attempt: 1,
    referenced_workflows: [],
    event: 'issue_comment',
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: WORKFLOW_ID,
    url,
    html_url: `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}/actions/runs/${run.id}`,
    pull_requests: [],
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    actor,
    triggering_actor: actor,
    run_started_at: run.createdAt,
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: `${api}/check-suites/${checkSuiteId}`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    previous_attempt_url: null,
    workflow_url: `${api}/actions/workflows/${WORKFLOW_ID}`,
    head_commit: headCommit,
    repository: repositoryShape(ctx),
    head_repository: repositoryShape(ctx),
  };
}

/** The head commit a run shows: the default branch's tip as origin has it, or null without origin. */
function headOf(state: GitHubState): { sha: string; commit: unknown } {
  const sha = state.branchSha(state.ctx.defaultBranch) ?? '0'.repeat(40);
  const commit = state.origin?.readCommit(sha);
  if (!commit) return { sha, commit: null };
  return {
    sha,
    commit: {
      id: commit.sha,
      tree_id: commit.tree,
      message: commit.message,
      timestamp: commit.committer.date,
      author: { name: commit.author.name, email: commit.author.email },
      committer: { name: commit.committer.name, email: commit.committer.email },
    },
  };
}

export const ACTIONS_ROUTES: readonly Route[] = [
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/actions/runs/{run_id}',
    docs: DOC,
    handle: (state, request) => {
      const raw = request.params.run_id ?? '';
      const run = /^\d+$/.test(raw) ? state.runs.get(Number(raw)) : undefined;
      if (!run) return notFound(DOC);
      const head = headOf(state);
      return { status: 200, body: workflowRunShape(state.ctx, run, head.sha, head.commit) };
    },
  },
];
