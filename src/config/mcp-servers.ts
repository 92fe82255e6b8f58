/**
 * An MCP server as the action starts it: the config file's entry with the named environment
 * variables already looked up. Settings resolves them (it is the only reader of the environment);
 * everything after that works from this shape and never touches `process.env`.
 */
export type McpServerSpec = StdioServerSpec | HttpServerSpec;

export interface StdioServerSpec {
  name: string;
  transport: 'stdio';
  command: string;
  args: string[];
  /** The values of the variables the config names: the only environment the server gets from plangate. */
  env: Record<string, string>;
  /**
   * Why the server must not start although its entry is valid (a named variable is unset, or holds
   * one of plangate's own credentials). Starting it is then reported as a failure with this reason,
   * so the run continues without it instead of failing as a whole.
   */
  refusal?: string;
}

export interface HttpServerSpec {
  name: string;
  transport: 'http';
  url: string;
}

/** The values handed to servers: secrets to scrub from everything a model or GitHub sees. */
export function mcpSecretValues(servers: readonly McpServerSpec[]): string[] {
  return servers
    .flatMap((server) => (server.transport === 'stdio' ? Object.values(server.env) : []))
    .filter((value) => value !== '');
}
