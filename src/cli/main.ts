import type { Readable } from 'node:stream';
import { routeActionsLog } from './actions-log.js';
import { parseInvocation } from './args.js';
import { CliError, exitCodes, UsageError } from './cli-error.js';
import { createTerminal, isInteractive } from './terminal.js';
import { plangateVersion } from './version.js';

/**
 * The CLI's composition root: reads the command line, routes the agents' Actions-style log to
 * stderr, runs the command and turns every failure into one line on stderr and an exit code. The
 * only place that decides the exit code, for any thrown value. The commands are imported when one
 * runs: they bring the engine (model client, git, validation), which help and a wrong command line
 * never need, so those answer at once.
 */
export interface CliProcess {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: Readable;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export async function main(proc: CliProcess): Promise<number> {
  // Known before anything is validated, so not even an early error can print the key.
  const secrets = [proc.env.PLANGATE_API_KEY?.trim() ?? ''].filter((s) => s !== '');
  // Bound before the route takes over process.stdout.write: the CLI's own output goes past it.
  const stdout = proc.stdout.write.bind(proc.stdout);
  const terminal = createTerminal(
    {
      stdin: proc.stdin,
      stdout: (text) => void stdout(text),
      stderr: (text) => void proc.stderr.write(text),
      interactive: isInteractive(proc.stdin as { isTTY?: boolean }, proc.stdout, proc.env),
    },
    secrets,
  );
  const route = routeActionsLog(proc.stdout, (line) => terminal.err(line));
  try {
    const invocation = parseInvocation(proc.argv);
    const context = { env: proc.env, cwd: proc.cwd, terminal };
    switch (invocation.kind) {
      case 'help':
        terminal.out(invocation.text);
        return exitCodes.ok;
      case 'version':
        terminal.out(`plangate ${plangateVersion}`);
        return exitCodes.ok;
      case 'plan': {
        const { planCommand } = await import('./plan-command.js');
        return await planCommand(invocation.objective, invocation.flags, context);
      }
      case 'run': {
        const { runCommand } = await import('./run-command.js');
        return await runCommand(invocation.objective, invocation.flags, context);
      }
    }
  } catch (error) {
    terminal.err(`plangate: ${oneLine(describe(error))}`);
    return error instanceof UsageError ? exitCodes.usage : exitCodes.failed;
  } finally {
    route.restore();
  }
}

function describe(error: unknown): string {
  if (error instanceof UsageError) {
    return error.message.includes('--help')
      ? error.message
      : `${error.message} See plangate${error.command ? ` ${error.command}` : ''} --help.`;
  }
  if (error instanceof CliError || error instanceof Error) return error.message;
  return typeof error === 'string' ? error : String(error);
}

/** Errors are one line: a multi-line message (git's, a provider's) is folded, not cut. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
