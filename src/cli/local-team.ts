import { readRepositoryInstructions } from '../agents/repository-instructions.js';
import { startTeam, type TeamRun } from '../agents/team-run.js';
import type { MachineDefinition, Snapshot } from '../machine/types.js';
import type { CapabilityHub } from '../mcp/capability-hub.js';
import type { ChatClient } from '../models/chat-client.js';
import type { PriceTable } from '../config/prices.js';
import type { UsageLedger } from '../models/usage.js';
import type { LocalRepo } from './local-repo.js';
import { localDefaults } from './local-settings.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { ApprovedScope } from '../scope/approved-scope.js';

/**
 * The team as the CLI fields it: the action's own wiring (agents/team-run.ts) in the user's
 * checkout, with the action's default limits. Commands run as the user, who started them (no
 * separate account: it is their machine and their approval), with the network sealed unless
 * --network open (local-network.ts); the environment they get is the same allow-list the action
 * uses, so PLANGATE_API_KEY never reaches one.
 */
export interface LocalTeamSetup {
  repo: LocalRepo;
  planner: ChatClient;
  executor: ChatClient;
  allowedCommands: string[];
  protectedPaths: string[];
  prices: PriceTable;
  /** Scrubbed from tool output before a model sees it. */
  secrets: readonly string[];
  /** The command's MCP servers, shared by every team it summons. */
  capabilities: CapabilityHub;
  /** Where commands run: the command's one sandbox (local-network.ts), its network sealed unless --network open. */
  sandbox: Sandbox;
}

export async function startLocalTeam(
  setup: LocalTeamSetup,
  definition: MachineDefinition,
  snapshot: Snapshot,
  baseSha: string,
  spent?: UsageLedger,
  scope?: ApprovedScope,
): Promise<TeamRun> {
  // Read at the plan's base commit, as the action reads them, so planning and execution see the same text.
  const instructions = await readRepositoryInstructions(setup.repo.git, baseSha);
  return startTeam({
    definition,
    snapshot,
    ...(spent ? { spent } : {}),
    planner: setup.planner,
    executor: setup.executor,
    // The user's own checkout, and their own account: they started the command and approved the plan.
    sandbox: setup.sandbox,
    allowedCommands: setup.allowedCommands,
    protectedPaths: setup.protectedPaths,
    stallLimit: localDefaults.stallLimit,
    secrets: setup.secrets,
    prices: setup.prices,
    maxWriteBytes: localDefaults.maxWriteBytes,
    ...(scope ? { scope } : {}),
    instructions,
    capabilities: setup.capabilities,
  });
}
