import * as core from '@actions/core';
import type { Comment } from '../github/thread.js';
import type { Snapshot } from '../machine/types.js';
import type { PlanRecord } from '../record/plan-record.js';
import { decodeRunRecord, encodeRunRecord, sealRunRecord, type RunRecord } from '../record/run-record.js';
import { sealHolds } from '../record/seal.js';
import type { KeptOutChange } from '../repo/change-gate.js';
import { progressMarker, renderProgressComment } from '../render/progress-comment.js';
import type { RunView } from '../render/run-view.js';
import { fitBody, githubBodyLimit } from '../text/limits.js';
import type { RunContext } from './run-context.js';
import { executionView, type ExecutionRun } from './execution-run.js';

/**
 * The progress comment and the checkpoint at its end. After every cycle the comment shows where
 * the run stands, and its hidden run record (snapshot, usage, last push, pull request) lets a
 * re-run or a new `/approve` of the same plan resume where this one stopped, on the same branch.
 * A checkpoint is believed only sealed with the record key and bound to the approved plan.
 */

/** The run record can grow with a long history; past this it is left out rather than cut. */
const maxCheckpointChars = 48_000;

/** Kept-out changes the checkpoint carries: enough to report, never enough to crowd the record out. */
const maxRecordedKeptOut = 100;
const maxRecordedKeptOutChars = 8_000;

/** An earlier attempt's progress comment on the thread, and its checkpoint when it can be trusted. */
export interface EarlierAttempt {
  previous: Comment | undefined;
  checkpoint: RunRecord | undefined;
}

/**
 * Finds the progress comment an earlier attempt of this plan (a killed or failed job, an earlier
 * /approve) left. Its checkpoint is resumed only when it is plangate's own and continues `approved`
 * (see trustedCheckpoint); any other is ignored with a warning, and the run starts from the approved
 * plan. The comment taken over is the trusted one, else the first the bot posted for the plan.
 */
export async function findCheckpoint(
  ctx: RunContext,
  comments: readonly Comment[],
  approved: PlanRecord,
): Promise<EarlierAttempt> {
  const marker = progressMarker(approved.planId);
  const candidates = comments.filter((c) => c.author === ctx.settings.botLogin && c.body.includes(marker));
  for (const comment of candidates) {
    const verdict = await trustedCheckpoint(ctx, comment, approved);
    if (verdict.ok) return { previous: comment, checkpoint: verdict.checkpoint };
    if (verdict.reason)
      core.warning(
        `Ignored the checkpoint in ${comment.url || `comment ${comment.id}`}: ${verdict.reason}. Plan ${approved.planId} starts from the approved plan.`,
      );
  }
  return { previous: candidates[0], checkpoint: undefined };
}

/** Whether a progress comment's checkpoint can steer the run; `reason` is empty when it holds none. */
export type CheckpointVerdict = { ok: true; checkpoint: RunRecord } | { ok: false; reason: string };

/**
 * A checkpoint steers a run as the plan does (directives, plan revisions, caps, the branch tip), so it
 * is resumed only when: the bot wrote and last edited the comment; it is sealed with the record key;
 * it continues the approved plan (its plan id and hash, and the same objective: every revision since
 * is one the run sealed itself). Its caps can only lower the approved plan's.
 */
export async function trustedCheckpoint(
  ctx: RunContext,
  comment: Comment,
  approved: PlanRecord,
): Promise<CheckpointVerdict> {
  const { planId } = approved;
  const run = decodeRunRecord(comment.body);
  if (!run) return { ok: false, reason: '' };
  if (run.planId !== planId) return { ok: false, reason: `it belongs to plan ${run.planId}` };
  if (!sealHolds(run, ctx.recordKey))
    return { ok: false, reason: "it is not sealed with this repository's record key, so plangate did not write it" };
  if (run.planHash !== approved.planHash)
    return { ok: false, reason: `it continues another version of plan ${planId}` };
  if (run.snapshot.context.objective !== approved.snapshot.context.objective)
    return { ok: false, reason: 'its objective is not the approved one' };
  // The thread listing says who last edited it; only a comment from elsewhere needs asking.
  const editor = comment.editor !== undefined ? comment.editor : (await ctx.thread.lastEditor(comment.nodeId)).editor;
  // Exactly the bot (the thread spells an app's bot as REST does): nothing folded.
  if (editor !== null && editor !== ctx.settings.botLogin) return { ok: false, reason: `it was edited by @${editor}` };
  return { ok: true, checkpoint: { ...run, snapshot: withinApprovedPolicy(run.snapshot, approved.snapshot.policy) } };
}

/** The snapshot with each cap no higher than the approved plan's: a checkpoint may only have used fewer. */
function withinApprovedPolicy(s: Snapshot, approved: Snapshot['policy']): Snapshot {
  const lower = (name: keyof Snapshot['policy']) => Math.min(s.policy[name], approved[name]);
  return {
    ...s,
    policy: {
      maxIterations: lower('maxIterations'),
      maxExchangesPerStage: lower('maxExchangesPerStage'),
      maxExchangesPerAgentPerStage: lower('maxExchangesPerAgentPerStage'),
      checkpointEvery: lower('checkpointEvery'),
    },
  };
}

/** The run's progress comment, posted (or taken over from an earlier attempt) as the run starts. */
export interface Progress {
  /**
   * Rewrites the comment for snapshot `s`, its checkpoint included. Once the job is being stopped,
   * every save is dropped: nothing is pushed after the signal, so the stop's own write (the last
   * finished cycle) stays the checkpoint.
   */
  save(s: Snapshot, extra?: Partial<RunView>): Promise<void>;
  /**
   * The job is being stopped by `signal`: the comment goes back to the last finished cycle (where a
   * re-run resumes) and says so, after whatever write of the comment is under way, so a flow that
   * runs on while the step stops cannot put "executing" back.
   */
  stop(signal: string): Promise<void>;
  /**
   * The last snapshot saved between cycles (or the one the run started from): where a run that
   * stops mid-cycle resumes, since a half-done cycle's staged fields must not carry over.
   */
  lastCycleEnd(): Snapshot;
}

export async function openProgress(run: ExecutionRun, previous: Comment | undefined): Promise<Progress> {
  const { thread } = run.ctx;
  const { planId, issue } = run.record;
  let cycleEnd = run.team.run.snapshot;
  const first = progressBody(run, cycleEnd);
  const comment = previous
    ? await thread.updateComment(previous.id, first)
    : await thread.postComment(issue, first, { dedupe: progressMarker(planId) });
  // The comment's writes, one after another, so the last one asked is the one that stays.
  let writes: Promise<unknown> = Promise.resolve();
  const write = (body: string): Promise<void> => {
    const written = writes.then(() => thread.updateComment(comment.id, body));
    writes = written.catch(() => undefined);
    return written.then(() => undefined);
  };
  let stoppedBy: string | undefined;
  const stoppedView = (signal: string): Partial<RunView> => ({ interrupted: stoppedReason(signal, cycleEnd) });
  return {
    save: (s, extra = {}) => {
      if (stoppedBy !== undefined) return Promise.resolve();
      // Which steps of a batch run is a view of the same cycle end; other extras (a stop, an amendment) are not.
      if (Object.keys(extra).every((key) => key === 'steps')) cycleEnd = s;
      return write(progressBody(run, s, extra));
    },
    stop: (signal) => {
      stoppedBy = signal;
      return write(progressBody(run, cycleEnd, stoppedView(signal)));
    },
    lastCycleEnd: () => cycleEnd,
  };
}

/** What the progress comment says of a job stopped by `signal`, counted from the last finished cycle. */
function stoppedReason(signal: string, cycleEnd: Snapshot): string {
  const finished = cycleEnd.context.history.length;
  return `the job was stopped by ${signal} (cancelled, or out of time) after ${finished} finished ${finished === 1 ? 'cycle' : 'cycles'}`;
}

/** The progress comment with the checkpoint at its end; the checkpoint is never cut. */
function progressBody(run: ExecutionRun, s: Snapshot, extra: Partial<RunView> = {}): string {
  const { ctx, record, work, pullRequest, startedAt, now } = run;
  const { serverUrl, owner, repo, runId } = ctx.settings.runner;
  const keptOut = run.keptOut.all;
  const checkpoint: RunRecord = {
    v: 1,
    planId: record.planId,
    planHash: record.planHash,
    snapshot: s,
    usage: run.team.ledger(),
    runId,
    ...(work.pushed ? { pushed: work.pushed } : {}),
    ...(pullRequest ? { pullRequest } : {}),
    ...(keptOut.length > 0 ? { keptOut: recordedKeptOut(keptOut) } : {}),
    ...(run.amendments.length > 0 ? { amendments: [...run.amendments] } : {}),
    ...(run.pendingAmendment ? { pendingAmendment: run.pendingAmendment } : {}),
    ...(run.ran.length > 0 ? { ran: run.ran.slice(-500) } : {}),
    ...(run.batch ? { batch: run.batch } : {}),
    startedAt,
  };
  const marker = encodeRunRecord(sealRunRecord(checkpoint, ctx.recordKey));
  const branchUrl = `${serverUrl}/${owner}/${repo}/tree/${record.branch}`;
  const visible = renderProgressComment(executionView(run, s, extra), {
    startedAt,
    now,
    branchUrl,
    serverFailures: run.serverFailures,
  });
  if (marker.length > maxCheckpointChars) {
    core.warning(
      `The checkpoint of plan ${record.planId} is too large to save (${marker.length} characters); a re-run would start from the approved plan on the same branch.`,
    );
    return visible;
  }
  return `${fitBody(visible, githubBodyLimit - marker.length - 1)}\n${marker}`;
}

/** The first kept-out changes (by path) that fit the checkpoint's share. */
function recordedKeptOut(keptOut: readonly KeptOutChange[]): KeptOutChange[] {
  const out: KeptOutChange[] = [];
  let chars = 0;
  for (const change of keptOut) {
    chars += change.path.length + change.reason.length + 40;
    if (out.length >= maxRecordedKeptOut || chars > maxRecordedKeptOutChars) break;
    out.push(change);
  }
  return out;
}
