import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServerConnection } from '../../src/mcp/connect.js';
import { createCapabilityHub } from '../../src/mcp/hub.js';
import type { McpServerSpec } from '../../src/config/mcp-servers.js';
import { resolveMcpServers } from '../../src/config/settings.js';
import { createCapabilityTools } from '../../src/mcp/capability-tools.js';
import { createToolbox } from '../../src/tools/toolbox.js';
import { makeTempDir, removeDir } from './tools-git-fixture.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';

/** Security edges of the MCP wiring: what a server may receive, what its failure may reveal, what the planner may call. */

vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

describe("resolveMcpServers and plangate's own credentials", () => {
  const token = 'ghs_ownTokenValue0123456789abcdef';
  const own = [token, 'sk-own-model-key-0123456789'];

  it('refuses a variable whose value carries a credential inside a longer value', () => {
    const env = { AUTH_HEADER: `Bearer ${token}`, PADDED: ` ${token}\n` };
    const servers = resolveMcpServers(
      { a: { command: 'node', env: ['AUTH_HEADER'] }, b: { command: 'node', env: ['PADDED'] } },
      env,
      own,
    );
    for (const server of servers) {
      expect(server.transport === 'stdio' ? server.env : {}).toEqual({});
      expect(server.transport === 'stdio' ? server.refusal : '').toContain("one of plangate's own credentials");
    }
  });

  it('still hands over values that merely share a short piece with nothing', () => {
    const [server] = resolveMcpServers(
      { a: { command: 'node', env: ['DOCS_KEY'] } },
      { DOCS_KEY: 'docs-key-value-0123' },
      [...own, '', 'abc'],
    );
    expect(server).toMatchObject({ env: { DOCS_KEY: 'docs-key-value-0123' } });
    expect(server).not.toHaveProperty('refusal');
  });
});

describe('a failed start never shows part of a secret', () => {
  let workspace: string;
  beforeAll(() => {
    workspace = makeTempDir('plangate-mcp-sec-');
  });
  afterAll(() => removeDir(workspace));

  it('drops the word the stderr tail cut into, so a cut secret is not left half readable', async () => {
    const secret = 'SECRETabcdefghijklmnopqrstuvwxyz0123456789';
    // The secret, then enough to push its start out of the kept tail: the tail begins inside it.
    const script = `process.stderr.write(process.env.SECRET_X + ${JSON.stringify('.'.repeat(560))} + " the end\\n"); process.exit(1)`;
    const spec: McpServerSpec = {
      name: 'cut',
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', script],
      env: { SECRET_X: secret },
    };
    const hub = createCapabilityHub([spec], {
      sandbox: createSandbox({ isolation: 'none', workTree: workspace }),
      secrets: [secret],
    });
    try {
      const started = await hub.start();
      const reason = started.failures[0]?.reason ?? '';
      expect(reason).toContain('the end');
      expect(reason).not.toContain(secret.slice(-10));
    } finally {
      await hub.close();
    }
  });
});

describe("the planner's read-only proxy", () => {
  /** A server that lists one name twice: once read-only, once not. Whatever it runs, the planner must not call it. */
  function twoFaced(order: 'read-only first' | 'writing first') {
    const calls: string[] = [];
    const listings = [
      { name: 'sync', description: 'reads', inputSchema: { type: 'object' }, readOnly: true },
      { name: 'sync', description: 'writes', inputSchema: { type: 'object' }, readOnly: false },
    ];
    const connection: ServerConnection = {
      name: 'dup',
      tools: order === 'read-only first' ? listings : [...listings].reverse(),
      call: (tool) => {
        calls.push(tool);
        return Promise.resolve({ content: [{ type: 'text', text: 'done' }] });
      },
      refused: () => Promise.resolve([]),
      close: () => Promise.resolve(),
    };
    const hub = createCapabilityHub([{ name: 'dup', transport: 'http', url: 'http://127.0.0.1:9/mcp' }], {
      sandbox: createSandbox({ isolation: 'none', workTree: '/nonexistent' }),
      secrets: [],
      connect: () => Promise.resolve(connection),
    });
    return { calls, box: createToolbox(createCapabilityTools('planner', hub)) };
  }

  for (const order of ['read-only first', 'writing first'] as const) {
    it(`refuses a tool name the server also lists as not read-only (${order})`, async () => {
      const { calls, box } = twoFaced(order);
      const used = await box.call('use_capability', JSON.stringify({ server: 'dup', tool: 'sync' }));
      expect(used.ok).toBe(false);
      expect(used.output).toContain('dup/sync is not read-only');
      expect(calls).toEqual([]);
      const listed = await box.call('list_capabilities', '{}');
      expect(listed.output).not.toContain('- sync');
    });
  }
});
