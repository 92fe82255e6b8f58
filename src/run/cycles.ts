import type { Snapshot } from '../machine/types.js';
import type { Progress } from './checkpoint.js';
import { cycleCommitMessage } from './cycle-commit.js';
import type { ExecutionRun } from './execution-run.js';
import { runBudget } from './run-budget.js';
import type { Budget } from '../agents/budget.js';
import { widening } from './scope-widening.js';
import { stepBatchRunner } from './step-batch.js';

/**
 * The execution's loop, cycle by cycle: the team works until the machine ends, and after every
 * cycle the host commits and pushes, saves the checkpoint and looks for a `/cancel`. The budget
 * (`timeout-minutes`, `max-cost-usd`) stops the run through the machine, as an abort with its reason.
 * A job being stopped (`halted`) ends the loop where it is: nothing more is asked, run or pushed.
 */
export async function driveCycles(
  run: ExecutionRun,
  progress: Progress,
  halted: () => boolean = () => false,
  budget: Budget = executionBudget(run),
): Promise<Snapshot> {
  const { team } = run;
  const final = await team.drive({
    budget,
    // A provider that cannot be reached stops the run resumably instead of aborting the plan (outcome.ts).
    stopOnModelError: true,
    halted,
    // A revision that needs more than the approval allows stops the run for an amendment (amendment.ts).
    until: (s) => widening(run, s) !== undefined,
    // Steps the plan lets run together each get a session and a work tree of their own (step-batch.ts).
    runSteps: stepBatchRunner(run, progress, halted, stepsAtOnce(run)),
    onCycle: async (s) => {
      // A cycle that ends after the signal is not committed; one whose commit the signal caught is
      // not pushed (the host's git refuses) and not checkpointed.
      if (halted()) return;
      await commitCycle(run, s);
      if (halted()) return;
      await progress.save(s);
      await run.cancel.stopIfCancelled(team.run, s);
    },
  });
  // A half-done cycle of a stopped job is not committed: the work tree goes with the step, and a
  // re-run does the cycle again from the last checkpoint.
  if (halted()) return final;
  // Anything left in the workspace after the last cycle (e.g. an aborted cycle) is kept too. Its
  // checkpoint is the final save (or the failure's): a job killed before that finishes again.
  await commitCycle(run, final);
  return final;
}

/**
 * The execution's budget: the configured limits (which abort), and the approved scope's (which stop
 * the run for an amendment), counted from the approval on across every job of the run.
 */
export function executionBudget(run: ExecutionRun): Budget {
  const { team, ctx } = run;
  const approved = {
    budget: run.scope.budget,
    ledger: () => team.ledger(),
    atApproval: run.record.usage,
    prices: ctx.settings.prices,
  };
  return runBudget(ctx.settings, () => team.totals().costUsd, run.now, run.scopeEnforced ? approved : undefined);
}

/** Commits and pushes the cycle's work; what the commit gate kept out is told to the executor once. */
export async function commitCycle(run: ExecutionRun, s: Snapshot): Promise<void> {
  const committed = await run.work.checkpoint(cycleCommitMessage(s, run.record.planId, run.record.issue));
  const notice = run.keptOut.keep(committed.keptOut);
  if (notice) run.keptOut.notices.post(notice);
}

/**
 * How many steps may run at once: what the approval showed (the scope's `parallelSteps`), never
 * more than the workflow allows now.
 */
export function stepsAtOnce(run: ExecutionRun): number {
  return Math.max(1, Math.min(run.scope.parallelSteps ?? 1, run.ctx.settings.parallelSteps));
}
