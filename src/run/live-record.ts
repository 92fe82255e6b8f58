import * as core from '@actions/core';
import type { Comment } from '../github/thread.js';
import { decodeRecord, encodeRecord, hasRecordMarker, sealRecord, type PlanRecord } from '../record/plan-record.js';
import { verifyPlanComment, type Verdict } from '../record/verify.js';
import { renderPlanComment } from '../render/plan-comment.js';
import type { RunContext } from './run-context.js';
import { redact } from '../text/redact.js';
import { errorMessage } from '../text/error-message.js';
import { foreignPlanRefusal } from './foreign-plan.js';

/**
 * The plan records on a thread: written signed, read verified. The live record is the newest plan
 * comment by the bot; it is believed only when its hash and signature hold, it reads exactly as
 * rendered, and GitHub says the bot itself made the last edit. Anything else is a refusal, never a guess.
 */
export type LiveRecord =
  | { ok: true; comment: Comment; record: PlanRecord; earlierIds: string[] }
  | { ok: false; refusal: string; fix: string };

/** The body of a record's comment, signed with the repository's record key (see record/record-key.ts). */
export function renderRecord(ctx: RunContext, record: PlanRecord): string {
  return recordComment(sealRecord(record, ctx.recordKey));
}

/** A record's plan comment: the shown plan with the record itself at its end. */
export function recordComment(record: PlanRecord): string {
  return renderPlanComment(record, encodeRecord(record));
}

/** The repository a record must name: the one this run works for. */
const repositoryOf = (ctx: RunContext) => `${ctx.settings.runner.owner}/${ctx.settings.runner.repo}`;

/** A record's comment as GitHub holds it: plangate scrubs every body of secrets and token shapes before posting. */
const renderForVerify = (ctx: RunContext) => (record: PlanRecord) => redact(recordComment(record), ctx.secrets);

/**
 * Verifies one record comment: author, hash, signature, rendering, and that it names this repository
 * and `issue` (a record copied to another thread is no plan there). The editor check is findLiveRecord's.
 */
export function verifyRecordComment(ctx: RunContext, comment: Comment, issue: number): Verdict {
  // Without a key nothing can be verified, so nothing is believed.
  if (!ctx.recordKey)
    return { ok: false, reason: 'plangate has no key to verify plan records with (set the `api-key` input)' };
  const verdict = verifyPlanComment(comment, ctx.settings.botLogin, renderForVerify(ctx), ctx.recordKey);
  if (!verdict.ok) return verdict;
  const { record } = verdict;
  const where = `${repositoryOf(ctx)}#${issue}`;
  if (record.repository === undefined) return { ok: false, reason: `plan ${record.planId} names no repository` };
  if (`${record.repository}#${record.issue}` !== where) {
    return {
      ok: false,
      reason: `plan ${record.planId} was made for ${record.repository}#${record.issue}, not for ${where}`,
    };
  }
  return verdict;
}

export async function findLiveRecord(
  ctx: RunContext,
  comments: readonly Comment[],
  issue: number,
): Promise<LiveRecord> {
  const { botLogin } = ctx.settings;
  const candidates = comments.filter((c) => c.author === botLogin && hasRecordMarker(c.body));
  const live = candidates.at(-1);
  if (!live) {
    return {
      ok: false,
      ...(foreignPlanRefusal(ctx, comments, issue) ?? {
        refusal: 'there is no plan on this thread.',
        fix: 'Ask for one first with `/plan <objective>`.',
      }),
    };
  }
  const verdict = verifyRecordComment(ctx, live, issue);
  if (!verdict.ok) {
    return {
      ok: false,
      refusal: `the live plan cannot be trusted: ${verdict.reason}.`,
      fix: 'Ask for a new plan with `/plan`.',
    };
  }
  let editor: string | null;
  try {
    // The thread listing carries the editor; only a comment read some other way needs asking.
    editor = live.editor !== undefined ? live.editor : (await ctx.thread.lastEditor(live.nodeId)).editor;
  } catch (error) {
    core.warning(`Could not read who last edited plan ${verdict.record.planId}: ${errorMessage(error)}`);
    return {
      ok: false,
      refusal: `GitHub did not say who last edited plan \`${verdict.record.planId}\`, so it cannot be trusted.`,
      fix: 'Try again in a moment; if it keeps failing, ask for a new plan with `/plan`.',
    };
  }
  // Exactly the bot: the thread spells an app's bot as REST does (`name[bot]`), so nothing is folded and
  // a person whose login reads like the bot's is not taken for it.
  if (editor !== null && editor !== botLogin) {
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

/** Whether comment `a` was posted before `b`: by GitHub's creation time, and by id within one second. */
export function postedBefore(a: Pick<Comment, 'id' | 'createdAt'>, b: Pick<Comment, 'id' | 'createdAt'>): boolean {
  const at = Date.parse(a.createdAt);
  const bt = Date.parse(b.createdAt);
  return at !== bt && !Number.isNaN(at) && !Number.isNaN(bt) ? at < bt : a.id < b.id;
}

/** The id of the newest plan the bot had posted before `moment`: what a command written then referred to. */
export function planLiveAt(ctx: RunContext, comments: readonly Comment[], moment: Comment): string | undefined {
  const earlier = comments
    .filter((c) => c.author === ctx.settings.botLogin && hasRecordMarker(c.body) && postedBefore(c, moment))
    .at(-1);
  if (!earlier) return undefined;
  const decoded = decodeRecord(earlier.body);
  return decoded.ok ? decoded.record.planId : undefined;
}

/** Marks the thread's earlier open records (proposed, asking, answered) superseded by a newer one. */
export async function supersedeEarlier(
  ctx: RunContext,
  comments: readonly Comment[],
  newPlanId: string,
  issue: number,
): Promise<void> {
  const { botLogin } = ctx.settings;
  for (const comment of comments) {
    if (comment.author !== botLogin || !hasRecordMarker(comment.body)) continue;
    const verdict = verifyRecordComment(ctx, comment, issue);
    if (!verdict.ok || verdict.record.planId === newPlanId) continue;
    if (!open(verdict.record.status)) continue;
    // Read again right before the write: an approval that started since (it need not wait for this
    // run) may have marked the plan executing, and that mark must not be overwritten.
    const current = await ctx.thread.getComment(comment.id).catch(() => undefined);
    const now = current ? verifyRecordComment(ctx, current, issue) : undefined;
    if (!now?.ok || !open(now.record.status)) continue;
    await ctx.thread.updateComment(
      comment.id,
      renderRecord(ctx, { ...now.record, status: 'superseded', supersededBy: newPlanId }),
    );
  }
}

/** A record nobody acts on yet: a newer plan replaces it. */
const open = (status: PlanRecord['status']) => status === 'proposed' || status === 'asking' || status === 'answered';
