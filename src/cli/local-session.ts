import { createCapabilityHub, type CapabilityHub } from '../mcp/hub.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { mcpSecretValues } from '../config/mcp-servers.js';
import { createChatClient, type ChatClient, type ChatClientOptions } from '../models/chat-client.js';
import { withOverrides, type PriceTable } from '../config/prices.js';
import { resolveMcpServers } from '../config/settings.js';
import { gitIdentity, localUserName, openLocalRepo, requireCleanTree, type LocalRepo } from './local-repo.js';
import { localSandbox } from './local-network.js';
import { localDefaults, readLocalConfig, requireApiKey, type LocalSettings } from './local-settings.js';
import type { LocalTeamSetup } from './local-team.js';
import { decideRepoTrust, withSkippedServers } from './repo-trust.js';
import type { Terminal } from './terminal.js';
import { cliSettingWords } from './cli-setting-words.js';

/**
 * What both commands start from, checked in the order a user can fix it: the command line, the
 * API key, the repository, a clean work tree, the config file; then whether the config file's MCP
 * servers may start at all (repo-trust.ts: the flag, or a question on a terminal). Nothing here calls
 * a model or starts an MCP server, so every refusal comes before any request is made or any process
 * is started.
 */
export interface LocalSession {
  settings: LocalSettings;
  repo: LocalRepo;
  prices: PriceTable;
  planner: ChatClient;
  executor: ChatClient;
  /**
   * The config file's MCP servers the user allowed, as the action runs them: started when an agent
   * is first summoned, shared by both roles and every team of the command, closed by withSession.
   * The ones not allowed are listed to the agents as not available.
   */
  capabilities: CapabilityHub;
  /**
   * Where commands and stdio MCP servers run (local-network.ts): one for the whole command, so its
   * sealed network is made once, and closed by withSession.
   */
  sandbox: Sandbox;
  /** Scrubbed from tool output before a model sees it: the API key and the MCP servers' variable values. */
  secrets: readonly string[];
  /** The user as git knows them; undefined when git cannot say (then no commit can be made). */
  identity: { name: string; email: string } | undefined;
  /** Who asked, for the record: the git name, else the login name. */
  requestedBy: string;
  terminal: Terminal;
}

/** The process's surroundings, passed in so the commands never reach for globals. */
export interface CommandContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  terminal: Terminal;
}

/**
 * Opens the session, runs `use` with it and stops every MCP server it started, however `use` ends:
 * no server process outlives the command. `settings` come from readLocalSettings, so usage errors
 * are already reported.
 */
export async function withSession<T>(
  settings: LocalSettings,
  context: CommandContext,
  doing: string,
  use: (session: LocalSession) => Promise<T>,
): Promise<T> {
  const session = await openSession(settings, context, doing);
  try {
    return await use(session);
  } finally {
    await session.capabilities.close();
    await session.sandbox.close();
  }
}

async function openSession(settings: LocalSettings, context: CommandContext, doing: string): Promise<LocalSession> {
  requireApiKey(settings);
  const repo = await openLocalRepo(context.cwd);
  await requireCleanTree(repo.git, doing);
  const identity = await gitIdentity(repo.git);
  const config = readLocalConfig(repo.root);
  const apiKeys = [settings.planner.apiKey, settings.executor.apiKey];
  // The variables servers name come from the user's environment, as the action takes them from the step's env:.
  const servers = resolveMcpServers(config['mcp-servers'], context.env, apiKeys, 'the environment you run plangate in');
  const serverValues = mcpSecretValues(servers);
  context.terminal.conceal(serverValues);
  const secrets = [...apiKeys, ...serverValues];
  // The checkout may be anyone's: what its config would run is asked about before anything starts.
  const trust = await decideRepoTrust({
    servers,
    configFile: localDefaults.configFile,
    trusted: settings.trustRepoConfig,
    terminal: context.terminal,
  });
  // Local runs are the user's own: commands and servers run as the user who started plangate.
  const sandbox = localSandbox(settings, repo.root);
  const hub = createCapabilityHub(trust.allowed, { sandbox, secrets });
  return {
    settings,
    repo,
    prices: withOverrides(config.prices ?? {}),
    planner: createChatClient('planner', settings.planner, modelOptions(settings)),
    executor: createChatClient('executor', settings.executor, modelOptions(settings)),
    capabilities: withSkippedServers(hub, trust.skipped),
    sandbox,
    secrets,
    identity,
    requestedBy: identity?.name ?? localUserName(),
    terminal: context.terminal,
  };
}

/** The team's setup; a saved plan's workspace rules apply unless this invocation names its own. */
export function teamSetup(
  session: LocalSession,
  saved?: { allowedCommands: string[]; protectedPaths: string[] },
): LocalTeamSetup {
  const { settings } = session;
  return {
    repo: session.repo,
    planner: session.planner,
    executor: session.executor,
    allowedCommands: settings.allowedCommands ?? saved?.allowedCommands ?? localDefaults.allowedCommands,
    protectedPaths: settings.protectedPaths ?? saved?.protectedPaths ?? localDefaults.protectedPaths,
    prices: session.prices,
    secrets: session.secrets,
    capabilities: session.capabilities,
    sandbox: session.sandbox,
  };
}

/** --model-retries and --model-timeout as the chat client takes them; its failures name the CLI's settings. */
function modelOptions(settings: LocalSettings): ChatClientOptions {
  return {
    maxRetries: settings.modelRetries,
    timeoutMs: settings.modelTimeoutSeconds * 1000,
    words: cliSettingWords,
  };
}
