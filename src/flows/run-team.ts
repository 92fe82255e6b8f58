import type { Role } from '../machine/fields.js';
import type { Snapshot } from '../machine/types.js';
import { plannerExecutorMachine } from '../machine/planner-executor.js';
import { addTurn, emptyUsage, summarizeUsage, type RoleUsageSummary, type UsageLedger } from '../models/usage.js';
import { RunState } from '../agents/run-state.js';
import { createTeam } from '../agents/team.js';
import { drive, type DriveOptions } from '../agents/drive.js';
import type { RunContext } from '../run-context.js';

/** How long one command the executor runs may take before it is killed. */
const commandTimeoutMs = 10 * 60 * 1000;

/**
 * Runs the machine from a snapshot with the configured team and keeps the usage ledger. Shared by
 * the flows that summon agents; it is wiring, not a flow.
 */
export interface TeamRun {
  run: RunState;
  usage(): RoleUsageSummary[];
  ledger(): UsageLedger;
  drive(options?: DriveOptions): Promise<Snapshot>;
}

/** `spent` carries usage from earlier runs of the same plan (planning), so totals cover the whole story. */
export function startTeamRun(ctx: RunContext, snapshot: Snapshot, spent: UsageLedger = emptyUsage()): TeamRun {
  const run = new RunState(plannerExecutorMachine, snapshot);
  let ledger: UsageLedger = spent;
  const team = createTeam({
    run,
    planner: ctx.planner,
    executor: ctx.executor,
    workspace: ctx.settings.runner.workspace,
    allowedCommands: ctx.settings.allowedCommands,
    protectedPaths: ctx.settings.protectedPaths,
    commandTimeoutMs,
    onUsage: (role: Role, model, tokens) => {
      ledger = addTurn(ledger, role, model, tokens);
    },
  });
  return {
    run,
    usage: () => summarizeUsage(ledger),
    ledger: () => ledger,
    drive: (options) => drive(run, team, options),
  };
}
