import * as core from '@actions/core';
import type { Comment } from '../github/thread.js';
import { decodeRecord, hasRecordMarker, sealRecord, type PlanRecord } from '../record/plan-record.js';
import { verifyPlanComment } from '../record/verify.js';
import { renderPlanComment } from '../render/plan-comment.js';
import type { RunContext } from '../run-context.js';
import { redact } from '../redact.js';

/**
 * The plan records on a thread: written signed, read verified. The live record is the newest plan
 * comment by the bot; it is believed only when its hash and signature hold, it reads exactly as
 * rendered, and GitHub says the bot itself made the last edit. Anything else is a refusal, never a guess.
 */
export type LiveRecord =
  | { ok: true; comment: Comment; record: PlanRecord; earlierIds: string[] }
  | { ok: false; refusal: string; fix: string };

/** The body of a record's comment, signed with the repository's record secret when there is one. */
export function renderRecord(ctx: RunContext, record: PlanRecord): string {
  return renderPlanComment(sealRecord(record, ctx.settings.recordSecret));
}

/** A record's comment as GitHub holds it: plangate scrubs every body of secrets and token shapes before posting. */
const renderForVerify = (ctx: RunContext) => (record: PlanRecord) => redact(renderPlanComment(record), ctx.secrets);

/** Strips `[bot]` so REST and GraphQL spellings of one account compare equal. */
const account = (login: string) => login.replace(/\[bot\]$/, '').toLowerCase();

/** Verifies one record comment (author, hash, signature, rendering); the editor check is findLiveRecord's. */
export function verifyRecordComment(ctx: RunContext, comment: Comment) {
  return verifyPlanComment(comment, ctx.settings.botLogin, renderForVerify(ctx), ctx.settings.recordSecret);
}

export async function findLiveRecord(ctx: RunContext, comments: readonly Comment[]): Promise<LiveRecord> {
  const { botLogin, recordSecret } = ctx.settings;
  const candidates = comments.filter((c) => c.author === botLogin && hasRecordMarker(c.body));
  const live = candidates.at(-1);
  if (!live) {
    return { ok: false, refusal: 'there is no plan on this thread.', fix: 'Ask for one first with `/plan <objective>`.' };
  }
  const verdict = verifyPlanComment(live, botLogin, renderForVerify(ctx), recordSecret);
  if (!verdict.ok) {
    return { ok: false, refusal: `the live plan cannot be trusted: ${verdict.reason}.`, fix: 'Ask for a new plan with `/plan`.' };
  }
  let editor: string | null;
  try {
    // The thread listing carries the editor; only a comment read some other way needs asking.
    editor = live.editor !== undefined ? live.editor : (await ctx.thread.lastEditor(live.nodeId)).editor;
  } catch (error) {
    core.warning(`Could not read who last edited plan ${verdict.record.planId}: ${error instanceof Error ? error.message : String(error)}`);
    return {
      ok: false,
      refusal: `GitHub did not say who last edited plan \`${verdict.record.planId}\`, so it cannot be trusted.`,
      fix: 'Try again in a moment; if it keeps failing, ask for a new plan with `/plan`.',
    };
  }
  if (editor !== null && account(editor) !== account(botLogin)) {
    return {
      ok: false,
      refusal: `the comment of plan \`${verdict.record.planId}\` was edited by @${editor} after plangate posted it.`,
      fix: 'A plan can be approved only as plangate posted it. Ask for a new plan with `/plan` or `/revise <feedback>`.',
    };
  }
  const earlierIds = candidates.slice(0, -1).flatMap((c) => {
    const decoded = decodeRecord(c.body);
    return decoded.ok ? [decoded.record.planId] : [];
  });
  return { ok: true, comment: live, record: verdict.record, earlierIds };
}

/** Marks the thread's earlier open records (proposed, asking, answered) superseded by a newer one. */
export async function supersedeEarlier(ctx: RunContext, comments: readonly Comment[], newPlanId: string): Promise<void> {
  const { botLogin, recordSecret } = ctx.settings;
  for (const comment of comments) {
    if (comment.author !== botLogin || !hasRecordMarker(comment.body)) continue;
    const verdict = verifyPlanComment(comment, botLogin, renderForVerify(ctx), recordSecret);
    if (!verdict.ok || verdict.record.planId === newPlanId) continue;
    if (!['proposed', 'asking', 'answered'].includes(verdict.record.status)) continue;
    await ctx.thread.updateComment(comment.id, renderRecord(ctx, { ...verdict.record, status: 'superseded', supersededBy: newPlanId }));
  }
}
