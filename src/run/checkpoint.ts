import * as core from '@actions/core';
import type { Comment } from '../github/thread.js';
import type { Snapshot } from '../machine/types.js';
import { decodeRunRecord, encodeRunRecord, type RunRecord } from '../record/run-record.js';
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
 * A checkpoint is believed only as the bot wrote it.
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

/** Finds the progress comment an earlier attempt of this plan (a killed or failed job, an earlier /approve) left. */
export async function findCheckpoint(
  ctx: RunContext,
  comments: readonly Comment[],
  planId: string,
): Promise<EarlierAttempt> {
  const previous = comments.find((c) => c.author === ctx.settings.botLogin && c.body.includes(progressMarker(planId)));
  return { previous, checkpoint: previous ? await trustedCheckpoint(ctx, previous, planId) : undefined };
}

/**
 * A checkpoint is resumed only from a progress comment the bot wrote and last edited: a forged or
 * edited checkpoint could otherwise hand the executor different directives.
 */
export async function trustedCheckpoint(
  ctx: RunContext,
  comment: Comment,
  planId: string,
): Promise<RunRecord | undefined> {
  const run = decodeRunRecord(comment.body);
  if (!run || run.planId !== planId) return undefined;
  // The thread listing says who last edited it; only a comment from elsewhere needs asking.
  const editor = comment.editor !== undefined ? comment.editor : (await ctx.thread.lastEditor(comment.nodeId)).editor;
  // Exactly the bot (the thread spells an app's bot as REST does): nothing folded.
  if (editor !== null && editor !== ctx.settings.botLogin) {
    core.warning(`The checkpoint of plan ${planId} was edited by @${editor}; starting from the approved plan instead.`);
    return undefined;
  }
  return run;
}

/** The run's progress comment, posted (or taken over from an earlier attempt) as the run starts. */
export interface Progress {
  /**
   * Rewrites the comment for snapshot `s`, its checkpoint included. Once the job is being stopped,
   * only a cycle's end still writes (the checkpoint keeps up with what the cycle pushed) and the
   * comment goes on saying the job stopped; any other save is dropped.
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
      const cycleEnds = Object.keys(extra).length === 0;
      if (stoppedBy !== undefined && !cycleEnds) return Promise.resolve();
      if (cycleEnds) cycleEnd = s;
      return write(progressBody(run, s, stoppedBy === undefined ? extra : stoppedView(stoppedBy)));
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
    snapshot: s,
    usage: run.team.ledger(),
    runId,
    ...(work.pushed ? { pushed: work.pushed } : {}),
    ...(pullRequest ? { pullRequest } : {}),
    ...(keptOut.length > 0 ? { keptOut: recordedKeptOut(keptOut) } : {}),
    startedAt,
  };
  const marker = encodeRunRecord(checkpoint);
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
