import * as core from '@actions/core';
import type { Comment } from '../github/thread.js';
import type { Snapshot } from '../machine/types.js';
import { heldDiff } from './held-changes.js';
import type { AmendmentNeed } from './scope-widening.js';
import {
  amendmentIdFor,
  amendmentSealHolds,
  decodeAmendment,
  encodeAmendment,
  hasAmendmentMarker,
  sealAmendment,
  type AmendmentRecord,
} from '../record/amendment-record.js';
import { outOfScopeReason } from '../repo/change-gate.js';
import { renderAmendmentComment } from '../render/amendment-comment.js';
import { inScope } from '../scope/approved-scope.js';
import { redact } from '../text/redact.js';
import { maskedText } from '../repo/credential-mask.js';
import type { Progress } from './checkpoint.js';
import { commitCycle } from './cycles.js';
import type { Execution, ExecutionRun } from './execution-run.js';
import type { RunRecord } from '../record/run-record.js';
import type { FlowResult, RunContext } from './run-context.js';
import { usageTotals } from './run-team.js';

/**
 * Amendments: how a run gets more than its approval allows. A revised plan that names paths,
 * commands or network destinations beyond the run's scope stops the run at its checkpoint; the work inside the scope is
 * pushed, the changes the scope held back stay with the amendment, and a comment asks for exactly
 * the difference. `/approve <amendment id>` (commands/approve.ts) resumes the run with the wider
 * scope and lands the held changes.
 */

/**
 * Stops the run for an amendment: what is in scope is committed and pushed, the amendment is posted
 * with the held-back changes its extra paths would let land, and the checkpoint says the run waits
 * for it, to resume from `resumeFrom` (a cycle's start when the budget ran out halfway through it:
 * its work so far is on the branch, and the directive is carried out again). Nothing of the held
 * changes is pushed.
 */
export async function requestAmendment(
  run: ExecutionRun,
  progress: Progress,
  s: Snapshot,
  need: AmendmentNeed,
  resumeFrom: Snapshot = s,
): Promise<FlowResult> {
  const { ctx, record } = run;
  await commitCycle(run, s);
  const held = await heldDiff(
    ctx.git,
    run.ctx.sandbox.workTree,
    run.keptOut.all
      .filter((k) => k.reason === outOfScopeReason && !k.credential)
      .map((k) => k.path)
      .filter((p) => need.delta.paths !== undefined && inScope(p, { paths: need.delta.paths })),
  );
  const amendment: AmendmentRecord = {
    v: 1,
    amendmentId: amendmentIdFor(record.planId, s.iteration, need.delta),
    planId: record.planId,
    planHash: record.planHash,
    issue: record.issue,
    // Masked before the seal: the comment shows it, and a masked comment must still read as rendered.
    reason: await maskedText(need.reason),
    delta: need.delta,
    ...held,
    ...(run.work.pushed ? { pushed: run.work.pushed } : {}),
    status: 'proposed',
  };
  const comment = await ctx.thread.postComment(record.issue, renderAmendment(ctx, amendment), {
    dedupe: amendmentMarkerText(amendment.amendmentId),
  });
  run.pendingAmendment = amendment.amendmentId;
  await progress.save(resumeFrom, {
    waitingFor: { amendmentId: amendment.amendmentId, url: comment.url, reason: need.reason },
  });
  core.notice(`Plan ${record.planId} waits for amendment ${amendment.amendmentId}: ${comment.url}`);
  return {
    outcome: 'amendment',
    planId: record.planId,
    branch: record.branch,
    usage: usageTotals(run.team.ledger(), ctx),
  };
}

/**
 * Whether an execution may go on from `checkpoint`: a run that stopped for an amendment goes on only
 * by that amendment's approval, and an amendment's approval only for the run that waits for it. A
 * re-run of an approval's job finds the amendment granted already, in the checkpoint, and resumes.
 */
export function amendmentGate(
  planId: string,
  checkpoint: RunRecord | undefined,
  execution: Execution,
): { execution: Execution } | { reason: string; fix: string } {
  const grantedBefore = checkpoint?.amendments?.some((a) => a.id === execution.amendment?.amendmentId);
  const resumed = grantedBefore ? { ...execution, amendment: undefined } : execution;
  const waiting = checkpoint?.pendingAmendment;
  const granted = resumed.amendment?.amendmentId;
  if (waiting === granted) return { execution: resumed };
  if (waiting)
    return {
      reason: `plan \`${planId}\` waits for amendment \`${waiting}\`, which asks for more than the plan's approval allows.`,
      fix: `Review amendment \`${waiting}\` and approve it with \`/approve ${waiting}\`, or end the run with \`/cancel\`.`,
    };
  return {
    reason: `amendment \`${granted}\` is not what plan \`${planId}\` waits for.`,
    fix: 'Approve the amendment the progress comment names.',
  };
}

/** The amendment comment, its record sealed with the repository's record key. */
export function renderAmendment(ctx: RunContext, amendment: AmendmentRecord): string {
  const sealed = sealAmendment(amendment, ctx.recordKey);
  return renderAmendmentComment(sealed, `${amendmentMarkerText(amendment.amendmentId)}\n${encodeAmendment(sealed)}`);
}

/** Names the amendment in plain text, so a re-run that lost the answer to the post finds the comment. */
function amendmentMarkerText(id: string): string {
  return `<!-- plangate:amendment-id ${id} -->`;
}

/**
 * The amendment `id` of the approved plan `planId`, as the bot posted it: sealed, rendered exactly
 * as plangate renders it, and last edited by the bot. Anything else is no amendment.
 */
export async function findAmendment(
  ctx: RunContext,
  comments: readonly Comment[],
  plan: { planId: string; planHash: string; issue: number },
  id: string,
): Promise<{ comment: Comment; amendment: AmendmentRecord } | { refusal: string } | undefined> {
  const { botLogin } = ctx.settings;
  const comment = comments.find(
    (c) => c.author === botLogin && hasAmendmentMarker(c.body) && c.body.includes(amendmentMarkerText(id)),
  );
  if (!comment) return undefined;
  const amendment = decodeAmendment(comment.body);
  const untrusted = (why: string) => ({ refusal: `amendment \`${id}\` cannot be trusted: ${why}.` });
  if (!amendment || amendment.amendmentId !== id) return untrusted('its record does not read');
  if (!amendmentSealHolds(amendment, ctx.recordKey))
    return untrusted('it is not sealed with this repository’s record key');
  if (redact(renderAmendment(ctx, amendment), ctx.secrets) !== comment.body)
    return untrusted('its comment was edited after plangate posted it');
  if (amendment.planId !== plan.planId || amendment.planHash !== plan.planHash || amendment.issue !== plan.issue)
    return untrusted(`it belongs to another plan than \`${plan.planId}\``);
  const editor = comment.editor !== undefined ? comment.editor : (await ctx.thread.lastEditor(comment.nodeId)).editor;
  if (editor !== null && editor !== botLogin) return untrusted(`its comment was edited by @${editor}`);
  return { comment, amendment };
}
