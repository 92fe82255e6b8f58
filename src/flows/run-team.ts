import type { Role } from '../machine/fields.js';
import type { MachineDefinition, Snapshot } from '../machine/types.js';
import { addTurn, emptyUsage, summarizeUsage, totalCost, totalTokens, type RoleUsageSummary, type UsageLedger } from '../models/usage.js';
import { RunState } from '../agents/run-state.js';
import { createTeam } from '../agents/team.js';
import { drive, type DriveOptions } from '../agents/drive.js';
import type { RunContext, UsageTotals } from '../run-context.js';

/** How long one command the executor runs may take before it is killed. */
const commandTimeoutMs = 10 * 60 * 1000;

/**
 * Runs a machine from a snapshot with the configured team and keeps the usage ledger. Shared by
 * the flows that summon agents; it is wiring, not a flow.
 */
export interface TeamRun {
  run: RunState;
  usage(): RoleUsageSummary[];
  ledger(): UsageLedger;
  totals(): UsageTotals;
  drive(options?: DriveOptions): Promise<Snapshot>;
}

/** `spent` carries usage from earlier runs of the same plan (planning), so totals cover the whole story. */
export function startTeamRun(
  ctx: RunContext,
  definition: MachineDefinition,
  snapshot: Snapshot,
  spent: UsageLedger = emptyUsage(),
): TeamRun {
  const run = new RunState(definition, snapshot);
  let ledger: UsageLedger = spent;
  const { settings } = ctx;
  const team = createTeam({
    run,
    planner: ctx.planner,
    executor: ctx.executor,
    workspace: settings.runner.workspace,
    allowedCommands: settings.allowedCommands,
    protectedPaths: settings.protectedPaths,
    commandTimeoutMs,
    stallLimit: settings.stallLimit,
    secrets: ctx.secrets,
    commandUser: settings.commandUser || undefined,
    commandEnv: settings.commandEnv,
    maxWriteBytes: settings.maxWriteBytes,
    onUsage: (role: Role, model, tokens) => {
      ledger = addTurn(ledger, role, model, tokens);
    },
  });
  return {
    run,
    usage: () => summarizeUsage(ledger, settings.prices),
    ledger: () => ledger,
    totals: () => usageTotals(ledger, ctx),
    drive: (options) => drive(run, team, options),
  };
}

/** The run's totals for the action's outputs. */
export function usageTotals(ledger: UsageLedger, ctx: RunContext): UsageTotals {
  const tokens = totalTokens(ledger);
  return { ...tokens, costUsd: totalCost(ledger, ctx.settings.prices) };
}
