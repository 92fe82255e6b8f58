import * as core from '@actions/core';
import { redact } from '../redact.js';
import { connectServer, type ConnectOptions, type ServerConnection } from './connect.js';
import type { McpServerSpec } from './server-spec.js';

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

export interface HubOptions extends Partial<ConnectOptions> {
  /** Where stdio servers run: the repository checkout. */
  workspace: string;
  /** Values scrubbed from failure reasons: a server's stderr may echo what it was given. */
  secrets: readonly string[];
  /** How a server is connected; tests may pass a stand-in. */
  connect?: typeof connectServer;
}

/** Long enough for `npx` to fetch a server package; a server that takes longer is reported, not awaited. */
const defaultStartTimeoutMs = 60_000;
/** As long as one model request may take: a tool call is one step of an agent's turn. */
const defaultCallTimeoutMs = 120_000;
/** A failure reason is one line in a comment, never a whole log. */
const maxReasonChars = 400;

export function createCapabilityHub(specs: readonly McpServerSpec[], options: HubOptions): CapabilityHub {
  const connect = options.connect ?? connectServer;
  const connectOptions: ConnectOptions = {
    workspace: options.workspace,
    startTimeoutMs: options.startTimeoutMs ?? defaultStartTimeoutMs,
    callTimeoutMs: options.callTimeoutMs ?? defaultCallTimeoutMs,
  };
  let started: Promise<StartedServers> | undefined;
  let closing: Promise<void> | undefined;
  let closed = false;

  async function startAll(): Promise<StartedServers> {
    const sorted = [...specs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // In parallel: one slow server must not hold the others' start back by its whole timeout.
    const attempts = await Promise.allSettled(sorted.map((spec) => connect(spec, connectOptions)));
    const connected: ServerConnection[] = [];
    const failures: ServerFailure[] = [];
    for (const [i, attempt] of attempts.entries()) {
      const name = (sorted[i] as McpServerSpec).name;
      if (attempt.status === 'fulfilled') {
        connected.push(attempt.value);
        core.info(`MCP server ${name}: started with ${attempt.value.tools.length} tools.`);
      } else {
        const reason = oneLine(redact(messageOf(attempt.reason), options.secrets));
        failures.push({ server: name, reason });
        core.warning(`MCP server ${name} did not start, so this run continues without it: ${reason}`);
      }
    }
    // Closed before the start finished (or before it began): whatever came up is stopped at once.
    if (closed && closing === undefined) await closeAll(connected);
    return { configured: specs.length, connected, failures };
  }

  return {
    start() {
      started ??= startAll();
      return started;
    },
    close() {
      closed = true;
      const pending = started;
      if (pending === undefined) return Promise.resolve();
      closing ??= pending.then(({ connected }) => closeAll(connected));
      return closing;
    },
  };
}

/** A hub with no servers, for runs and tests that configure none. */
export const noCapabilities: CapabilityHub = {
  start: () => Promise.resolve({ configured: 0, connected: [], failures: [] }),
  close: () => Promise.resolve(),
};

async function closeAll(connections: readonly ServerConnection[]): Promise<void> {
  await Promise.all(
    connections.map((c) =>
      c.close().catch((error: unknown) => core.warning(`MCP server ${c.name} did not close cleanly: ${messageOf(error)}`)),
    ),
  );
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= maxReasonChars ? flat : `${flat.slice(0, maxReasonChars - 1)}…`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
