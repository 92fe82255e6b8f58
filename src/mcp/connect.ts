import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerSpec } from '../config/mcp-servers.js';
import { saysProgramMissing, type RefusedDestination, type Sandbox } from '../sandbox/sandbox.js';
import { errorMessage } from '../text/error-message.js';
import { settlesWithin } from '../text/settles-within.js';

/**
 * One MCP server, connected: its tools as listed once at start, and a way to call them. The list is
 * taken once so both roles of a run see the same capabilities for the whole run.
 */
export interface ServerConnection {
  readonly name: string;
  readonly tools: readonly CapabilityTool[];
  /**
   * Throws when the server cannot be reached or does not answer in time. `lend`: the caller may
   * change files (the executor), so a stdio server gets the work tree for the call's duration.
   */
  call(tool: string, args: Record<string, unknown>, lend?: boolean): Promise<ToolCallResult>;
  /** What the sealed network refused the server since the last ask (a stdio server runs in the sandbox). */
  refused(): Promise<readonly RefusedDestination[]>;
  /**
   * Ends the session; a stdio server's process is stopped (stdin closed, then SIGTERM, then SIGKILL)
   * and waited for, within a bound, so no server outlives the run.
   */
  close(): Promise<void>;
}

/** A server's tool as plangate offers it; `readOnly` only when the server says so (readOnlyHint). */
export interface CapabilityTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
}

/** What a tool call returned, in the SDK's shapes: content blocks, or a legacy `toolResult`. */
export type ToolCallResult = Awaited<ReturnType<Client['callTool']>>;

export interface ConnectOptions {
  /**
   * Where and as whom stdio servers run: in the work tree, as the sandbox account (so a server the
   * executor steers cannot read the action's secrets either). An executor's call lends the work
   * tree to the account, as a command does, so a server may change files.
   */
  sandbox: Sandbox;
  /** How long the handshake and the tool listing may take together. */
  startTimeoutMs: number;
  /** How long one tool call may take. */
  callTimeoutMs: number;
}

/** A server with more pages of tools than this is cut off: the listing must end. */
const maxToolPages = 20;
/** How much of a stdio server's stderr is kept to explain a failed start. */
const stderrTailChars = 600;

/**
 * Starts (stdio) or reaches (streamable HTTP) one server and lists its tools. Throws an Error whose
 * message says why in words a maintainer can act on; whatever was started is closed first.
 */
export async function connectServer(spec: McpServerSpec, options: ConnectOptions): Promise<ServerConnection> {
  if (spec.transport === 'stdio' && spec.refusal !== undefined) throw new Error(spec.refusal);
  const stderr = new Tail(stderrTailChars);
  const { sandbox } = options;
  if (spec.transport === 'stdio') await sandbox.ready();
  const transport = createTransport(spec, sandbox, stderr);
  const client = new Client({ name: 'plangate', version: '1' }, { capabilities: {} });
  let tools: CapabilityTool[];
  // One budget for the whole start: each request gets what the earlier ones left.
  const deadline = Date.now() + options.startTimeoutMs;
  const remaining = () => Math.max(1, deadline - Date.now());
  let release = () => undefined as unknown;
  try {
    await client.connect(transport, { timeout: remaining() });
    // The server lives as long as the run: sweeps after each command must spare it.
    const pid = transport instanceof StdioClientTransport ? transport.pid : null;
    if (pid !== null) release = sandbox.keep(pid);
    tools = await listTools(client, remaining);
  } catch (error) {
    release();
    await client.close().catch(() => undefined);
    throw new Error(startFailure(spec, error, stderr.text()), { cause: error });
  }
  const call = (tool: string, args: Record<string, unknown>) =>
    client.callTool({ name: tool, arguments: args }, undefined, { timeout: options.callTimeoutMs });
  return {
    name: spec.name,
    tools,
    call: (tool, args, lend) =>
      spec.transport === 'stdio' && lend ? sandbox.lend(() => call(tool, args)) : call(tool, args),
    refused: () => (spec.transport === 'stdio' ? sandbox.refusedSince() : Promise.resolve([])),
    close: async () => {
      await client.close();
      release();
    },
  };
}

function createTransport(spec: McpServerSpec, sandbox: Sandbox, stderr: Tail): Transport {
  if (spec.transport === 'http') return new StreamableHTTPClientTransport(new URL(spec.url));
  // Explicit, so the server gets the named variables and not the action's environment (tokens,
  // INPUT_* values, API keys). The SDK adds only HOME, LOGNAME, PATH, SHELL, TERM and USER, which
  // the sandbox's own values replace when it runs the server as its account. The sandbox's plan
  // keeps only PATH's absolute entries, and finds the program on them, never in the work tree.
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    ...(sandbox.account !== undefined && process.env.TERM ? { TERM: process.env.TERM } : {}),
  };
  // It lives as long as the run, kept across sweeps (see connectServer), so not in a command's namespace.
  const plan = sandbox.plan(
    [spec.command, ...spec.args],
    { ...base, ...spec.env },
    {
      secretNames: Object.keys(spec.env),
      lifetime: 'run',
    },
  );
  const transport = new ServerProcessTransport({
    command: plan.file,
    args: plan.args,
    env: plan.env as Record<string, string>,
    cwd: sandbox.workTree,
    // Piped, not inherited: the server's chatter stays out of the job log, and its last words explain a failed start.
    stderr: 'pipe',
  });
  // Read as it comes, so a chatty server never blocks on a full pipe.
  transport.stderr?.on('data', (chunk: Buffer | string) => stderr.push(chunk.toString()));
  return transport;
}

/** How long a closed connection waits for its server process to exit before it kills the process. */
const exitWaitMs = 5_000;
/** How long it then waits for the killed process to be gone; after that it gives up, bounded. */
const killWaitMs = 1_000;

/**
 * The SDK's stdio transport, made to return from close only once its server process has exited.
 * The SDK's close forgets the process as it begins: when a failed handshake makes the SDK close in
 * the background, the close plangate calls next returns at once while the process still runs, and
 * the SDK's escalation (stdin closed, SIGTERM, SIGKILL) runs on timers that do not keep Node alive,
 * so a server that ignores a closed stdin outlived the action. Its last step, SIGKILL, is not waited
 * for either.
 */
class ServerProcessTransport extends StdioClientTransport {
  /** Settles when the process has exited and its pipes closed; undefined until it spawned. */
  private exited: Promise<void> | undefined;
  private serverPid: number | null = null;

  override async start(): Promise<void> {
    let markExited = () => undefined as unknown;
    const exited = new Promise<void>((resolve) => (markExited = resolve));
    // The client sets its callback before it starts the transport; the SDK calls it when the process closes.
    const onclose = this.onclose;
    this.onclose = () => {
      markExited();
      onclose?.();
    };
    await super.start();
    this.exited = exited;
    this.serverPid = this.pid;
  }

  override async close(): Promise<void> {
    await super.close();
    const { exited, serverPid } = this;
    if (exited === undefined || (await settlesWithin(exited, exitWaitMs))) return;
    // Still running, or exited with a descendant holding its pipes open: the pid is (still) the server's.
    try {
      if (serverPid !== null) process.kill(serverPid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await settlesWithin(exited, killWaitMs);
  }
}

async function listTools(client: Client, timeout: () => number): Promise<CapabilityTool[]> {
  const tools: CapabilityTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxToolPages; page++) {
    const listed = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeout() });
    for (const tool of listed.tools) {
      tools.push({
        name: tool.name,
        description: (tool.description ?? tool.title ?? '').trim(),
        inputSchema: tool.inputSchema,
        // Only an explicit true counts: a missing hint means the tool may change things.
        readOnly: tool.annotations?.readOnlyHint === true,
      });
    }
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

function startFailure(spec: McpServerSpec, error: unknown, stderr: string): string {
  const code = (error as { code?: unknown } | null)?.code;
  let why: string;
  // Started as the sandbox account, a missing program is reported by the wrapper (env, setpriv) instead.
  if (spec.transport === 'stdio' && (code === 'ENOENT' || saysProgramMissing(stderr)))
    return `the command ${JSON.stringify(spec.command)} was not found`;
  else if (spec.transport === 'stdio' && code === 'EACCES')
    why = `the command ${JSON.stringify(spec.command)} is not executable`;
  else why = errorMessage(error);
  const said = stderr.replace(/\s+/g, ' ').trim();
  return said === '' ? why : `${why} (stderr: ${said})`;
}

/** The last `limit` characters written to a stream. */
class Tail {
  private kept = '';
  private cut = false;
  constructor(private readonly limit: number) {}
  push(text: string): void {
    const all = this.kept + text;
    if (all.length > this.limit) this.cut = true;
    this.kept = all.slice(-this.limit);
  }
  /** Without the word a cut began in: the rest of a secret cut in two would match no redaction. */
  text(): string {
    return this.cut ? this.kept.replace(/^\S*/, '') : this.kept;
  }
}
