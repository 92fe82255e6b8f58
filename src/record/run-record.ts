import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { z } from 'zod';
import { usageLedgerSchema } from '../models/usage.js';
import { historyEntrySchema, snapshotSchema } from './plan-record.js';
import { sealOf } from './seal.js';
import { scopeDeltaSchema } from '../scope/approved-scope.js';

/**
 * The run record: the checkpoint an execution leaves in its progress comment after every cycle
 * (machine snapshot, usage, the last commit plangate pushed). A re-run or a new `/approve` of the
 * same plan resumes from it on the same branch, so a killed job loses nothing it had pushed. It
 * steers a run as much as the plan record does, so it is sealed the same way (seal.ts) and bound
 * to the approved plan's hash: a checkpoint another workflow posted as the bot is never resumed.
 */
export const runRecordSchema = z.object({
  v: z.literal(1),
  planId: z.string().regex(/^[0-9a-f]{8}$/),
  /** The `planHash` of the approved plan this run carries out: a checkpoint continues that plan only. */
  planHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  snapshot: snapshotSchema,
  usage: usageLedgerSchema,
  /** The last commit plangate pushed to the work branch; anything after it was pushed by someone else. */
  pushed: z
    .string()
    .regex(/^[0-9a-f]{40,64}$/)
    .optional(),
  runId: z.string(),
  /** Set once the pull request exists, so a re-run never opens a second one. */
  pullRequest: z.object({ number: z.number().int(), url: z.string() }).optional(),
  /** Epoch milliseconds the execution first started: a resumed run's elapsed time counts from here. */
  startedAt: z.number().int().nonnegative().optional(),
  /** Changes the commit gate kept out so far, so a resumed run still reports them. */
  keptOut: z
    .array(
      z.object({
        path: z.string(),
        change: z.enum(['added', 'modified', 'deleted', 'mode', 'type']),
        reason: z.string(),
        /** Held back for a credential it adds; absent in checkpoints written before the check. */
        credential: z.literal(true).optional(),
      }),
    )
    .optional(),
  /**
   * Amendments a maintainer approved for this run, in order: the run's scope is the approved plan's
   * widened by each (record/amendment-record.ts).
   */
  amendments: z
    .array(z.object({ id: z.string().regex(/^[0-9a-f]{8}$/), delta: scopeDeltaSchema, approvedBy: z.string() }))
    .max(50)
    .optional(),
  /**
   * A batch of plan steps under way (run/step-batch.ts): the commit the steps started from and each
   * step finished so far, with the commit plangate pushed for it (none: it changed nothing), so a
   * re-run keeps the finished steps and runs only the others.
   */
  batch: z
    .object({
      base: z.string().regex(/^[0-9a-f]{40,64}$/),
      steps: z
        .array(
          historyEntrySchema.extend({
            step: z.number().int().min(1).max(500),
            commit: z
              .string()
              .regex(/^[0-9a-f]{40,64}$/)
              .optional(),
          }),
        )
        .max(50),
    })
    .optional(),
  /** The commands the executor ran, by cycle: what the pull request sets beside the commands planned. */
  ran: z
    .array(
      z.object({
        cycle: z.number().int().positive(),
        command: z.string().max(1000),
        /** Destinations the sealed network refused the command (`10.0.0.5:443 (tcp)`, `example.com:443`). */
        refused: z.array(z.string().max(300)).max(20).optional(),
      }),
    )
    .max(500)
    .optional(),
  /** The amendment the run stopped for, waiting for approval: only `/approve <id>` resumes it. */
  pendingAmendment: z
    .string()
    .regex(/^[0-9a-f]{8}$/)
    .optional(),
  /** The seal of the rest of the record with the repository's record key (seal.ts). */
  sig: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type RunRecord = z.infer<typeof runRecordSchema>;

const marker = /(?:^|\n)<!-- plangate:run v1 ([A-Za-z0-9_-]+) -->\s*$/;

/** The record sealed with `key`: what plangate writes. */
export function sealRunRecord(record: RunRecord, key: string): RunRecord {
  const { sig: _sig, ...unsealed } = record;
  return { ...unsealed, sig: sealOf(unsealed, key) };
}

export function encodeRunRecord(record: RunRecord): string {
  return `<!-- plangate:run v1 ${deflateRawSync(Buffer.from(JSON.stringify(record), 'utf8')).toString('base64url')} -->`;
}

/** Reads the run record at the end of a progress comment; anything malformed is no checkpoint. */
export function decodeRunRecord(body: string): RunRecord | undefined {
  const match = marker.exec(body);
  if (!match?.[1]) return undefined;
  try {
    const json: unknown = JSON.parse(
      inflateRawSync(Buffer.from(match[1], 'base64url'), { maxOutputLength: 4_000_000 }).toString('utf8'),
    );
    const parsed = runRecordSchema.safeParse(json);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
