import * as core from '@actions/core';
import type { Plan } from '../machine/fields.js';
import type { PriceTable } from '../config/prices.js';
import type { TokenUsage } from '../models/usage.js';
import type { Git } from '../repo/git.js';
import { baseTreeLookup } from './base-tree.js';
import { estimateExecutionCost } from './cost-estimate.js';
import { checkPlan, existenceQuestions, type FileExists, type PlanRules } from './plan-checks.js';
import { storeChecks, type PlanChecks } from './stored-checks.js';
import { errorMessage } from '../text/error-message.js';

/** Everything the checks of a freshly staged plan need, gathered by the planning flow. */
export interface StagedPlanInput {
  plan: Plan;
  rules: PlanRules;
  git: Git;
  baseSha: string;
  /** The planner's usage for this plan alone. */
  planning: TokenUsage;
  executorModel: string;
  prices: PriceTable;
}

/**
 * The checks and estimate a plan is posted with. The base tree is the only I/O; when git cannot list
 * it, existence is left unjudged (it never blocks) rather than failing a plan that is otherwise fine.
 */
export async function checksForStagedPlan(input: StagedPlanInput): Promise<PlanChecks> {
  let fileExists: FileExists | undefined;
  try {
    fileExists = await baseTreeLookup(input.git, input.baseSha, existenceQuestions(input.plan));
  } catch (error) {
    core.warning(
      `Could not list the files of the base commit, so the plan's files were not checked for existence: ${errorMessage(error)}`,
    );
  }
  const findings = checkPlan(input.plan, input.rules, fileExists);
  const estimate = estimateExecutionCost({
    planning: input.planning,
    steps: input.plan.steps.length,
    executorModel: input.executorModel,
    prices: input.prices,
  });
  return storeChecks(findings, estimate);
}
