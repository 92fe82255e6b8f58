import type { ApprovedScope } from '../scope/approved-scope.js';
import type { Destination } from '../scope/network-destinations.js';
import type { Role } from '../machine/fields.js';
import type { MachineDefinition, Snapshot } from '../machine/types.js';
import type { ChatClient } from '../models/chat-client.js';
import type { PriceTable } from '../config/prices.js';
import {
  addTurn,
  emptyUsage,
  summarizeUsage,
  totalCost,
  totalTokens,
  type RoleUsageSummary,
  type TokenUsage,
  type UsageLedger,
} from '../models/usage.js';
import { drive, type DriveOptions } from './drive.js';
import { RunState } from './run-state.js';
import type { CapabilityHub } from '../mcp/capability-hub.js';
import { createTeam, type Team } from './team.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { Git } from '../repo/git.js';
import type { Notices } from './notices.js';
import type { RefusedDestination } from '../sandbox/sandbox.js';

/**
 * A machine run with its team and usage ledger, free of any host: the action (through
 * run/run-team.ts) and the local CLI both drive agents through it, so the two cannot drift apart
 * in how a team is wired or how usage is counted.
 */
export interface TeamRun {
  run: RunState;
  usage(): RoleUsageSummary[];
  ledger(): UsageLedger;
  totals(): RunTotals;
  drive(options?: DriveOptions): Promise<Snapshot>;
  /** Runs one step of a batch in a session of its own (see Team.summonStep). */
  summonStep: Team['summonStep'];
}

/** Tokens and cost of everything the ledger holds; cost is null when a model's price is unknown. */
export interface RunTotals extends TokenUsage {
  costUsd: number | null;
}

/** What a host decides about a run; everything else about the team is fixed here. */
export interface TeamRunOptions {
  definition: MachineDefinition;
  snapshot: Snapshot;
  /** Usage from earlier runs of the same plan (planning), so totals cover the whole story. */
  spent?: UsageLedger;
  planner: ChatClient;
  executor: ChatClient;
  /** Where and as whom commands run; its work tree is the agents' workspace. */
  sandbox: Sandbox;
  /** git for the read tools, bound to the work tree; default: git discovered in the workspace. */
  reader?: Git;
  /** What the host tells the executor in its next tool result. */
  notices?: Notices;
  /** The host's check after every command of what it changed; its words end the command's result. */
  afterCommand?: () => Promise<string | undefined>;
  allowedCommands: string[];
  protectedPaths: string[];
  stallLimit: number;
  /** Scrubbed from tool output before a model sees it. */
  secrets: readonly string[];
  prices: PriceTable;
  commandEnv?: string[];
  maxWriteBytes?: number;
  /** The approved scope the executor is held to; absent: none. */
  scope?: ApprovedScope;
  /** Told every command the executor ran. */
  onCommand?: (command: string, refused: readonly RefusedDestination[]) => void;
  /** How long one command may take; defaults to {@link defaultCommandTimeoutMs}. */
  commandTimeoutMs?: number;
  /** The repository's agent instructions at the base commit (readRepositoryInstructions); '' or absent: none. */
  instructions?: string;
  /** The run's MCP servers, shared by both roles; absent: none (the capability tools say so). */
  capabilities?: CapabilityHub;
  /** What `allowed-domains` allows where the network is sealed; absent: the network is open. */
  allowedNetwork?: readonly Destination[];
}

/** How long one command the executor runs may take before it is killed. */
export const defaultCommandTimeoutMs = 10 * 60 * 1000;

export function startTeam(options: TeamRunOptions): TeamRun {
  const run = new RunState(options.definition, options.snapshot);
  let ledger: UsageLedger = options.spent ?? emptyUsage();
  const team = createTeam({
    run,
    planner: options.planner,
    executor: options.executor,
    sandbox: options.sandbox,
    ...(options.reader ? { reader: options.reader } : {}),
    ...(options.notices ? { notices: options.notices } : {}),
    ...(options.afterCommand ? { afterCommand: options.afterCommand } : {}),
    allowedCommands: options.allowedCommands,
    protectedPaths: options.protectedPaths,
    commandTimeoutMs: options.commandTimeoutMs ?? defaultCommandTimeoutMs,
    stallLimit: options.stallLimit,
    secrets: options.secrets,
    commandEnv: options.commandEnv,
    maxWriteBytes: options.maxWriteBytes,
    ...(options.scope ? { scope: options.scope } : {}),
    ...(options.onCommand ? { onCommand: options.onCommand } : {}),
    instructions: options.instructions,
    capabilities: options.capabilities,
    ...(options.allowedNetwork ? { allowedNetwork: options.allowedNetwork } : {}),
    onUsage: (role: Role, model, tokens) => {
      ledger = addTurn(ledger, role, model, tokens);
    },
  });
  return {
    run,
    usage: () => summarizeUsage(ledger, options.prices),
    ledger: () => ledger,
    totals: () => ledgerTotals(ledger, options.prices),
    // The servers start before the first model request, so one that fails is known (and reported by
    // the hub) before the agents begin, and the run goes on without it.
    drive: async (driveOptions) => {
      await options.capabilities?.start();
      return drive(run, team, driveOptions);
    },
    summonStep: (step, limits) => team.summonStep(step, limits),
  };
}

/** A ledger's tokens and cost, as outputs and reports state them. */
export function ledgerTotals(ledger: UsageLedger, prices: PriceTable): RunTotals {
  return { ...totalTokens(ledger), costUsd: totalCost(ledger, prices) };
}
