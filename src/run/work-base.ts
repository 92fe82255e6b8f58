import type { CommandSource } from './command.js';
import { fetchBranch } from '../repo/branch.js';
import { errorMessage } from '../text/error-message.js';
import type { RunContext } from './run-context.js';

/**
 * Where a run's work starts and goes: the base it is made from (a pull request's head, the
 * configured base branch, or the default branch, at the commit fetched now) and the work branch
 * named after the issue and the plan.
 */
export interface Base {
  ref: string;
  sha: string;
}

export type BaseOrRefusal = Base | { refusal: string; fix: string };

/** The work branch of a plan: `<branch-prefix><issue>-<plan id>`. */
export function branchFor(ctx: RunContext, issue: number, planId: string): string {
  return `${ctx.settings.branchPrefix}${issue}-${planId}`;
}

/** Where the work starts: a pull request's head, the configured base branch, or the default branch. */
export async function resolveBase(ctx: RunContext, source: CommandSource): Promise<BaseOrRefusal> {
  let ref = ctx.settings.baseBranch;
  if (source.thread.isPullRequest) {
    const pull = await ctx.thread.pullRequest(source.thread.number);
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
      refusal: `the base branch \`${ref}\` could not be fetched (${errorMessage(error)}).`,
      fix: 'Check the `base-branch` input and that the workflow checks out the repository with actions/checkout.',
    };
  }
}
