import type { ServerConnection } from './connect.js';

// The hub's shape and the empty hub, apart from hub.ts so that a run with no servers configured
// (most runs) never loads the MCP SDK behind connect.ts: the agents import only this module.

/**
 * The MCP servers of one action run. They start once, on first use, and both roles share them; a
 * server that fails to start is recorded with its reason and the run goes on without it. The
 * composition root closes the hub at the end of the run, which stops every server process.
 */
export interface CapabilityHub {
  /** Starts every configured server on the first call; every later call gets the same answer. */
  start(): Promise<StartedServers>;
  /** Closes every started server; safe to call more than once, and before or without `start`. */
  close(): Promise<void>;
}

export interface StartedServers {
  /** How many servers the configuration names, started or not. */
  configured: number;
  /** Sorted by name. */
  connected: readonly ServerConnection[];
  /** Sorted by name; reasons are already scrubbed of secrets. */
  failures: readonly ServerFailure[];
}

/** Why a configured server is not available, as the plan comment and the tools report it. */
export interface ServerFailure {
  server: string;
  reason: string;
}

/** A hub with no servers, for runs and tests that configure none. */
export const noCapabilities: CapabilityHub = {
  start: () => Promise.resolve({ configured: 0, connected: [], failures: [] }),
  close: () => Promise.resolve(),
};
