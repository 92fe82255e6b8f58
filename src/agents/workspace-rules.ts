import { allowedEntries, type Destination } from '../scope/network-destinations.js';

/**
 * The repository's rules for the agents: which commands may run, which paths may not be written,
 * how long a command may take. They differ per repository, so they travel in user messages; in a
 * system prompt or a tool description they would split the prompt cache by repository.
 */
export interface WorkspaceRules {
  allowedCommands: readonly string[];
  protectedPaths: readonly string[];
  commandTimeoutMs: number;
  /** What `allowed-domains` allows where the network is sealed; absent: the network is open and nothing is said of it. */
  allowedNetwork?: readonly Destination[];
}

const listed = (items: readonly string[], none: string): string =>
  items.length > 0 ? items.map((item) => `\`${item}\``).join(', ') : none;

/** A fixed-heading section, the same bytes for the same rules, placed before a summoning message. */
export function workspaceRulesText(rules: WorkspaceRules): string {
  return [
    '## Workspace rules',
    '',
    `Commands run_command accepts (a \`*\` stands for one argument, a final \`**\` for any remaining ones): ${listed(rules.allowedCommands, 'none; no command can run')}.`,
    `Each command is stopped after ${Math.round(rules.commandTimeoutMs / 1000)} s.`,
    `Protected paths, which cannot be written: ${listed(rules.protectedPaths, 'none')}.`,
    ...(rules.allowedNetwork ? [networkRule(rules.allowedNetwork)] : []),
  ].join('\n');
}

/** The sealed network as the agents are told it: the workflow's ceiling, and that a plan's steps name what they need of it. */
function networkRule(allowed: readonly Destination[]): string {
  const ceiling = allowedEntries(allowed);
  return ceiling.length === 0
    ? 'The network is sealed and `allowed-domains` allows no destination: commands and MCP servers reach loopback only.'
    : `The network is sealed: \`allowed-domains\` allows ${listed(ceiling, '')}. Commands and MCP servers reach loopback and only those of these the approved plan's steps name in \`network\` (as \`allowed-domains\` entries, e.g. \`npm\` for \`npm ci\`); nothing else is reachable.`;
}
