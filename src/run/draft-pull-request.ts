import * as core from '@actions/core';
import { explainGitHubError } from '../github/errors.js';
import { pullRequestTitle } from '../render/pull-request.js';
import { renderDraftPullRequestBody } from '../render/pull-request-draft.js';
import { escapeProse } from '../text/markdown.js';
import type { FlowResult } from './run-context.js';
import type { Progress } from './checkpoint.js';
import { executionView, type ExecutionRun } from './execution-run.js';
import { PushDeniedError } from './work-branch.js';

/**
 * The pull request opened as a draft before the executor's first model request, as the Copilot
 * coding agent does: pushing the work branch and opening its pull request are what a missing
 * permission or repository setting refuses, and finding that out after every cycle has been paid
 * for wastes the run. The run fills the draft in and marks it ready when it ends (publish.ts).
 */

/** What the reply offers beside the setting or permission to fix. */
const appTokenAlternative =
  "Or give plangate a GitHub App's installation token (the `github-token` input; see examples/github-app-token.yml and docs/troubleshooting.md): the repository setting and the job's `permissions:` do not govern it, and CI runs on its pull requests, which it never does for pull requests opened with `GITHUB_TOKEN`.";

/** The empty commit that starts a work branch: GitHub opens no pull request for a head without one. */
export function startCommitMessage(planId: string, issue: number): string {
  return `plangate: start plan ${planId}\n\nRefs #${issue}`;
}

/**
 * Pushes the work branch (an empty start commit when nothing is pushed yet) and opens its pull
 * request as a draft, checkpointing it, so a resumed run finds it and the run keeps one pull request.
 * Answers the result to end with when GitHub refuses either for a reason the user must fix; throws
 * anything else. A run on a pull request's own branch, or one whose checkpoint has its pull request, opens none.
 */
export async function openDraftPullRequest(run: ExecutionRun, progress: Progress): Promise<FlowResult | undefined> {
  const { ctx, record } = run;
  if (record.sameBranch || run.pullRequest) return undefined;
  const snapshot = run.team.run.snapshot;
  try {
    await run.work.start(startCommitMessage(record.planId, record.issue));
  } catch (error) {
    if (!(error instanceof PushDeniedError)) throw error;
    return refusedAtStart(run, progress, error.message);
  }
  const view = executionView(run, snapshot);
  let pull: { number: number; url: string };
  try {
    // A pull request a stopped attempt opened from this branch is adopted, not opened twice (thread-pulls.ts).
    pull = await ctx.thread.createPullRequest({
      title: pullRequestTitle(view),
      head: record.branch,
      base: record.base.ref,
      body: renderDraftPullRequestBody(view),
      draft: true,
    });
  } catch (error) {
    const { kind, message } = explainGitHubError(error);
    if (kind !== 'pull-requests-disabled' && kind !== 'missing-permission') throw error;
    return refusedAtStart(run, progress, message);
  }
  run.pullRequest = { number: pull.number, url: pull.url };
  core.info(`Opened draft pull request #${pull.number} for plan ${record.planId}.`);
  await progress.save(snapshot);
  return undefined;
}

/**
 * GitHub refused the branch or the pull request before the executor was asked anything: the thread
 * is told what to change, the command gets a 😕, the step fails, and the plan stays `executing` so
 * the next `/approve` (or a re-run) starts it once the fix is in.
 */
async function refusedAtStart(run: ExecutionRun, progress: Progress, what: string): Promise<FlowResult> {
  const { ctx, record, execution } = run;
  const { source } = execution;
  const id = execution.amendment?.amendmentId ?? record.planId;
  await progress
    .save(run.team.run.snapshot, { interrupted: `plangate could not open the pull request: ${what}` })
    .catch(() => undefined);
  const body = [
    `@${source.author} plan \`${record.planId}\` did not start: plangate opens its pull request before the executor's first model request, and GitHub refused it. ${escapeProse(what)}`,
    '',
    escapeProse(appTokenAlternative),
    '',
    `No executor model request was made. Once that is fixed, comment \`/approve ${id}\` (or re-run the job) to start the run.${ctx.runUrl ? ` See the [job log](${ctx.runUrl}).` : ''}`,
  ].join('\n');
  await ctx.thread.postComment(source.thread.number, body);
  await ctx.thread.react(source.commentId, 'confused', source.origin).catch(() => undefined);
  return {
    outcome: 'failed',
    planId: record.planId,
    usage: run.team.totals(),
    failure: `plangate could not open the pull request for plan ${record.planId}: ${what}`,
  };
}
