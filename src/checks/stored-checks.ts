import { z } from 'zod';
import { costEstimateSchema, type CostEstimate } from './cost-estimate.js';
import { findingSchema, isBlocking, type Finding } from './plan-checks.js';

/**
 * The checks as the plan record keeps them. The record is what the plan comment is rendered from and
 * what `/approve` judges, so a maintainer approves exactly the findings and estimate they read. It
 * rides in a GitHub comment, so only the first findings are kept; the counts stay exact.
 */

/** Findings kept in the record and shown; a plan with more says how many were left out. */
export const maxStoredFindings = 20;

export const planChecksSchema = z
  .object({
    findings: z.array(findingSchema).max(maxStoredFindings),
    /** Findings left out of `findings` for room. */
    omitted: z.number().int().nonnegative(),
    /** Blocking findings in all, kept or not: approval turns on this count. */
    blocking: z.number().int().nonnegative(),
    estimate: costEstimateSchema,
  })
  .strict();

export type PlanChecks = z.infer<typeof planChecksSchema>;

/** Bounds the findings for the record, keeping the first (blocking ones sort first) and exact counts. */
export function storeChecks(findings: readonly Finding[], estimate: CostEstimate): PlanChecks {
  return {
    findings: findings.slice(0, maxStoredFindings),
    omitted: Math.max(0, findings.length - maxStoredFindings),
    blocking: findings.filter(isBlocking).length,
    estimate,
  };
}
