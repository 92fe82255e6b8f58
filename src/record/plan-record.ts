import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { z } from 'zod';
import { planChecksSchema, type PlanChecks } from '../checks/stored-checks.js';
import { outcomeSchema, planSchema, type PlanContext } from '../machine/fields.js';
import type { Snapshot } from '../machine/types.js';
import { usageLedgerSchema } from '../models/usage.js';
import { runPolicySchema } from '../config/run-policy.js';
import { recordStatuses } from '../machine/plan-status.js';
import { canonical, sealHolds, sealOf } from './seal.js';
import { approvedScopeSchema, type ApprovedScope } from '../scope/approved-scope.js';

/**
 * The plan record: the hidden, machine-readable half of a plan comment. It carries everything an
 * approval run needs (it starts from a fresh checkout) and a hash that binds the approval to the
 * exact plan that was shown. It is data from a comment, so it is parsed like any untrusted input.
 */

export { recordStatuses, type RecordStatus } from '../machine/plan-status.js';

export const historyEntrySchema = z.object({
  directive: z.string(),
  result: z.string(),
  outcome: outcomeSchema,
  step: z.number().int().min(1).max(500).optional(),
  together: z.array(z.number().int().min(1).max(500)).max(50).optional(),
  note: z.string().max(2000).optional(),
});

export const snapshotSchema = z.object({
  state: z.enum(['plan', 'execute', 'replan', 'finish', 'abort', 'done', 'ask']),
  context: z.object({
    objective: z.string(),
    plan: planSchema.optional(),
    directive: z.string().optional(),
    result: z.string().optional(),
    outcome: outcomeSchema.optional(),
    history: z.array(historyEntrySchema),
    steps: z.array(historyEntrySchema.extend({ step: z.number().int().min(1).max(500) })).optional(),
    summary: z.string().optional(),
    question: z.string().optional(),
    clarifications: z.array(z.object({ question: z.string(), answer: z.string() })).optional(),
    revisions: z.array(z.object({ plan: planSchema, feedback: z.string() })).optional(),
    thread: z.string().optional(),
  }),
  policy: z.object({
    maxIterations: z.number().int().positive(),
    maxExchangesPerStage: z.number().int().positive(),
    maxExchangesPerAgentPerStage: z.number().int().positive(),
    checkpointEvery: z.number().int().positive(),
  }),
  iteration: z.number().int().nonnegative(),
  stageExchanges: z.number().int().nonnegative(),
  agentExchanges: z.object({ planner: z.number().int().optional(), executor: z.number().int().optional() }),
  abortReason: z.string().optional(),
  trail: z.array(
    z.object({
      from: z.enum(['plan', 'execute', 'replan', 'finish', 'abort', 'done', 'ask']),
      to: z.enum(['plan', 'execute', 'replan', 'finish', 'abort', 'done', 'ask']),
      reason: z.string().optional(),
    }),
  ),
}) satisfies z.ZodType<Snapshot>;

export const planRecordSchema = z.object({
  v: z.literal(1),
  planId: z.string().regex(/^[0-9a-f]{8}$/),
  planHash: z.string().regex(/^[0-9a-f]{64}$/),
  status: z.enum(recordStatuses),
  /** The repository (`owner/name`) and issue the plan belongs to: a record copied elsewhere is refused. */
  repository: z.string().optional(),
  issue: z.number().int().positive(),
  /** Login of the maintainer who asked for the plan, and the comment that asked. */
  requestedBy: z.string(),
  commandCommentId: z.number().int(),
  base: z.object({ ref: z.string().min(1), sha: z.string().regex(/^[0-9a-f]{40,64}$/) }),
  models: z.object({ planner: z.string(), executor: z.string() }),
  /** The policy the plan was made under; `plan-only` plans are never executed. */
  policy: runPolicySchema,
  /** Which machine runs the snapshot: the full loop, or the executor alone. */
  machine: z.enum(['planner-executor', 'executor-only']),
  /** What planning cost (null: a price is unknown), fixed when the plan was posted. */
  planningCostUsd: z.number().nonnegative().nullable(),
  snapshot: snapshotSchema,
  /** What planning cost, so the pull request can show the whole run's usage. */
  usage: usageLedgerSchema,
  approvedBy: z.string().optional(),
  supersededBy: z.string().optional(),
  /** Hash of the thread's title and body when the plan was made: an approval is bound to them too. */
  issueHash: z.string().regex(/^[0-9a-f]{64}$/),
  branch: z.string().optional(),
  /** When planning finished, by the action's clock: how old a waiting plan is. */
  postedAt: z.iso.datetime().optional(),
  /** HMAC of the rest of the record with the repository's record key (see record-key.ts). */
  sig: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  pullRequest: z.object({ number: z.number().int(), url: z.string() }).optional(),
  /** The plan's checks and cost estimate as the comment showed them; `/approve` judges these. Absent on records without a plan. */
  checks: planChecksSchema.optional(),
  /**
   * What an approval of this plan allows the run to do (paths, commands, budget), as the comment
   * showed it; covered by `planHash`. Absent on records without a plan, and on plans made before
   * approvals carried a scope, which are not executed.
   */
  scope: approvedScopeSchema.optional(),
  /**
   * The work goes on the base branch itself (a pull request's head) and updates that pull request,
   * instead of going on a new branch and pull request of its own.
   */
  sameBranch: z.literal(true).optional(),
  /** The review threads the planner was given, so the pull request and job summary can link them. */
  reviewThreads: z
    .array(
      z.object({
        url: z.string(),
        path: z.string(),
        line: z.number().int().nullable(),
        author: z.string(),
        outdated: z.boolean(),
      }),
    )
    .optional(),
  /** MCP servers that did not start while planning: the plan comment says the planner worked without them. */
  mcpFailures: z.array(z.object({ server: z.string(), reason: z.string() })).optional(),
  /** The `command-prefix` the plan was made under, so its comment says what to type (`/plangate approve`). */
  commandPrefix: z.string().optional(),
});

export type PlanRecord = z.infer<typeof planRecordSchema>;

// The record is the last line of a plan comment; nothing before it can pose as one.
const markerPattern = /(?:^|\n)<!-- plangate:record v1 ([A-Za-z0-9_-]+) -->\s*$/;

/**
 * The hash an approval is bound to: the snapshot's whole context, so what will be done (plan, first
 * directive), why (objective, clarifications, revisions) and nothing else can change unnoticed.
 */
export function hashContext(context: PlanContext): string {
  return createHash('sha256').update(canonical(context)).digest('hex');
}

/**
 * The record's `planHash`: the context, and with it the checks and estimate that approval turns on
 * and the scope it grants, so none can be swapped under an unchanged plan. A record without checks
 * and scope hashes as its context alone, as records always did.
 */
export function hashPlan(context: PlanContext, checks?: PlanChecks, scope?: ApprovedScope): string {
  if (checks === undefined && scope === undefined) return hashContext(context);
  const bound = scope === undefined ? { context, checks } : { context, checks, scope };
  return createHash('sha256').update(canonical(bound)).digest('hex');
}

/** Binds a plan to the thread it was made on: a changed title or body makes it unapprovable. */
export function hashIssue(title: string, body: string): string {
  return createHash('sha256').update(canonical({ title, body })).digest('hex');
}

/**
 * Signs a record with the repository's record key (no key: no signature). Every write of a record
 * goes through here, so a status change is signed like the original.
 */
export function sealRecord(record: PlanRecord, secret: string): PlanRecord {
  const { sig: _sig, ...unsigned } = record;
  return secret ? { ...unsigned, sig: sealOf(unsigned, secret) } : unsigned;
}

/** True when the record carries a valid signature for `secret`, or no secret is given (tests of the shape). */
export function sealIsValid(record: PlanRecord, secret: string): boolean {
  return !secret || sealHolds(record, secret);
}

/** A plan id that is stable for one command comment, so a re-run of the same `/plan` recognises its own plan. */
export function planIdFor(repository: string, issue: number, commandCommentId: number): string {
  return createHash('sha256').update(`${repository}#${issue}/${commandCommentId}`).digest('hex').slice(0, 8);
}

export function encodeRecord(record: PlanRecord): string {
  const packed = deflateRawSync(Buffer.from(canonical(record), 'utf8')).toString('base64url');
  return `<!-- plangate:record v1 ${packed} -->`;
}

export type DecodeResult = { ok: true; record: PlanRecord } | { ok: false; reason: string };

/** Reads the record out of a comment body; anything malformed is refused with a reason, never guessed. */
export function decodeRecord(body: string): DecodeResult {
  const match = markerPattern.exec(body);
  if (!match?.[1]) return { ok: false, reason: 'no plan record' };
  let json: unknown;
  try {
    json = JSON.parse(
      inflateRawSync(Buffer.from(match[1], 'base64url'), { maxOutputLength: 4_000_000 }).toString('utf8'),
    );
  } catch {
    return { ok: false, reason: 'the plan record is corrupt' };
  }
  const parsed = planRecordSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: 'the plan record does not have the expected shape' };
  return { ok: true, record: parsed.data };
}

/** True when a comment body ends with a plan record marker (trusted or not): it is a plan comment. */
export function hasRecordMarker(body: string): boolean {
  return markerPattern.test(body);
}
