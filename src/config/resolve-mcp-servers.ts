import * as core from '@actions/core';
import type { McpServerSpec } from './mcp-servers.js';
import type { RepoConfig } from './repo-config.js';

/**
 * Looks up the variables each stdio server names, registering their values as secrets. A variable
 * that is unset, or that holds one of plangate's own credentials, keeps only that server from
 * starting: it is reported like any failed start and the run goes on without it. `setIn` says where
 * a missing variable is set: the workflow step for the action, the user's shell for the CLI.
 */
export function resolveMcpServers(
  servers: RepoConfig['mcp-servers'],
  env: NodeJS.ProcessEnv,
  ownSecrets: readonly string[],
  setIn = "the workflow step's env:",
): McpServerSpec[] {
  const own = ownSecrets.filter((secret) => secret !== '');
  // Inside a longer value too (`Bearer <token>`, a padded copy): the server would hold it all the same.
  const carriesOwn = (value: string) =>
    own.some((secret) => value === secret || (secret.length >= 8 && value.includes(secret)));
  return Object.entries(servers ?? {}).map(([name, entry]): McpServerSpec => {
    if ('url' in entry) return { name, transport: 'http', url: entry.url };
    const values: Record<string, string> = {};
    const unset: string[] = [];
    const credentials: string[] = [];
    for (const variable of entry.env ?? []) {
      const value = env[variable];
      if (value === undefined) unset.push(variable);
      else if (carriesOwn(value)) credentials.push(variable);
      else values[variable] = value;
    }
    // Shorter values are no real secret (redact() skips them too) and masking them would garble the log.
    for (const value of Object.values(values)) if (value.length >= 8) core.setSecret(value);
    const refusal =
      credentials.length > 0
        ? `${credentials.join(', ')} ${credentials.length === 1 ? 'holds' : 'hold'} one of plangate's own credentials (the GitHub token, a model API key or the record secret), which no MCP server may receive`
        : unset.length > 0
          ? `the environment variable${unset.length === 1 ? '' : 's'} ${unset.join(', ')} ${unset.length === 1 ? 'is' : 'are'} not set; set ${unset.length === 1 ? 'it' : 'them'} in ${setIn}`
          : undefined;
    return {
      name,
      transport: 'stdio',
      command: entry.command,
      args: entry.args ?? [],
      env: values,
      ...(refusal ? { refusal } : {}),
    };
  });
}
