import { approvedScopeSchema } from '../scope/approved-scope.js';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { hashContext, snapshotSchema } from '../record/plan-record.js';
import { usageLedgerSchema } from '../models/usage.js';
import { CliError } from './cli-error.js';

/**
 * The local plan record: what the plan comment's hidden record is to the action, a JSON file under
 * .git/plangate/ is to the CLI. It holds everything `plangate run` needs and the hash that binds an
 * approval to the plan as it was shown, so a plan edited on disk is refused, not executed. Kept in
 * .git so no plan ever shows up in the work tree, in `git status` or in a commit.
 */
export const localPlanStatuses = ['proposed', 'executing', 'done', 'aborted'] as const;

export const localPlanSchema = z.object({
  v: z.literal(1),
  planId: z.string().regex(/^[0-9a-f]{8}$/),
  planHash: z.string().regex(/^[0-9a-f]{64}$/),
  status: z.enum(localPlanStatuses),
  machine: z.enum(['planner-executor', 'executor-only']),
  base: z.object({ ref: z.string().min(1), sha: z.string().regex(/^[0-9a-f]{40,64}$/) }),
  requestedBy: z.string(),
  models: z.object({ planner: z.string(), executor: z.string() }),
  /** The workspace rules the planner was told, so `run` enforces the ones the plan was made for. */
  allowedCommands: z.array(z.string()),
  protectedPaths: z.array(z.string()),
  createdAt: z.iso.datetime(),
  snapshot: snapshotSchema,
  usage: usageLedgerSchema,
  approvedBy: z.string().optional(),
  branch: z.string().optional(),
  /** What an approval of the plan allows (checks/scope-derivation.ts); covered by `planHash`. */
  scope: approvedScopeSchema.optional(),
});

export type LocalPlan = z.infer<typeof localPlanSchema>;

/**
 * The record's hash: the plan and everything `plangate run` takes from the record besides it (the
 * workspace rules, the base commit, the machine, the scope), so none of them can be edited under an
 * unchanged plan.
 */
export function localPlanHash(
  plan: Pick<LocalPlan, 'snapshot' | 'machine' | 'base' | 'allowedCommands' | 'protectedPaths' | 'scope'>,
): string {
  const bound = [
    hashContext(plan.snapshot.context),
    plan.machine,
    plan.base.ref,
    plan.base.sha,
    plan.allowedCommands,
    plan.protectedPaths,
    // A plan saved before plans carried a scope hashes as it always did.
    ...(plan.scope ? [plan.scope] : []),
  ];
  return createHash('sha256').update(JSON.stringify(bound)).digest('hex');
}

const folder = (gitDir: string) => path.join(gitDir, 'plangate');
const planFile = (gitDir: string, planId: string) => path.join(folder(gitDir), 'plans', `${planId}.json`);
const lastFile = (gitDir: string) => path.join(folder(gitDir), 'last-plan');

/** A fresh plan id, in the action's 8-hex-digit form; never one already saved here. */
export function newPlanId(gitDir: string): string {
  for (;;) {
    const id = randomBytes(4).toString('hex');
    if (!existsSync(planFile(gitDir, id))) return id;
  }
}

/** Written whole or not at all: a crash mid-write must not leave a record that reads as another. */
function writeAtomically(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** Saves the record; a proposed plan also becomes the one a bare `plangate run` takes. */
export function savePlan(gitDir: string, plan: LocalPlan): string {
  const file = planFile(gitDir, plan.planId);
  writeAtomically(file, `${JSON.stringify(localPlanSchema.parse(plan), null, 2)}\n`);
  if (plan.status === 'proposed') writeAtomically(lastFile(gitDir), `${plan.planId}\n`);
  return file;
}

/** The last plan `plangate plan` or `plangate run "<objective>"` saved, verified. */
export function loadLastPlan(gitDir: string): LocalPlan {
  let planId: string;
  try {
    planId = readFileSync(lastFile(gitDir), 'utf8').trim();
  } catch {
    throw new CliError(
      'there is no saved plan in this checkout: make one with plangate plan "<objective>", or give plangate run an objective.',
    );
  }
  return loadPlan(gitDir, planId);
}

export function loadPlan(gitDir: string, planId: string): LocalPlan {
  const file = planFile(gitDir, planId);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new CliError(
      `the saved plan ${planId} cannot be read (${file}); make a new one with plangate plan "<objective>".`,
    );
  }
  const parsed = localPlanSchema.safeParse(json);
  if (!parsed.success || parsed.data.planId !== planId) {
    throw new CliError(
      `the saved plan ${planId} is not a plan record plangate can use (${file}); make a new one with plangate plan "<objective>".`,
    );
  }
  if (parsed.data.planHash !== localPlanHash(parsed.data)) {
    throw new CliError(
      `the saved plan ${planId} was changed after it was made, so it cannot be approved; make a new one with plangate plan "<objective>".`,
    );
  }
  return parsed.data;
}
