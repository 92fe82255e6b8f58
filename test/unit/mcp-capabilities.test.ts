import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectServer } from '../../src/mcp/connect.js';
import { createCapabilityHub, noCapabilities, type CapabilityHub } from '../../src/mcp/hub.js';
import type { McpServerSpec } from '../../src/config/mcp-servers.js';
import { createCapabilityTools } from '../../src/mcp/capability-tools.js';
import { createToolbox, type Toolbox } from '../../src/tools/toolbox.js';
import { DEFAULT_OUTPUT_LIMIT } from '../../src/tools/truncate.js';
import type { Role } from '../../src/machine/fields.js';
import { makeTempDir, removeDir } from './tools-git-fixture.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';

/**
 * The capability tools against the real test server over stdio: what each role may list and call,
 * what the server process receives, and how servers that do not start are reported.
 */

vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

const serverScript = fileURLToPath(new URL('../fakes/mcp-server.mjs', import.meta.url));
const probe = 'probe-value-0123456789';
/** The variables StdioClientTransport adds on its own; everything else must be what the config names. */
const sdkDefaults = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

const fakeServer = (name: string, extra: Partial<McpServerSpec> = {}): McpServerSpec =>
  ({
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [serverScript],
    env: { PLANGATE_MCP_PROBE: probe },
    ...extra,
  }) as McpServerSpec;

function toolboxFor(role: Role, hub: CapabilityHub): Toolbox {
  return createToolbox(createCapabilityTools(role, hub));
}

const call = (box: Toolbox, name: string, args: unknown) => box.call(name, JSON.stringify(args));

describe('capability tools over a real stdio server', () => {
  let workspace: string;
  let hub: CapabilityHub;
  const savedToken = process.env.GITHUB_TOKEN;

  beforeAll(() => {
    workspace = makeTempDir('plangate-mcp-');
    // Present in the action's environment, as it is when a workflow sets it: it must not reach the server.
    process.env.GITHUB_TOKEN = 'ghs_unitTestTokenThatMustNotLeak0123456789';
    hub = createCapabilityHub([fakeServer('fake')], {
      sandbox: createSandbox({ isolation: 'none', workTree: workspace }),
      secrets: [],
    });
  });

  afterAll(async () => {
    await hub.close();
    if (savedToken === undefined) delete process.env.GITHUB_TOKEN;
    else process.env.GITHUB_TOKEN = savedToken;
    removeDir(workspace);
  });

  it('starts the server once and lists every tool for the executor', async () => {
    const executor = toolboxFor('executor', hub);
    const listed = await call(executor, 'list_capabilities', {});
    expect(listed.ok).toBe(true);
    expect(listed.output).toContain('## fake');
    for (const tool of ['fail', 'lookup', 'record', 'repeat']) expect(listed.output).toContain(`- ${tool}`);
    expect(listed.output).toMatch(/- lookup \(read-only\): Looks a key up/);
    expect(listed.output).toContain('"key"');
    // Both roles share the one start: the same connections come back.
    expect((await hub.start()).connected).toBe((await hub.start()).connected);
  });

  it('passes only the named variables, runs in the workspace and hides GITHUB_TOKEN', async () => {
    const outcome = await call(toolboxFor('executor', hub), 'use_capability', {
      server: 'fake',
      tool: 'lookup',
      arguments: { key: 'k1' },
    });
    expect(outcome.ok).toBe(true);
    expect(outcome.output).toContain(`lookup k1: probe=${probe}`);
    expect(outcome.output).toContain('github-token-visible=no');
    expect(outcome.output).toContain(`cwd=${workspace}`);
    const names = /env-names=(.*)/.exec(outcome.output)?.[1]?.split(',') ?? [];
    expect(names).toContain('PLANGATE_MCP_PROBE');
    expect(names.filter((n) => n !== 'PLANGATE_MCP_PROBE' && !sdkDefaults.includes(n))).toEqual([]);
  });

  it('lets the executor call the writing tool', async () => {
    const outcome = await call(toolboxFor('executor', hub), 'use_capability', {
      server: 'fake',
      tool: 'record',
      arguments: { note: 'by the executor' },
    });
    expect(outcome).toEqual({ ok: true, output: 'recorded: by the executor' });
    expect(readFileSync(path.join(workspace, 'mcp-records.txt'), 'utf8')).toBe('by the executor\n');
  });

  it('shows the planner only read-only tools and refuses the writing one', async () => {
    const planner = toolboxFor('planner', hub);
    const listed = await call(planner, 'list_capabilities', {});
    expect(listed.output).toContain('- lookup');
    expect(listed.output).not.toContain('- record');
    expect(listed.output).toContain('1 more tool is not read-only; only the executor may call it.');

    const before = readFileSync(path.join(workspace, 'mcp-records.txt'), 'utf8');
    const refused = await call(planner, 'use_capability', {
      server: 'fake',
      tool: 'record',
      arguments: { note: 'by the planner' },
    });
    expect(refused.ok).toBe(false);
    expect(refused.output).toContain('fake/record is not read-only; only the executor may call it');
    expect(readFileSync(path.join(workspace, 'mcp-records.txt'), 'utf8')).toBe(before);

    const allowed = await call(planner, 'use_capability', { server: 'fake', tool: 'lookup', arguments: { key: 'k2' } });
    expect(allowed.ok).toBe(true);
    expect(allowed.output).toContain(`lookup k2: probe=${probe}`);
  });

  it('returns a tool error result as a failure the model reads', async () => {
    const outcome = await call(toolboxFor('executor', hub), 'use_capability', { server: 'fake', tool: 'fail' });
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toContain('fake/fail reported an error: the fake failure happened');
  });

  it('truncates long output like every tool result', async () => {
    const outcome = await call(toolboxFor('planner', hub), 'use_capability', {
      server: 'fake',
      tool: 'repeat',
      arguments: { text: 'x'.repeat(40), times: 2_000 },
    });
    expect(outcome.ok).toBe(true);
    expect(outcome.output.length).toBeLessThanOrEqual(DEFAULT_OUTPUT_LIMIT);
    expect(outcome.output).toMatch(/characters omitted/);
    expect(outcome.output.startsWith('1: ')).toBe(true);
    expect(outcome.output.trimEnd().endsWith(`2000: ${'x'.repeat(40)}`)).toBe(true);
  });

  it('names unknown servers, unknown tools and bad arguments clearly', async () => {
    const executor = toolboxFor('executor', hub);
    const noServer = await call(executor, 'use_capability', { server: 'other', tool: 'lookup' });
    expect(noServer).toMatchObject({ ok: false });
    expect(noServer.output).toContain('No MCP server is named "other". Available servers: fake.');
    const noTool = await call(executor, 'use_capability', { server: 'fake', tool: 'nope' });
    expect(noTool.output).toContain('MCP server "fake" has no tool "nope"');
    const badArgs = await call(executor, 'use_capability', { server: 'fake', tool: 'lookup', arguments: { key: 5 } });
    expect(badArgs.ok).toBe(false);
    expect(badArgs.output).toMatch(/fake\/lookup (failed|reported an error)/);
  });

  it('stops the server process on close', async () => {
    const local = createCapabilityHub([fakeServer('short')], {
      sandbox: createSandbox({ isolation: 'none', workTree: workspace }),
      secrets: [],
    });
    const box = toolboxFor('executor', local);
    const before = await call(box, 'use_capability', { server: 'short', tool: 'lookup', arguments: { key: 'k' } });
    expect(before.ok).toBe(true);
    await local.close();
    const after = await call(box, 'use_capability', { server: 'short', tool: 'lookup', arguments: { key: 'k' } });
    expect(after.ok).toBe(false);
    expect(after.output).toContain('short/lookup failed');
  });
});

describe('servers that do not start', () => {
  let workspace: string;
  const hubs: CapabilityHub[] = [];

  beforeAll(() => {
    workspace = makeTempDir('plangate-mcp-');
  });
  afterEach(async () => {
    for (const hub of hubs.splice(0)) await hub.close();
  });
  afterAll(() => removeDir(workspace));

  const start = (specs: McpServerSpec[], secrets: string[] = [], startTimeoutMs?: number) => {
    const hub = createCapabilityHub(specs, {
      sandbox: createSandbox({ isolation: 'none', workTree: workspace }),
      secrets,
      ...(startTimeoutMs ? { startTimeoutMs } : {}),
    });
    hubs.push(hub);
    return hub;
  };

  it('records each failure with its reason and keeps the servers that did start', async () => {
    const hub = start([
      fakeServer('good'),
      { name: 'missing', transport: 'stdio', command: 'plangate-no-such-command-xyz', args: [], env: {} },
      fakeServer('exits', { args: [serverScript, '--exit-at-start'] } as Partial<McpServerSpec>),
      {
        name: 'unset',
        transport: 'stdio',
        command: process.execPath,
        args: [serverScript],
        env: {},
        refusal: 'the environment variable TOKEN_X is not set',
      },
    ]);
    const started = await hub.start();
    expect(started.configured).toBe(4);
    expect(started.connected.map((c) => c.name)).toEqual(['good']);
    expect(started.failures.map((f) => f.server)).toEqual(['exits', 'missing', 'unset']);
    const reason = (name: string) => started.failures.find((f) => f.server === name)?.reason ?? '';
    expect(reason('missing')).toContain('the command "plangate-no-such-command-xyz" was not found');
    expect(reason('exits')).toContain('fake server: refusing to start (--exit-at-start)');
    expect(reason('unset')).toBe('the environment variable TOKEN_X is not set');

    const executor = toolboxFor('executor', hub);
    const listed = await call(executor, 'list_capabilities', {});
    expect(listed.output).toContain('## good');
    expect(listed.output).toContain(
      '## missing\nNot available: it did not start (the command "plangate-no-such-command-xyz" was not found).',
    );
    const refused = await call(executor, 'use_capability', { server: 'missing', tool: 'lookup' });
    expect(refused.ok).toBe(false);
    expect(refused.output).toContain('MCP server "missing" is not available: it did not start');
    const works = await call(executor, 'use_capability', {
      server: 'good',
      tool: 'lookup',
      arguments: { key: 'still' },
    });
    expect(works.ok).toBe(true);
  });

  it('gives up on a server that never answers the handshake', async () => {
    // A process that reads nothing and says nothing: the handshake can only time out.
    const silent: McpServerSpec = {
      name: 'silent',
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', 'setInterval(() => {}, 1000)'],
      env: {},
    };
    const started = await start([silent], [], 300).start();
    expect(started.connected).toEqual([]);
    expect(started.failures[0]?.reason).toMatch(/timed out/i);
  });

  it('scrubs secrets a failing server echoes from the reason', async () => {
    const secret = 'super-secret-value-0123456789';
    const echo: McpServerSpec = {
      name: 'echo',
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', 'process.stderr.write("leaking " + process.env.SECRET_X + "\\n"); process.exit(1)'],
      env: { SECRET_X: secret },
    };
    const started = await start([echo], [secret]).start();
    expect(started.failures[0]?.reason).toContain('leaking ***');
    expect(started.failures[0]?.reason).not.toContain(secret);
  });

  it('reports an unreachable HTTP server as not started', async () => {
    // Port 9 on 127.0.0.1 (discard) has no MCP server: the connection is refused at once.
    const started = await start(
      [{ name: 'remote', transport: 'http', url: 'http://127.0.0.1:9/mcp' }],
      [],
      5_000,
    ).start();
    expect(started.connected).toEqual([]);
    expect(started.failures).toHaveLength(1);
    expect(started.failures[0]?.server).toBe('remote');
  });
});

describe('no servers configured', () => {
  it('keeps both tools and says there is nothing to use', async () => {
    for (const role of ['planner', 'executor'] as const) {
      const box = toolboxFor(role, noCapabilities);
      expect(box.specs.map((s) => s.function.name)).toEqual(['list_capabilities', 'use_capability']);
      const listed = await call(box, 'list_capabilities', {});
      expect(listed).toEqual({
        ok: true,
        output: 'No MCP servers are configured for this repository, so there are no capabilities to use.',
      });
      const used = await call(box, 'use_capability', { server: 'any', tool: 'x' });
      expect(used.ok).toBe(false);
      expect(used.output).toContain('No MCP servers are configured for this repository');
    }
  });

  it('builds the same tool specs whatever servers are configured, and starts nothing to build them', async () => {
    const workspace = makeTempDir('plangate-mcp-');
    let connects = 0;
    const hub = createCapabilityHub([fakeServer('fake')], {
      sandbox: createSandbox({ isolation: 'none', workTree: workspace }),
      secrets: [],
      connect: (spec, options) => {
        connects += 1;
        return connectServer(spec, options);
      },
    });
    try {
      for (const role of ['planner', 'executor'] as const) {
        expect(JSON.stringify(toolboxFor(role, hub).specs)).toBe(
          JSON.stringify(toolboxFor(role, noCapabilities).specs),
        );
      }
      expect(connects).toBe(0);
      await call(toolboxFor('planner', hub), 'list_capabilities', {});
      await call(toolboxFor('executor', hub), 'list_capabilities', {});
      expect(connects).toBe(1);
    } finally {
      await hub.close();
      removeDir(workspace);
    }
  });
});
