// A stdio MCP server for plangate's tests, built with the official SDK and run with `node`.
// `lookup` is marked read-only and reports what the process can see (one probe variable, the names of
// all its environment variables, whether GITHUB_TOKEN reached it, its working directory and uid), so a test
// can prove what plangate passes to a server. `record` is a writing tool (no readOnlyHint): it appends
// to mcp-records.txt in its working directory. `repeat` makes long output; `fail` answers with an error.
// With --exit-at-start it writes to stderr and exits before speaking MCP, as a broken server does.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

if (process.argv.includes('--exit-at-start')) {
  process.stderr.write('fake server: refusing to start (--exit-at-start)\n');
  process.exit(3);
}

const server = new McpServer({ name: 'plangate-test-server', version: '1.0.0' });
const text = (value) => ({ content: [{ type: 'text', text: value }] });

server.registerTool(
  'lookup',
  {
    description: 'Looks a key up and reports what this server process can see.',
    inputSchema: { key: z.string() },
    annotations: { readOnlyHint: true },
  },
  async ({ key }) =>
    text(
      [
        `lookup ${key}: probe=${process.env.PLANGATE_MCP_PROBE ?? '(unset)'}`,
        `github-token-visible=${process.env.GITHUB_TOKEN === undefined ? 'no' : 'yes'}`,
        `env-names=${Object.keys(process.env).sort().join(',')}`,
        `cwd=${process.cwd()}`,
        `uid=${process.getuid()}`,
      ].join('\n'),
    ),
);

server.registerTool(
  'record',
  {
    description: 'Appends a note to mcp-records.txt in the working directory.',
    inputSchema: { note: z.string() },
  },
  async ({ note }) => {
    appendFileSync(path.join(process.cwd(), 'mcp-records.txt'), `${note}\n`);
    return text(`recorded: ${note}`);
  },
);

server.registerTool(
  'repeat',
  {
    description: 'Returns the text repeated the given number of times, one per line.',
    inputSchema: { text: z.string(), times: z.number().int().min(1).max(100000) },
    annotations: { readOnlyHint: true },
  },
  async (args) => text(Array.from({ length: args.times }, (_, i) => `${i + 1}: ${args.text}`).join('\n')),
);

server.registerTool(
  'fail',
  {
    description: 'Always answers with an error result.',
    annotations: { readOnlyHint: true },
  },
  async () => ({ content: [{ type: 'text', text: 'the fake failure happened' }], isError: true }),
);

await server.connect(new StdioServerTransport());
