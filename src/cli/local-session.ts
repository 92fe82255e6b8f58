import { createChatClient, type ChatClient } from '../models/chat-client.js';
import type { PriceTable } from '../models/prices.js';
import { gitIdentity, localUserName, openLocalRepo, requireCleanTree, type LocalRepo } from './local-repo.js';
import { localDefaults, readLocalPrices, requireApiKey, type LocalSettings } from './local-settings.js';
import type { LocalTeamSetup } from './local-team.js';
import type { Terminal } from './terminal.js';

/**
 * What both commands start from, checked in the order a user can fix it: the command line, the
 * API key, the repository, a clean work tree. Nothing here calls a model, so every refusal comes
 * before any request is made.
 */
export interface LocalSession {
  settings: LocalSettings;
  repo: LocalRepo;
  prices: PriceTable;
  planner: ChatClient;
  executor: ChatClient;
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

/** `settings` come from readLocalSettings, so usage errors are already reported. */
export async function openSession(settings: LocalSettings, context: CommandContext, doing: string): Promise<LocalSession> {
  requireApiKey(settings);
  const repo = await openLocalRepo(context.cwd);
  await requireCleanTree(repo.git, doing);
  const identity = await gitIdentity(repo.git);
  return {
    settings,
    repo,
    prices: readLocalPrices(repo.root),
    planner: createChatClient('planner', settings.planner),
    executor: createChatClient('executor', settings.executor),
    identity,
    requestedBy: identity?.name ?? localUserName(),
    terminal: context.terminal,
  };
}

/** The team's setup; a saved plan's workspace rules apply unless this invocation names its own. */
export function teamSetup(session: LocalSession, saved?: { allowedCommands: string[]; protectedPaths: string[] }): LocalTeamSetup {
  const { settings } = session;
  return {
    repo: session.repo,
    planner: session.planner,
    executor: session.executor,
    allowedCommands: settings.allowedCommands ?? saved?.allowedCommands ?? localDefaults.allowedCommands,
    protectedPaths: settings.protectedPaths ?? saved?.protectedPaths ?? localDefaults.protectedPaths,
    prices: session.prices,
    secrets: [settings.planner.apiKey, settings.executor.apiKey],
  };
}
