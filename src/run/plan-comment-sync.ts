import type { Comment } from '../github/thread.js';
import type { PlanRecord } from '../record/plan-record.js';
import type { RunContext } from './run-context.js';
import { renderRecord } from './live-record.js';

/**
 * The plan comment an execution keeps in step with its record (executing, then done, aborted or
 * cancelled), and the body GitHub stored at the last write: right before the pull request is
 * opened, the comment must still read exactly so, or the approval no longer holds.
 */
export interface PlanCommentSync {
  /** Absent when the run posted no plan (the executor-only policy, a planner that failed). */
  readonly comment: Comment | undefined;
  /** The body as GitHub stored it at plangate's last write. */
  readonly body: string | undefined;
  /**
   * Writes the record's new status. After a seen `/cancel` the comment keeps the plan withdrawn:
   * any status but `executing` is written as `cancelled`.
   */
  write(next: PlanRecord, cancelled: boolean): Promise<void>;
}

/** Brings the comment up to date with `record` (the executing mark, the approver) when it differs. */
export async function syncPlanComment(
  ctx: RunContext,
  record: PlanRecord,
  comment: Comment | undefined,
): Promise<PlanCommentSync> {
  let current = comment;
  if (current && current.body !== renderRecord(ctx, record)) {
    current = await ctx.thread.updateComment(current.id, renderRecord(ctx, record));
  }
  let body = current?.body;
  return {
    comment: current,
    get body() {
      return body;
    },
    async write(next, cancelled) {
      if (!current) return;
      const written = cancelled && next.status !== 'executing' ? { ...next, status: 'cancelled' as const } : next;
      // What GitHub stored is what a later check compares against.
      body = (await ctx.thread.updateComment(current.id, renderRecord(ctx, written))).body;
    },
  };
}
