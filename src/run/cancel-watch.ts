import type { CommandSource } from './command.js';
import type { RunState } from '../agents/run-state.js';
import type { Snapshot } from '../machine/types.js';
import type { PlanRecord } from '../record/plan-record.js';
import type { FlowResult, RunContext } from './run-context.js';
import { cancelledBy, cancelSignalled, clearCancelSignal } from './cancellation.js';
import { renderRecord } from './live-record.js';
import type { PlanCommentSync } from './plan-comment-sync.js';
import { refuse } from './refuse.js';

/**
 * How a running execution notices `/cancel`, which runs in another job: it raises the plan's cancel
 * signal on origin and marks the plan comment. One `git ls-remote` per cycle sees the signal (git
 * traffic, no API call), and a host abort sends the run down the ordinary abort path: commit, push,
 * draft pull request. Only a run with a plan comment can be cancelled: `/cancel` acts on the plan.
 */
export interface CancelWatch {
  /** Set once a `/cancel` is seen: the run's end then keeps the record `cancelled`. */
  readonly cancelled: boolean;
  /** Between cycles: a raised signal aborts the run through the machine, with who cancelled as the reason. */
  stopIfCancelled(run: Pick<RunState, 'dispatch'>, s: Snapshot): Promise<void>;
  /** After the last cycle: a cancel during it has no next cycle to stop, yet the run still ends cancelled. */
  lateCancel(): Promise<string | undefined>;
  /** Remembers a `/cancel` seen another way (the plan comment's mark) and answers the reason to give. */
  noteCancel(): Promise<string>;
}

export function watchForCancel(ctx: RunContext, planId: string, issue: number, plan: PlanCommentSync): CancelWatch {
  let cancelled = false;
  const watching = () => plan.comment !== undefined && !cancelled;
  const noteCancel = async (): Promise<string> => {
    cancelled = true;
    // Seen is enough: from here the run remembers it, and the plan comment keeps the plan withdrawn.
    await clearCancelSignal(ctx.git, issue, planId);
    const by = cancelledBy(await ctx.thread.listComments(issue).catch(() => []), ctx.settings.botLogin, planId);
    return by ? `cancelled by @${by}` : 'cancelled on the thread';
  };
  return {
    get cancelled() {
      return cancelled;
    },
    async stopIfCancelled(run, s) {
      if (!watching() || (s.state !== 'replan' && s.state !== 'execute')) return;
      if (!(await cancelSignalled(ctx.git, issue, planId))) return;
      run.dispatch({ type: 'abort', reason: await noteCancel() });
    },
    async lateCancel() {
      return watching() && (await cancelSignalled(ctx.git, issue, planId)) ? noteCancel() : undefined;
    },
    noteCancel,
  };
}

/**
 * A `/cancel` that read the plan as still proposed raised the signal while this job was starting;
 * the "executing" mark just written may have overwritten its "cancelled", so the signal decides.
 * Answers the refusal when the plan was cancelled, undefined when the run may start.
 */
export async function cancelledAtStart(
  ctx: RunContext,
  record: PlanRecord,
  plan: PlanCommentSync,
  source: CommandSource,
): Promise<FlowResult | undefined> {
  const { issue, planId } = record;
  if (!(await cancelSignalled(ctx.git, issue, planId))) return undefined;
  if (plan.comment)
    await ctx.thread.updateComment(plan.comment.id, renderRecord(ctx, { ...record, status: 'cancelled' }));
  await clearCancelSignal(ctx.git, issue, planId);
  return refuse(
    ctx.thread,
    source,
    '/approve',
    `plan \`${planId}\` was cancelled while this approval was starting.`,
    'Ask for a new plan with `/plan`.',
  );
}
