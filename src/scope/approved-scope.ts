import { z } from 'zod';
import { coveredBy } from '../text/literal-path.js';

/**
 * The approved scope: what an approval allows a run to do, derived from the plan before it is shown
 * (checks/scope-derivation.ts), covered by the plan's hash, and read by every place the run acts:
 * the write tools and the commit gate (paths), `run_command` (commands), the model clients before
 * each request (budget). It is data, so it travels in the plan record and the checkpoint; widening it
 * takes an amendment a maintainer approves.
 */

export const scopeBudgetSchema = z
  .object({
    /** Prompt and completion tokens of both roles together, from the approval on. */
    tokens: z.number().int().positive(),
    /** Execute cycles (directives carried out). */
    cycles: z.number().int().positive(),
    /** US dollars, where every model's price is known. */
    costUsd: z.number().positive().optional(),
    /** Minutes each job of the execution may take (`timeout-minutes` when the plan was posted). */
    minutes: z.number().positive().optional(),
  })
  .strict();

/**
 * The most steps of a plan that may run at the same time (`parallel-steps`): each is an executor
 * session against the same provider and a branch a reviewer follows, so the bound is the provider's
 * rate limits and the reviewer's attention, not the runner's cores.
 */
export const maxParallelSteps = 8;

export const approvedScopeSchema = z
  .object({
    /**
     * Paths, relative to the repository root, the run may add, change or delete, read literally: a
     * file, or a folder and everything under it (`.`: the whole repository). Never a pattern.
     */
    // As many as a plan may name (500 steps of 100 files); the comment's size is the real bound.
    paths: z.array(z.string().min(1).max(500)).max(50_000),
    /** Command lines the run may run, as the plan names them; each is also allowed by `allowed-commands`. */
    commands: z.array(z.string().min(1).max(1000)).max(5_000),
    budget: scopeBudgetSchema,
    /**
     * Destinations commands and stdio MCP servers may reach besides loopback: those the plan's steps
     * name (`network`) that `allowed-domains` allowed when the plan was made (bundles expanded,
     * spelled as people write them); empty: loopback only. Unset where the network was not sealed
     * (`network: open`).
     */
    network: z.array(z.string().min(1).max(300)).max(1000).optional(),
    /**
     * How many steps may run at the same time (`parallel-steps` when the plan was made). Set only for
     * a plan that orders its steps itself (`after`); unset: one step at a time, as a plan without
     * `after` always runs.
     */
    parallelSteps: z.number().int().min(1).max(maxParallelSteps).optional(),
  })
  .strict();

export type ApprovedScope = z.infer<typeof approvedScopeSchema>;

/** What an amendment adds to a scope: each part optional, the budget as an increase. */
export const scopeDeltaSchema = z
  .object({
    paths: approvedScopeSchema.shape.paths.optional(),
    commands: approvedScopeSchema.shape.commands.optional(),
    /** Destinations a sealed network may reach, each one `allowed-domains` allows. */
    network: z.array(z.string().min(1).max(300)).max(1000).optional(),
    budget: scopeBudgetSchema.optional(),
  })
  .strict();

export type ScopeDelta = z.infer<typeof scopeDeltaSchema>;
export type ScopeBudget = z.infer<typeof scopeBudgetSchema>;

/** The scope entry that allows changing `path`, or undefined when the scope does not reach it. */
export function scopeEntryFor(path: string, scope: Pick<ApprovedScope, 'paths'>): string | undefined {
  return scope.paths.find((entry) => coveredBy(path, entry));
}

/** Whether the run may change `path`. */
export function inScope(path: string, scope: Pick<ApprovedScope, 'paths'>): boolean {
  return scopeEntryFor(path, scope) !== undefined;
}

/** The scope widened by `extra` (an approved amendment): every part the larger of the two. */
export function widenScope(scope: ApprovedScope, extra: ScopeDelta): ApprovedScope {
  const union = (a: readonly string[], b: readonly string[] = []) => [...new Set([...a, ...b])];
  return {
    paths: union(scope.paths, extra.paths),
    commands: union(scope.commands, extra.commands),
    // Only a sealed network has destinations to add; an open one has nothing to widen.
    ...(scope.network !== undefined ? { network: union(scope.network, extra.network) } : {}),
    // How many steps run at once is the approver's, not an amendment's: it stays as approved.
    ...(scope.parallelSteps !== undefined ? { parallelSteps: scope.parallelSteps } : {}),
    budget: extra.budget
      ? {
          tokens: scope.budget.tokens + extra.budget.tokens,
          cycles: scope.budget.cycles + extra.budget.cycles,
          ...(scope.budget.costUsd !== undefined && extra.budget.costUsd !== undefined
            ? { costUsd: scope.budget.costUsd + extra.budget.costUsd }
            : {}),
          ...(scope.budget.minutes !== undefined ? { minutes: scope.budget.minutes } : {}),
        }
      : scope.budget,
  };
}
