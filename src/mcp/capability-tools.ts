import { z } from 'zod';
import type { Role } from '../machine/fields.js';
import type { CapabilityTool, ServerConnection, ToolCallResult } from './connect.js';
import type { CapabilityHub, StartedServers } from './hub.js';
import { resultText } from './result-text.js';
import { defineTool } from '../tools/tool.js';
import type { Tool } from '../tools/tool.js';
import { ToolError } from '../tools/tool-error.js';
import { DEFAULT_OUTPUT_LIMIT, truncateOutput } from '../tools/truncate.js';
import { refusedText, type NetworkAllowance } from '../tools/refused-text.js';
import { errorMessage } from '../text/error-message.js';

/**
 * The configured MCP servers reach the agents through two fixed tools instead of one tool per
 * server tool: the tool list, and with it the cached prompt prefix, stays byte-identical whatever
 * servers a repository configures (or none). The planner's variant shows and calls only the tools a
 * server marks read-only, so it still cannot change anything.
 */

const listSchema = z.object({}).strict();

const useSchema = z
  .object({
    server: z.string().min(1).describe('The server name, as list_capabilities shows it.'),
    tool: z.string().min(1).describe("The tool's name on that server, as list_capabilities shows it."),
    arguments: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("The tool's arguments as one JSON object matching its argument schema; omit when it takes none."),
  })
  .strict();

/** Characters of a server tool's argument schema shown per tool; the rest is cut, not the listing. */
const maxSchemaChars = 2_000;

/**
 * list_capabilities and use_capability for `role`, over the run's shared servers; `network`: what
 * the sealed network allows the run, for the words of a refusal.
 */
export function createCapabilityTools(role: Role, hub: CapabilityHub, network?: NetworkAllowance): Tool[] {
  // A name is read-only only if every listing of it says so: the server, not plangate, decides which
  // of two same-named tools a call runs.
  const offered = (tool: CapabilityTool, server: ServerConnection) =>
    role === 'executor' || server.tools.every((other) => other.name !== tool.name || other.readOnly);
  const readOnlyNote =
    role === 'planner' ? ' Only the tools a server marks read-only are listed and callable here.' : '';

  const list = defineTool({
    name: 'list_capabilities',
    description: `List the tools of the MCP servers configured for this repository: each server, its tools, what they do and their argument schemas. Call a tool with use_capability.${readOnlyNote}`,
    schema: listSchema,
    async run() {
      const started = await hub.start();
      if (started.configured === 0) {
        return 'No MCP servers are configured for this repository, so there are no capabilities to use.';
      }
      const sections = [
        ...started.connected.map((server) => serverSection(server, role, offered)),
        ...started.failures.map((f) => `## ${f.server}\nNot available: it did not start (${f.reason}).`),
      ];
      return sections.join('\n\n');
    },
  });

  const use = defineTool({
    name: 'use_capability',
    description: `Call a tool of a configured MCP server: name the server and the tool as list_capabilities shows them and pass the tool's arguments as one object. Returns the tool's output as text.${readOnlyNote}`,
    schema: useSchema,
    async run(args) {
      const server = findServer(await hub.start(), args.server);
      const tool = server.tools.find((t) => t.name === args.tool);
      if (tool === undefined) {
        throw new ToolError(
          `MCP server ${JSON.stringify(server.name)} has no tool ${JSON.stringify(args.tool)}. Call list_capabilities to see its tools.`,
        );
      }
      if (!offered(tool, server)) {
        throw new ToolError(
          `${server.name}/${tool.name} is not read-only; only the executor may call it. Plan it as a step for the executor instead.`,
        );
      }
      let result: ToolCallResult;
      try {
        result = await server.call(tool.name, args.arguments ?? {}, role === 'executor');
      } catch (error) {
        throw new ToolError(
          `${server.name}/${tool.name} failed: ${errorMessage(error)}${await refusedNote(server, network)}`,
        );
      }
      const { text, isError } = resultText(result);
      const note = await refusedNote(server, network);
      if (isError)
        throw new ToolError(`${server.name}/${tool.name} reported an error: ${text.trim() || '(no message)'}${note}`);
      return (
        truncateOutput(
          text.trim() === '' ? `${server.name}/${tool.name} returned no text.` : text,
          DEFAULT_OUTPUT_LIMIT,
        ) + note
      );
    },
  });

  return [list, use];
}

/** What the sealed network refused the server during the call, as a paragraph after its result; '' when nothing. */
async function refusedNote(server: ServerConnection, network: NetworkAllowance | undefined): Promise<string> {
  const text = refusedText(await server.refused(), network);
  return text === '' ? '' : `\n\n${text}`;
}

function findServer(started: StartedServers, name: string): ServerConnection {
  const server = started.connected.find((s) => s.name === name);
  if (server !== undefined) return server;
  const failure = started.failures.find((f) => f.server === name);
  if (failure !== undefined) {
    throw new ToolError(
      `MCP server ${JSON.stringify(name)} is not available: it did not start (${failure.reason}). Work without it.`,
    );
  }
  if (started.configured === 0) {
    throw new ToolError('No MCP servers are configured for this repository, so there is nothing to call.');
  }
  const names = started.connected.map((s) => s.name).join(', ') || 'none';
  throw new ToolError(
    `No MCP server is named ${JSON.stringify(name)}. Available servers: ${names}. Call list_capabilities to see them.`,
  );
}

function serverSection(
  server: ServerConnection,
  role: Role,
  offered: (tool: CapabilityTool, server: ServerConnection) => boolean,
): string {
  const tools = [...server.tools]
    .filter((tool) => offered(tool, server))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const hidden = server.tools.length - tools.length;
  const lines = [`## ${server.name}`];
  if (tools.length === 0) lines.push(role === 'planner' ? 'No read-only tools.' : 'No tools.');
  for (const tool of tools) {
    lines.push(`- ${tool.name}${tool.readOnly ? ' (read-only)' : ''}: ${tool.description || '(no description)'}`);
    lines.push(`  arguments: ${clip(JSON.stringify(tool.inputSchema), maxSchemaChars)}`);
  }
  if (hidden > 0) {
    lines.push(
      `(${hidden} more ${hidden === 1 ? 'tool is' : 'tools are'} not read-only; only the executor may call ${hidden === 1 ? 'it' : 'them'}.)`,
    );
  }
  return lines.join('\n');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)} … [${text.length - max} more characters]`;
}
