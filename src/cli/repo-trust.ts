import type { CapabilityHub, ServerFailure, StartedServers } from '../mcp/capability-hub.js';
import type { McpServerSpec, StdioServerSpec } from '../config/mcp-servers.js';
import type { Terminal } from './terminal.js';

/**
 * The action reads its config from the default branch, which a maintainer controls; the CLI reads
 * it from whatever checkout it is started in, which may be a stranger's clone. A stdio MCP server
 * in that file is a program the repository chose, and starting it runs it as the user: so it
 * starts only when the user said so, with --trust-repo-config or a "yes" typed on a terminal after
 * seeing each command line. Without either nothing from the file runs, the agents are told each
 * such server is not available, and one line says what was skipped and how to allow it. HTTP
 * servers run nothing here, and commands given on the command line are the user's own: neither
 * is asked about. (The CLI takes no command patterns from the config file: run_command allows
 * only --allowed-commands, or those saved with a plan that such an option made.)
 */

/** The option that trusts the config file; named in the help, the README and every skip notice. */
export const trustRepoConfigFlag = '--trust-repo-config';

export interface RepoTrustRequest {
  /** The config file's servers, as resolved from it; only the ones that would run a program are asked about. */
  servers: readonly McpServerSpec[];
  /** The config file, as the user knows it. */
  configFile: string;
  /** --trust-repo-config was given. */
  trusted: boolean;
  terminal: Terminal;
}

export interface RepoTrust {
  /** The servers to hand to the hub. */
  allowed: McpServerSpec[];
  /** Servers not started because the user did not allow them, as the agents are told. */
  skipped: ServerFailure[];
}

/** What the agents read in list_capabilities: "Not available: it did not start (<reason>)." */
export const untrustedReason = `the user did not allow programs named in the repository's config to run (plangate ${trustRepoConfigFlag})`;

/**
 * Decides which of the config file's servers may start. Asks at most once, and only where a person
 * is at a terminal (never in CI, never from a pipe); anything but y or yes is a no.
 */
export async function decideRepoTrust(request: RepoTrustRequest): Promise<RepoTrust> {
  const { servers, terminal } = request;
  // A server refused already (a variable unset) runs nothing; it is reported as before.
  const programs = servers.filter((s): s is StdioServerSpec => s.transport === 'stdio' && s.refusal === undefined);
  const everything: RepoTrust = { allowed: [...servers], skipped: [] };
  if (programs.length === 0 || request.trusted) return everything;
  if (terminal.interactive) {
    const listing = programs.map((s) => `  MCP server ${s.name}: ${commandLine(s)}${variables(s)}`).join('\n');
    const answer = await terminal.ask(
      `${request.configFile} in this repository would have plangate start ${programs.length === 1 ? 'this program' : 'these programs'} on your machine, as you:\n${listing}\nStart ${programs.length === 1 ? 'it' : 'them'}? [y/N] `,
    );
    // The question is still open on its line when stdin ended; what follows gets a line of its own.
    if (answer === undefined) terminal.err('');
    if (answer !== undefined && /^(y|yes)$/i.test(answer.trim())) return everything;
  }
  const names = programs.map((s) => s.name);
  const which = names.length === 1 ? `the MCP server ${names[0] ?? ''}` : `the MCP servers ${names.join(', ')}`;
  terminal.err(
    `Not starting ${which} that ${request.configFile} defines: programs the repository names run only with ${trustRepoConfigFlag} or a yes on a terminal.`,
  );
  const skippedNames = new Set(names);
  return {
    allowed: servers.filter((s) => !skippedNames.has(s.name)),
    skipped: names.map((server) => ({ server, reason: untrustedReason })),
  };
}

/**
 * The hub the agents use: the allowed servers' hub, with the skipped servers listed among its
 * failures, so list_capabilities names them as not available instead of leaving them unexplained.
 */
export function withSkippedServers(hub: CapabilityHub, skipped: readonly ServerFailure[]): CapabilityHub {
  if (skipped.length === 0) return hub;
  let started: Promise<StartedServers> | undefined;
  return {
    start() {
      started ??= hub.start().then((s) => ({
        configured: s.configured + skipped.length,
        connected: s.connected,
        failures: [...s.failures, ...skipped].sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0)),
      }));
      return started;
    },
    close: () => hub.close(),
  };
}

/**
 * The command line as it would run (no shell), each word readable for what it is: a word with
 * anything but plain characters is quoted, and a character that could hide or fake text on a
 * terminal (a newline, an escape, a bidirectional override) is shown as its escape.
 */
export function commandLine(server: Pick<StdioServerSpec, 'command' | 'args'>): string {
  return [server.command, ...server.args].map(word).join(' ');
}

function word(text: string): string {
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The variables the server would be handed from the user's environment (names only: values are secrets). */
function variables(server: StdioServerSpec): string {
  const names = Object.keys(server.env);
  return names.length === 0 ? '' : ` (given ${names.join(', ')} from your environment)`;
}
