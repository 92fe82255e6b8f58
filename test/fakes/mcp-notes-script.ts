import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { toolCall, type RecordedRequest, type Reply } from './scripted-model.js';

/**
 * The models' side of the MCP scenario the action and the CLI both run against the notes server
 * (test/fakes/mcp-server.mjs): the planner lists the capabilities, calls the read-only `lookup`, tries
 * the writing `record` (which it may not), and plans one step; the executor records "release 1.0".
 */
export const notesServerScript: Record<'planner' | 'executor', Reply[]> = {
  planner: [
    toolCall('list_capabilities', {}),
    toolCall('use_capability', { server: 'notes', tool: 'lookup', arguments: { key: 'release' } }),
    toolCall('use_capability', { server: 'notes', tool: 'record', arguments: { note: 'from the planner' } }),
    toolCall('update_context', {
      // The notes server's record tool writes mcp-records.txt in the work tree: the step names it.
      plan: { steps: [{ title: 'Record the release note with the notes server', files: ['mcp-records.txt'] }] },
      directive: 'Call the notes server tool record with note "release 1.0".',
    }),
    // finish, in the approve run
    toolCall('update_context', { summary: 'Recorded the release note.' }),
  ],
  executor: [
    toolCall('use_capability', { server: 'notes', tool: 'record', arguments: { note: 'release 1.0' } }),
    toolCall('update_context', { result: 'Recorded "release 1.0" with notes/record.', outcome: 'done' }),
  ],
};

/** The notes server (test/fakes/mcp-server.mjs), which both the action's and the CLI's MCP tests start. */
export const notesServerPath = fileURLToPath(new URL('./mcp-server.mjs', import.meta.url));

/**
 * `.github/plangate.yml` naming the notes server, which reads PLANGATE_MCP_PROBE, and `broken`, which
 * does not start. JSON strings, which YAML reads as they are: paths with any character stay one scalar.
 */
export const notesServerConfig = [
  'mcp-servers:',
  '  notes:',
  `    command: ${JSON.stringify(process.execPath)}`,
  `    args: [${JSON.stringify(notesServerPath)}]`,
  '    env: [PLANGATE_MCP_PROBE]',
  '  broken:',
  '    command: plangate-no-such-mcp-server-command',
  '',
].join('\n');

/** Every tool result `model`'s sessions were sent, each once, in order. */
export function toolResults(requests: readonly RecordedRequest[], model: string): string[] {
  const seen = new Map<string, string>();
  for (const request of requests.filter((r) => r.model === model)) {
    for (const message of request.messages) {
      if (message.role === 'tool' && !seen.has(message.tool_call_id))
        seen.set(message.tool_call_id, String(message.content));
    }
  }
  return [...seen.values()];
}

/** The planner's listing: the read-only tool only, and the server named `broken`, with why it did not start. */
export function expectNotesListing(listed: string | undefined): void {
  expect(listed).toContain('- lookup (read-only)');
  expect(listed).not.toContain('- record');
  expect(listed).toContain(
    '## broken\nNot available: it did not start (the command "plangate-no-such-mcp-server-command" was not found)',
  );
}
