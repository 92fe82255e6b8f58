import * as core from '@actions/core';
import { redact } from '../text/redact.js';
import { connectServer, type ConnectOptions, type ServerConnection } from './connect.js';
import type { CapabilityHub, ServerFailure, StartedServers } from './capability-hub.js';
import type { McpServerSpec } from '../config/mcp-servers.js';
import { errorMessage } from '../text/error-message.js';

export { noCapabilities } from './capability-hub.js';
export type { CapabilityHub, ServerFailure, StartedServers } from './capability-hub.js';

export interface HubOptions extends Partial<Omit<ConnectOptions, 'sandbox'>> {
  /** Where and as whom stdio servers run (see connect.ts). */
  sandbox: ConnectOptions['sandbox'];
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
    sandbox: options.sandbox,
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
        const reason = oneLine(redact(errorMessage(attempt.reason), options.secrets));
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

async function closeAll(connections: readonly ServerConnection[]): Promise<void> {
  await Promise.all(
    connections.map((c) =>
      c
        .close()
        .catch((error: unknown) => core.warning(`MCP server ${c.name} did not close cleanly: ${errorMessage(error)}`)),
    ),
  );
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= maxReasonChars ? flat : `${flat.slice(0, maxReasonChars - 1)}…`;
}
