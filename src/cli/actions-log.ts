/**
 * The agents log through @actions/core, which writes workflow commands (`::group::`, `::warning::`,
 * `::add-mask::`) to stdout for the Actions runner. In a terminal those are noise, and on stdout
 * they would mix with what the CLI prints for the user. While the CLI runs, this routes them: each
 * line becomes a plain progress line for the sink (stderr) and runner-only commands are dropped;
 * the CLI's own output goes past the route, through a write bound before it was set up.
 */
export interface ActionsLogRoute {
  /** Puts the stream's write back and flushes a last unterminated line. */
  restore(): void;
}

/** Commands that only mean something to the runner; `add-mask` would even print a secret. */
const dropped = new Set([
  'endgroup',
  'debug',
  'add-mask',
  'set-output',
  'save-state',
  'add-path',
  'set-env',
  'echo',
  'stop-commands',
  'add-matcher',
  'remove-matcher',
]);

/** The reverse of @actions/core's escaping of command data. */
function unescapeData(text: string): string {
  return text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
}

/** One line of core's output as the terminal should show it; undefined: not shown. */
export function translateActionsLine(line: string): string | undefined {
  const command = /^::([A-Za-z][\w-]*)(?: [^:]*)?::(.*)$/.exec(line);
  if (!command) return `  ${line}`;
  const [, name = '', data = ''] = command;
  const message = unescapeData(data);
  if (name === 'group') return `» ${message}`;
  if (name === 'warning' || name === 'error' || name === 'notice') return `${name}: ${message}`;
  if (dropped.has(name)) return undefined;
  return undefined;
}

export function routeActionsLog(stream: NodeJS.WriteStream, sink: (line: string) => void): ActionsLogRoute {
  const original = stream.write;
  let pending = '';
  const take = (chunk: unknown) => {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const shown = translateActionsLine(line);
      if (shown !== undefined) sink(shown);
    }
  };
  // Node's write(chunk, encoding?, callback?) contract: the callback runs once the chunk is handled.
  stream.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    take(chunk);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }) as typeof stream.write;
  return {
    restore() {
      stream.write = original;
      if (pending !== '') {
        const shown = translateActionsLine(pending);
        pending = '';
        if (shown !== undefined) sink(shown);
      }
    },
  };
}
