import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { z } from 'zod';
import { scopeDeltaSchema, type ScopeDelta } from '../scope/approved-scope.js';

export { scopeDeltaSchema, type ScopeDelta };
import { canonical, sealHolds, sealOf } from './seal.js';

/**
 * The amendment record: the hidden half of an amendment comment. When a run needs more than its
 * approval allows (paths, commands or network destinations a re-plan adds, or more budget), it stops at its checkpoint and
 * asks for exactly the difference; `/approve <amendment id>` by someone allowed to approve grants it
 * and the run resumes with the wider scope. Sealed and verified like the plan record.
 */

export const amendmentStatuses = ['proposed', 'approved', 'superseded'] as const;

export const amendmentRecordSchema = z
  .object({
    v: z.literal(1),
    amendmentId: z.string().regex(/^[0-9a-f]{8}$/),
    planId: z.string().regex(/^[0-9a-f]{8}$/),
    /** The approved plan's hash: an amendment widens that plan's run only. */
    planHash: z.string().regex(/^[0-9a-f]{64}$/),
    issue: z.number().int().positive(),
    /** Why the run needs more, in plangate's words. */
    reason: z.string().max(2000),
    delta: scopeDeltaSchema,
    /** The held-back changes the extra paths would let land, as a diff against the work branch; cut: `heldDiffCut`. */
    heldDiff: z.string().max(40_000).optional(),
    heldDiffCut: z.literal(true).optional(),
    /**
     * Held-back changes left out of `heldDiff` because the credential scan found one in them: named
     * with the rules that fired, never shown. The executor writes them again after approval.
     */
    heldWithheld: z
      .array(z.object({ path: z.string().max(500), rules: z.array(z.string().max(200)).max(20) }).strict())
      .max(200)
      .optional(),
    /** The commit the run stopped at: the amendment continues from there. */
    pushed: z
      .string()
      .regex(/^[0-9a-f]{40,64}$/)
      .optional(),
    status: z.enum(amendmentStatuses),
    approvedBy: z.string().optional(),
    sig: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
  })
  .strict();

export type AmendmentRecord = z.infer<typeof amendmentRecordSchema>;

const marker = /(?:^|\n)<!-- plangate:amendment v1 ([A-Za-z0-9_-]+) -->\s*$/;

/** An amendment's id: stable for one stop of one run, so a re-run that stops the same way finds it. */
export function amendmentIdFor(planId: string, cycle: number, delta: ScopeDelta): string {
  return createHash('sha256').update(canonical({ planId, cycle, delta })).digest('hex').slice(0, 8);
}

/** The record sealed with `key`: what plangate writes. */
export function sealAmendment(record: AmendmentRecord, key: string): AmendmentRecord {
  const { sig: _sig, ...unsealed } = record;
  return { ...unsealed, sig: sealOf(unsealed, key) };
}

/** Whether the record's seal holds under `key`. */
export function amendmentSealHolds(record: AmendmentRecord, key: string): boolean {
  return sealHolds(record, key);
}

export function encodeAmendment(record: AmendmentRecord): string {
  return `<!-- plangate:amendment v1 ${deflateRawSync(Buffer.from(canonical(record), 'utf8')).toString('base64url')} -->`;
}

/** Reads the amendment record at the end of a comment; anything malformed is no amendment. */
export function decodeAmendment(body: string): AmendmentRecord | undefined {
  const match = marker.exec(body);
  if (!match?.[1]) return undefined;
  try {
    const json: unknown = JSON.parse(
      inflateRawSync(Buffer.from(match[1], 'base64url'), { maxOutputLength: 1_000_000 }).toString('utf8'),
    );
    const parsed = amendmentRecordSchema.safeParse(json);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a comment ends with an amendment marker (trusted or not). */
export function hasAmendmentMarker(body: string): boolean {
  return marker.test(body);
}
