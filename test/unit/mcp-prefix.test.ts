import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { drive } from '../../src/agents/drive.js';
import { RunState } from '../../src/agents/run-state.js';
import { createTeam } from '../../src/agents/team.js';
import type { Plan } from '../../src/machine/fields.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../../src/machine/planner-executor.js';
import { createCapabilityHub, type CapabilityHub } from '../../src/mcp/hub.js';
import { createChatClient } from '../../src/models/chat-client.js';
import { prefixOf } from '../fakes/prefix-efficiency.js';
import { startScriptedModel, toolCall, type Reply } from '../fakes/scripted-model.js';
import { toolResults } from '../fakes/mcp-notes-script.js';
import { makeRepo, removeDir } from './tools-git-fixture.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';

/**
 * The proxy tools keep the cache contract: the system prompt and tool list each role sends are the
 * same bytes whether or not the repository configures MCP servers, and a configured server is
 * reachable through them on the wire: the planner only for read-only tools.
 */

vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

const serverScript = fileURLToPath(new URL('../fakes/mcp-server.mjs', import.meta.url));
const PLANNER = 'planner-model';
const EXECUTOR = 'executor-model';
const KEY = 'sk-scripted';
const probe = 'prefix-probe-value-42';
const plan: Plan = { steps: [{ title: 'Record the release note' }] };
const stage = (fields: Record<string, unknown>): Reply => toolCall('update_context', fields);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
});

async function scriptedRun(capabilities: CapabilityHub | undefined, workspace: string) {
  const model = await startScriptedModel({
    script: {
      [PLANNER]: [
        toolCall('use_capability', { server: 'notes', tool: 'lookup', arguments: { key: 'release' } }),
        toolCall('use_capability', { server: 'notes', tool: 'record', arguments: { note: 'from the planner' } }),
        stage({ plan, directive: 'Record "from the executor" with the notes server.' }),
        stage({ summary: 'Recorded the note.' }),
      ],
      [EXECUTOR]: [
        toolCall('use_capability', { server: 'notes', tool: 'record', arguments: { note: 'from the executor' } }),
        stage({ result: 'Recorded it.', outcome: 'done' }),
      ],
    },
    apiKey: KEY,
  });
  cleanup.push(() => model.close());
  const endpoint = (name: string) => ({ model: name, baseURL: model.url, apiKey: KEY });
  const run = new RunState(plannerExecutorMachine, initialSnapshot('Record a release note', defaultPolicy));
  const team = createTeam({
    run,
    planner: createChatClient('planner', endpoint(PLANNER), { maxRetries: 0 }),
    executor: createChatClient('executor', endpoint(EXECUTOR), { maxRetries: 0 }),
    sandbox: createSandbox({ isolation: 'none', workTree: workspace }),
    allowedCommands: [],
    protectedPaths: ['.github/workflows/**'],
    commandTimeoutMs: 60_000,
    stallLimit: 8,
    ...(capabilities ? { capabilities } : {}),
    onUsage: () => undefined,
  });
  const final = await drive(run, team);
  return { final, requests: model.requests };
}

describe('MCP servers and the cached prefix', () => {
  it('sends byte-identical prefixes with and without servers, and reaches the server through the proxy', async () => {
    const plain = makeRepo({ 'README.md': '# notes\n' });
    const withServers = makeRepo({ 'README.md': '# notes\n' });
    cleanup.push(
      () => removeDir(plain),
      () => removeDir(withServers),
    );
    const hub = createCapabilityHub(
      [
        {
          name: 'notes',
          transport: 'stdio',
          command: process.execPath,
          args: [serverScript],
          env: { PLANGATE_MCP_PROBE: probe },
        },
      ],
      { sandbox: createSandbox({ isolation: 'none', workTree: withServers }), secrets: [] },
    );
    cleanup.push(() => hub.close());

    const without = await scriptedRun(undefined, plain);
    const configured = await scriptedRun(hub, withServers);

    for (const model of [PLANNER, EXECUTOR]) {
      const a = without.requests.filter((r) => r.model === model);
      const b = configured.requests.filter((r) => r.model === model);
      expect(a.length).toBeGreaterThan(0);
      expect(b).toHaveLength(a.length);
      // One prefix per role within each run, and the same bytes across the two runs.
      expect(new Set([...a, ...b].map(prefixOf)).size).toBe(1);
      const names = (b[0]?.tools ?? []).map((t) => (t.type === 'function' ? t.function.name : ''));
      expect(names).toContain('list_capabilities');
      expect(names).toContain('use_capability');
      // The first request of each role is the same too: nothing about the servers is in the summons.
      expect(JSON.stringify(b[0]?.messages)).toBe(JSON.stringify(a[0]?.messages));
    }

    expect(configured.final.state).toBe('done');
    const [lookup, refusal] = toolResults(configured.requests, PLANNER);
    expect(lookup).toContain(`lookup release: probe=${probe}`);
    expect(refusal).toContain('notes/record is not read-only; only the executor may call it');
    expect(toolResults(configured.requests, EXECUTOR)[0]).toBe('recorded: from the executor');
    expect(readFileSync(path.join(withServers, 'mcp-records.txt'), 'utf8')).toBe('from the executor\n');

    // Without servers the same calls are answered, not crashed on, and the run still finishes.
    expect(without.final.state).toBe('done');
    expect(toolResults(without.requests, PLANNER)[0]).toContain('No MCP servers are configured');
  });
});
