/**
 * The repository's rules for the agents: which commands may run, which paths may not be written,
 * how long a command may take. They differ per repository, so they travel in user messages; in a
 * system prompt or a tool description they would split the prompt cache by repository.
 */
export interface WorkspaceRules {
  allowedCommands: readonly string[];
  protectedPaths: readonly string[];
  commandTimeoutMs: number;
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
  ].join('\n');
}
