// A stdio MCP server that will not go when asked, for the tests of how a connection closes. It
// writes its pid to server.pid in its working directory before it reads anything, so a test can
// check afterwards that the process is gone. A timer keeps it alive after its stdin closes; with
// --ignore-sigterm it ignores SIGTERM too, so only SIGKILL ends it. It answers initialize (with
// --unsupported-version, with a protocol version no client supports, so the handshake fails) and
// tools/list (no tools), by hand, newline-delimited JSON-RPC as the stdio transport speaks it.
import { writeFileSync } from 'node:fs';

writeFileSync('server.pid', String(process.pid));
if (process.argv.includes('--ignore-sigterm')) process.on('SIGTERM', () => undefined);
setInterval(() => undefined, 60_000);

const answer = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
let pending = '';
process.stdin.on('data', (chunk) => {
  pending += chunk.toString();
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines.filter((l) => l.trim() !== '')) {
    const message = JSON.parse(line);
    if (message.method === 'initialize') {
      const protocolVersion = process.argv.includes('--unsupported-version')
        ? '1900-01-01'
        : message.params.protocolVersion;
      answer(message.id, {
        protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'stubborn', version: '1.0.0' },
      });
    } else if (message.method === 'tools/list') {
      answer(message.id, { tools: [] });
    }
  }
});
// A closed stdin changes nothing: the timer above keeps the process running.
process.stdin.on('end', () => undefined);
