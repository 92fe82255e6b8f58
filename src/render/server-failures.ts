import type { ServerFailure } from '../mcp/capability-hub.js';
import { clip } from '../text/limits.js';
import { code } from '../text/markdown.js';

/** At most this many failed MCP servers are named; the footer is never cut, so it must stay small. */
const maxNamedServerFailures = 10;

/**
 * The warning that names the MCP servers a run went without, one short line each; '' when every
 * server started. `during` says what went on without them: planning (the plan comment) or the
 * run (progress comment and pull request), where a reviewer must see it too.
 */
export function renderServerFailures(failures: readonly ServerFailure[], during: 'planning' | 'this run'): string {
  if (failures.length === 0) return '';
  const one = failures.length === 1;
  // Code spans: a server's words can carry no mention, link or markup into the thread.
  const named = failures
    .slice(0, maxNamedServerFailures)
    .map((f) => `> - ${code(f.server)}: ${code(clip(f.reason, 400))}`);
  const more = failures.length - named.length;
  return [
    '> [!WARNING]',
    `> ${one ? 'An MCP server' : 'MCP servers'} did not start, so ${during} went on without ${one ? 'it' : 'them'}:`,
    ...named,
    ...(more > 0 ? [`> - and ${more} more (see the job log)`] : []),
  ].join('\n');
}
