import type { MachineDefinition, Snapshot } from '../machine/types.js';
import { emptyUsage, type UsageLedger } from '../models/usage.js';
import { ledgerTotals, startTeam, type TeamRun, type TeamRunOptions } from '../agents/team-run.js';
import type { RunContext, UsageTotals } from './run-context.js';
import { executorOnlyMachine } from '../machine/executor-only.js';
import { plannerExecutorMachine } from '../machine/planner-executor.js';
import type { PlanRecord } from '../record/plan-record.js';

export type { TeamRun } from '../agents/team-run.js';

/**
 * Runs a machine from a snapshot with the team the action's settings describe. Shared by the flows
 * that summon agents; it is wiring, not a flow. The wiring itself lives in agents/team-run.ts,
 * which the local CLI uses too.
 */

/**
 * `spent` carries usage from earlier runs of the same plan (planning), so totals cover the whole story;
 * `instructions` are the repository's agent instructions read at the plan's base commit.
 */
export function startTeamRun(
  ctx: RunContext,
  definition: MachineDefinition,
  snapshot: Snapshot,
  spent: UsageLedger = emptyUsage(),
  instructions = '',
  /** What an execution adds: the executor's notices, the check after every command, the approved scope. */
  execution: Pick<TeamRunOptions, 'notices' | 'afterCommand' | 'scope' | 'onCommand'> = {},
): TeamRun {
  const { settings } = ctx;
  return startTeam({
    definition,
    snapshot,
    spent,
    planner: ctx.planner,
    executor: ctx.executor,
    sandbox: ctx.sandbox,
    reader: ctx.reader,
    ...execution,
    allowedCommands: settings.allowedCommands,
    protectedPaths: settings.protectedPaths,
    stallLimit: settings.stallLimit,
    secrets: ctx.secrets,
    prices: settings.prices,
    commandEnv: settings.commandEnv,
    maxWriteBytes: settings.maxWriteBytes,
    instructions,
    capabilities: ctx.mcp,
    ...(settings.network === 'sealed' ? { allowedNetwork: settings.allowedDestinations } : {}),
  });
}

/** The run's totals for the action's outputs. */
export function usageTotals(ledger: UsageLedger, ctx: RunContext): UsageTotals {
  return ledgerTotals(ledger, ctx.settings.prices);
}

/** The machine a record runs on: the planner and executor loop, or the executor alone. */
export function machineFor(kind: PlanRecord['machine']): MachineDefinition {
  return kind === 'executor-only' ? executorOnlyMachine : plannerExecutorMachine;
}
