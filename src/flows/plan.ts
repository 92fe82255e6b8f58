import * as core from '@actions/core';
import { initialSnapshot, defaultPolicy } from '../machine/planner-executor.js';
import { hashPlan, planIdFor, type PlanRecord } from '../record/plan-record.js';
import { verifyPlanComment } from '../record/verify.js';
import { renderPlanComment } from '../render/plan-comment.js';
import { renderUsageTable } from '../render/usage-table.js';
import { checkoutCommit, fetchBranch } from '../repo/branch.js';
import type { CommandOf, FlowResult, RunContext } from '../run-context.js';
import { refuse, refuseUnlessRole } from './refuse.js';
import { startTeamRun } from './run-team.js';

/**
 * `/plan`: the read-only planner studies the repository at the base commit and plangate posts the
 * plan with its record. Nothing is written to the repository; the plan waits for `/approve`.
 */
export async function planFlow(ctx: RunContext, command: CommandOf<'plan'>): Promise<FlowResult> {
  const { settings, thread } = ctx;
  const issue = command.thread.number;
  const denied = await refuseUnlessRole(thread, command, '/plan', settings.triggerPermission, 'Ask a maintainer to run /plan, or change the `trigger-permission` input.');
  if (denied) return denied;
  const objective = command.objective || [command.thread.title, command.thread.body].filter((s) => s.trim()).join('\n\n');
  if (!objective.trim()) {
    return refuse(thread, command, '/plan', 'there is no objective.', 'Write it after the command: `/plan <what should be done>`.');
  }
  if (!settings.planner.apiKey) {
    return refuse(
      thread,
      command,
      '/plan',
      'no API key is configured for the planner model.',
      'Set the `api-key` input (or `planner-api-key`) from a repository secret.',
    );
  }

  await thread.react(command.commentId, 'eyes');
  const base = await resolveBase(ctx, command);
  if ('refusal' in base) return refuse(thread, command, '/plan', base.refusal, base.fix);
  await checkoutCommit(ctx.git, base.sha);

  const policy = { ...defaultPolicy, maxIterations: settings.maxIterations };
  const team = startTeamRun(ctx, initialSnapshot(objective, policy));
  const snapshot = await team.drive({ until: (s) => s.state !== 'plan' });
  const { plan, directive } = snapshot.context;
  if (snapshot.state !== 'execute' || !plan || directive === undefined) {
    const reason = snapshot.abortReason ?? 'the planner stopped without staging a plan';
    await thread.postComment(
      issue,
      `@${command.author} planning failed: ${reason}\n\nNo plan was posted, so there is nothing to approve. Try \`/plan\` again, perhaps with a more specific objective.`,
    );
    await thread.react(command.commentId, '-1').catch(() => undefined);
    return { outcome: 'failed' };
  }

  const repository = `${thread.repoRef.owner}/${thread.repoRef.repo}`;
  const record: PlanRecord = {
    v: 1,
    planId: planIdFor(repository, issue, command.commentId),
    planHash: hashPlan({ objective, plan, directive }),
    status: 'proposed',
    issue,
    requestedBy: command.author,
    commandCommentId: command.commentId,
    base: { ref: base.ref, sha: base.sha },
    models: { planner: ctx.planner.model, executor: ctx.executor.model },
    snapshot,
    usage: team.ledger(),
  };
  await supersedeEarlierPlans(ctx, issue, record.planId);
  const posted = await thread.postComment(issue, renderPlanComment(record));
  core.info(`Posted plan ${record.planId}: ${posted.url}`);
  await ctx.writeSummary(
    [`### plangate: plan ${record.planId} posted`, '', `[Plan comment](${posted.url}) · ${plan.steps.length} steps`, '', renderUsageTable(team.usage())].join('\n'),
  );
  return { outcome: 'planned', planId: record.planId };
}

type Base = { ref: string; sha: string } | { refusal: string; fix: string };

/** Where the work starts: a pull request's head, the configured base branch, or the default branch. */
async function resolveBase(ctx: RunContext, command: CommandOf<'plan'>): Promise<Base> {
  let ref = ctx.settings.baseBranch;
  if (command.thread.isPullRequest) {
    const pull = await ctx.thread.pullRequest(command.thread.number);
    if (!pull.sameRepo) {
      return {
        refusal: 'this pull request comes from a fork; plangate cannot push to its branch.',
        fix: 'Run /plan on an issue instead, or on a pull request from a branch of this repository.',
      };
    }
    ref = pull.headRef;
  }
  if (!ref) ref = await ctx.thread.defaultBranch();
  try {
    return { ref, sha: await fetchBranch(ctx.git, ref) };
  } catch (error) {
    return {
      refusal: `the base branch \`${ref}\` could not be fetched (${error instanceof Error ? error.message : String(error)}).`,
      fix: 'Check the `base-branch` input and that the workflow checks out the repository with actions/checkout.',
    };
  }
}

/** Marks the thread's earlier proposed plans as superseded, so only the newest can be approved. */
async function supersedeEarlierPlans(ctx: RunContext, issue: number, newPlanId: string): Promise<void> {
  for (const comment of await ctx.thread.listComments(issue)) {
    const verdict = verifyPlanComment(comment, ctx.settings.botLogin, renderPlanComment);
    if (!verdict.ok || verdict.record.status !== 'proposed' || verdict.record.planId === newPlanId) continue;
    const record: PlanRecord = { ...verdict.record, status: 'superseded', supersededBy: newPlanId };
    await ctx.thread.updateComment(comment.id, renderPlanComment(record));
  }
}
