import type { Comment } from '../github/thread.js';
import { decodeRecord, hasRecordMarker, type PlanRecord } from '../record/plan-record.js';
import { verifyPlanComment } from '../record/verify.js';
import { renderPlanComment } from '../render/plan-comment.js';
import type { RunContext } from '../run-context.js';

/**
 * Finds the thread's live record: the newest plan comment by the bot. Older ones are history. The
 * record is verified before anyone acts on it; an unverifiable one is a refusal, never a guess.
 */
export type LiveRecord =
  | { ok: true; comment: Comment; record: PlanRecord; earlierIds: string[] }
  | { ok: false; refusal: string; fix: string };

export async function findLiveRecord(ctx: RunContext, issue: number): Promise<LiveRecord> {
  const { botLogin } = ctx.settings;
  const candidates = (await ctx.thread.listComments(issue)).filter((c) => c.author === botLogin && hasRecordMarker(c.body));
  const live = candidates.at(-1);
  if (!live) {
    return { ok: false, refusal: 'there is no plan on this thread.', fix: 'Ask for one first with `/plan <objective>`.' };
  }
  const verdict = verifyPlanComment(live, botLogin, renderPlanComment);
  if (!verdict.ok) {
    return { ok: false, refusal: `the live plan cannot be trusted: ${verdict.reason}.`, fix: 'Ask for a new plan with `/plan`.' };
  }
  const earlierIds = candidates.slice(0, -1).flatMap((c) => {
    const decoded = decodeRecord(c.body);
    return decoded.ok ? [decoded.record.planId] : [];
  });
  return { ok: true, comment: live, record: verdict.record, earlierIds };
}

/** Marks the thread's earlier open records (proposed, asking, answered) superseded by a newer one. */
export async function supersedeEarlier(ctx: RunContext, issue: number, newPlanId: string): Promise<void> {
  for (const comment of await ctx.thread.listComments(issue)) {
    if (comment.author !== ctx.settings.botLogin || !hasRecordMarker(comment.body)) continue;
    const verdict = verifyPlanComment(comment, ctx.settings.botLogin, renderPlanComment);
    if (!verdict.ok || verdict.record.planId === newPlanId) continue;
    if (!['proposed', 'asking', 'answered'].includes(verdict.record.status)) continue;
    await ctx.thread.updateComment(comment.id, renderPlanComment({ ...verdict.record, status: 'superseded', supersededBy: newPlanId }));
  }
}
