import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpServerSpec } from '../../src/config/mcp-servers.js';
import { connectServer, type ConnectOptions } from '../../src/mcp/connect.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';
import { makeTempDir, removeDir } from './tools-git-fixture.js';

/**
 * A closed MCP connection leaves no server process behind: close returns only once the process has
 * exited, also when the SDK already began closing it in the background (a failed handshake) and
 * when the server ignores a closed stdin and SIGTERM. Checked by pid, right after close returns.
 */

const stubborn = fileURLToPath(new URL('../fakes/mcp-stubborn-server.mjs', import.meta.url));

let workspace: string;
/** Pids of servers these tests started, killed in afterEach should a test fail with one still running. */
const started: number[] = [];

beforeEach(() => {
  workspace = makeTempDir('plangate-mcp-close-');
});

afterEach(() => {
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  removeDir(workspace);
});

/** Whether a process with this pid exists (a zombie not yet reaped counts: it is not gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** The pid the stubborn server wrote as it started. */
function serverPid(): number {
  const pid = Number(readFileSync(path.join(workspace, 'server.pid'), 'utf8'));
  expect(pid).toBeGreaterThan(0);
  started.push(pid);
  return pid;
}

const spec = (...flags: string[]): McpServerSpec => ({
  name: 'stubborn',
  transport: 'stdio',
  command: process.execPath,
  args: [stubborn, ...flags],
  env: {},
});
const options = (): ConnectOptions => ({
  sandbox: createSandbox({ isolation: 'none', workTree: workspace }),
  startTimeoutMs: 30_000,
  callTimeoutMs: 30_000,
});

describe('closing an MCP connection', () => {
  it('waits for the server process when the handshake fails and the SDK closes in the background', async () => {
    // The SDK answers a failed handshake with a close it does not await; the connection's own
    // close then found no process to wait for, and this server, ignoring its closed stdin, lived on.
    await expect(connectServer(spec('--unsupported-version'), options())).rejects.toThrow(/protocol version/i);
    expect(alive(serverPid()), 'the server process outlived the failed start').toBe(false);
  });

  it('waits for a server that ignores its closed stdin and SIGTERM until SIGKILL ends it', async () => {
    const connection = await connectServer(spec('--ignore-sigterm'), options());
    expect(connection.tools).toEqual([]);
    const pid = serverPid();
    expect(alive(pid)).toBe(true);
    await connection.close();
    expect(alive(pid), 'the server process was still there when close returned').toBe(false);
  });
});
