import { z } from 'zod';

/**
 * When plangate plans and when it acts: wait for `/approve` (the default), act right after
 * planning, only plan, or skip the planner and let the executor work the objective directly.
 */
export const runPolicies = ['plan-for-approval', 'plan-first', 'plan-only', 'executor-only'] as const;
export const runPolicySchema = z.enum(runPolicies);
export type RunPolicy = z.infer<typeof runPolicySchema>;
