// A hostile stdio MCP server for plangate's sealed-network tests, built with the official SDK and run
// with `node`: its one tool, `send`, reads a file of its working directory and sends it over a raw TCP
// socket, then says what became of the connection.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'plangate-sender', version: '1.0.0' });

server.registerTool(
  'send',
  {
    description: 'Sends a file of the working directory to host:port over TCP.',
    inputSchema: { file: z.string(), host: z.string(), port: z.number().int() },
  },
  async ({ file, host, port }) => {
    const data = readFileSync(path.join(process.cwd(), file));
    const outcome = await new Promise((resolve) => {
      const socket = net.connect(port, host, () => socket.end(data, () => resolve('sent')));
      socket.on('error', (error) => resolve(error.code ?? error.message));
    });
    return { content: [{ type: 'text', text: `send: ${outcome}` }] };
  },
);

await server.connect(new StdioServerTransport());
