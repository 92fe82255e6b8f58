import * as core from '@actions/core';
import type { Snapshot } from '../machine/types.js';
import { enforceBudget, type Budget } from './budget.js';
import type { RunState } from './run-state.js';
import type { SummonOptions, Team } from './team.js';
import type { StepReport } from '../machine/fields.js';
import { errorMessage } from '../text/error-message.js';
import { ModelError } from '../models/model-error.js';

/**
 * The host loop: summon whichever agent the machine's state asks for, until the machine is done or
 * the caller's stop condition holds. An agent that fails (its model unreachable after retries) is
 * turned into an abort with the reason, so the run still ends through the machine with its work kept.
 * It also returns when the machine pauses in a state that summons no agent, leaving the rest to the host.
 */
export interface DriveOptions {
  /** Stops early, e.g. after planning when the plan waits for approval. */
  until?: (snapshot: Snapshot) => boolean;
  /** Called after every execute cycle, to commit, push and report progress. */
  onCycle?: (snapshot: Snapshot) => Promise<void>;
  /**
   * Time and spending limits, checked before each summons and before each model request in the
   * working states; a spent budget aborts the run, and the planner still writes the abort summary.
   */
  budget?: Budget;
  /**
   * A model that cannot be reached (after the client's retries) stops the drive instead of aborting
   * the run: the provider's trouble is no reason to give the plan up, so the host keeps it resumable
   * and says what to fix. Without it, the failure aborts through the machine as any agent failure.
   */
  stopOnModelError?: boolean;
  /**
   * The host stops the run (the job is being cancelled): once it holds, no agent is summoned, no
   * model asked and no tool run, and the drive returns where it stands. The machine is not told:
   * the run ends as the host says, without the wrap-up an abort would ask a model for.
   */
  halted?: () => boolean;
  /**
   * Carries out the ready steps of a step graph together when the executor is due (run/step-batch.ts):
   * their reports go to the machine as one batch. Undefined from it: the plan orders no steps, and
   * the executor is summoned as usual; null: the batch stopped unfinished (the job is being
   * stopped, the approved budget is spent), and the drive ends where it stands.
   */
  runSteps?: (snapshot: Snapshot, limits: SummonOptions) => Promise<StepReport[] | undefined | null>;
}

export async function drive(
  run: RunState,
  team: Pick<Team, 'summonCurrent'>,
  options: DriveOptions = {},
): Promise<Snapshot> {
  while (!run.finished && !options.until?.(run.snapshot) && !options.halted?.() && !options.budget?.spent) {
    // A live state with no agent waits on the host (e.g. for a maintainer's answer); summoning nobody would spin forever.
    if (run.agent === null) break;
    const before = run.snapshot;
    let reports: StepReport[] | undefined | null;
    try {
      // A spent budget aborts instead of summoning; the loop then goes on into the wrap-up state.
      if (enforceBudget(options.budget, run) === undefined) {
        const limits = { budget: options.budget, halted: options.halted };
        reports = run.agent === 'executor' ? await options.runSteps?.(run.snapshot, limits) : undefined;
        if (reports === null) break;
        if (reports) run.dispatch({ type: 'steps', agent: 'executor', reports });
        else await team.summonCurrent(limits);
      }
    } catch (error) {
      if (options.stopOnModelError && error instanceof ModelError) throw error;
      const reason = `${run.agent ?? 'agent'} failed in state ${before.state}: ${errorMessage(error)}`;
      core.warning(reason);
      run.dispatch({ type: 'abort', reason });
    }
    // A batch of steps that went as planned stays in execute for the next batch: a cycle all the same.
    const batched = reports !== undefined && reports !== null && run.snapshot.iteration > before.iteration;
    if (before.state === 'execute' && (run.snapshot.state !== 'execute' || batched)) {
      await options.onCycle?.(run.snapshot);
    }
  }
  return run.snapshot;
}
