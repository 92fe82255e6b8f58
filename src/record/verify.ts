import type { Comment } from '../github/thread.js';
import { decodeRecord, hashPlan, sealIsValid, type PlanRecord } from './plan-record.js';

/**
 * Decides whether a comment's plan record can be believed. The record is trusted only in a comment
 * by the bot, only when its hash matches the plan it carries, and only when the comment reads
 * exactly as plangate rendered it: any edit of the visible plan makes it unapprovable.
 */
export type Verdict = { ok: true; record: PlanRecord } | { ok: false; reason: string };

export function verifyPlanComment(
  comment: Comment,
  botLogin: string,
  render: (record: PlanRecord) => string,
  secret = '',
): Verdict {
  if (comment.author !== botLogin) {
    return { ok: false, reason: `the plan comment is not by ${botLogin}` };
  }
  const decoded = decodeRecord(comment.body);
  if (!decoded.ok) return decoded;
  const { record } = decoded;
  if (hashPlan(record.snapshot.context, record.checks, record.scope) !== record.planHash) {
    return { ok: false, reason: `plan ${record.planId} does not match its hash` };
  }
  if (!sealIsValid(record, secret)) {
    return {
      ok: false,
      reason: `plan ${record.planId} is not signed with this repository's record key (it was made before the record key changed, with another API key or record-secret, or not by plangate)`,
    };
  }
  if (render(record) !== comment.body) {
    return { ok: false, reason: `the comment of plan ${record.planId} was edited after plangate posted it` };
  }
  return { ok: true, record };
}
