import type { CommandSource } from './command.js';
import { fetchBranch } from '../repo/branch.js';
import { errorMessage } from '../text/error-message.js';
import type { RunContext } from './run-context.js';
import type { PullRequest } from '../github/thread.js';
import { isPlangatePullRequestBody } from '../render/pull-request-sections.js';

/**
 * Where a run's work starts and goes: the base it is made from (a pull request's head, the
 * configured base branch, or the default branch, at the commit fetched now) and the work branch
 * named after the issue and the plan.
 */
export interface Base {
  ref: string;
  sha: string;
}

/**
 * The base as `/plan` found it: on a pull request, the pull request itself, and whether the work
 * goes on its head branch (`sameBranch`) instead of a stacked pull request.
 */
export interface ResolvedBase extends Base {
  pull?: PullRequest;
  sameBranch?: boolean;
}

export type BaseOrRefusal = ResolvedBase | { refusal: string; fix: string };

/**
 * The work branch of a plan: `<branch-prefix><issue>-<plan id>`, or, for a plan that works on a pull
 * request's own branch, that branch (its base).
 */
export function branchFor(
  ctx: RunContext,
  issue: number,
  planId: string,
  record?: { sameBranch?: true; base: Base },
): string {
  if (record?.sameBranch) return record.base.ref;
  return `${ctx.settings.branchPrefix}${issue}-${planId}`;
}

/** True for a pull request plangate opened: the bot's, with plangate's marker in its body. */
export function openedByPlangate(ctx: RunContext, pull: PullRequest): boolean {
  return pull.author === ctx.settings.botLogin && isPlangatePullRequestBody(pull.body);
}

/** Where the work starts: a pull request's head, the configured base branch, or the default branch. */
export async function resolveBase(ctx: RunContext, source: CommandSource): Promise<BaseOrRefusal> {
  let ref = ctx.settings.baseBranch;
  let pull: PullRequest | undefined;
  if (source.thread.isPullRequest) {
    pull = await ctx.thread.pullRequest(source.thread.number);
    if (!pull.sameRepo) {
      return {
        refusal: 'this pull request comes from a fork; plangate cannot push to its branch.',
        fix: 'Run /plan on an issue instead, or on a pull request from a branch of this repository.',
      };
    }
    ref = pull.headRef;
  }
  if (!ref) ref = await ctx.thread.defaultBranch();
  // plangate's own pull requests get the work on their branch; others only when the input says so.
  const sameBranch = pull && (openedByPlangate(ctx, pull) || ctx.settings.pullRequestMode === 'same-branch');
  try {
    // The default branch was fetched moments ago for the configuration: the work starts from that same commit.
    const sha = ref === ctx.trusted.ref ? ctx.trusted.sha : await fetchBranch(ctx.git, ref);
    return { ref, sha, ...(pull ? { pull } : {}), ...(sameBranch ? { sameBranch: true } : {}) };
  } catch (error) {
    return {
      refusal: `the base branch \`${ref}\` could not be fetched (${errorMessage(error)}).`,
      fix: 'Check the `base-branch` input and that the workflow checks out the repository with actions/checkout.',
    };
  }
}
