import { spawn } from 'node:child_process';
import { z } from 'zod';
import { authorizeCommand } from './command-policy.js';
import { defineTool } from './tool.js';
import type { Tool } from './tool.js';
import { ToolError } from './tool-error.js';
import { omissionLine } from './truncate.js';

/**
 * The executor's one way to run programs: only configured commands, no shell, a scrubbed
 * environment handed in by the caller (never the runner's secrets), and a hard timeout that kills
 * the whole process group so a stuck test runner cannot outlive its call.
 */

export interface RunCommandOptions {
  /** Command-line patterns from the configuration; empty disables the tool's effect entirely. */
  allowedCommands: string[];
  timeoutMs: number;
  /** The complete environment of the child; nothing from this process leaks in besides it. */
  env: NodeJS.ProcessEnv;
}

/** Output kept from the start and from the end of a command; small enough to fit one tool result. */
const HEAD_CHARS = 6_000;
const TAIL_CHARS = 8_000;

const runCommandSchema = z
  .object({
    command: z
      .string()
      .min(1)
      .describe('One command line, e.g. "npm test". No shell: no pipes, redirection, variables or chaining.'),
  })
  .strict();

/** run_command, executing in `workspace` only what `options.allowedCommands` permits. */
export function createRunCommandTool(workspace: string, options: RunCommandOptions): Tool {
  return defineTool({
    name: 'run_command',
    // No per-repository values here: tool schemas are part of the cached prompt prefix. The allowed
    // commands and the time limit reach the model in its first instructions instead.
    description:
      'Run one allowed command in the repository root without a shell and get its exit code and combined output. The allowed commands and the time limit are listed under "Workspace rules" in your first instructions.',
    schema: runCommandSchema,
    async run(args) {
      const argv = authorizeCommand(args.command, options.allowedCommands);
      const result = await execute(argv, workspace, options);
      const body = result.output === '' ? '(no output)' : result.output;
      if (result.timedOut) {
        throw new ToolError(
          `$ ${args.command}\nTimed out after ${options.timeoutMs} ms; the command and its child processes were killed.\n${body}`,
        );
      }
      const status = result.exitCode !== null ? `exit code: ${result.exitCode}` : `terminated by signal ${result.signal ?? 'unknown'}`;
      return `$ ${args.command}\n${status}\n${body}`;
    },
  });
}

interface Execution {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  output: string;
}

/**
 * spawn rather than execFile: same direct exec without a shell, but `detached` puts the child in
 * its own process group, which is what lets the timeout kill grandchildren too.
 */
function execute(argv: string[], cwd: string, options: RunCommandOptions): Promise<Execution> {
  const [file, ...rest] = argv as [string, ...string[]];
  return new Promise((resolve, reject) => {
    const output = new HeadTail(HEAD_CHARS, TAIL_CHARS);
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const child = spawn(file, rest, {
      cwd,
      env: options.env,
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => output.push(chunk));
    child.stderr.on('data', (chunk: string) => output.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        error.code === 'ENOENT'
          ? new ToolError(`Command not found: ${file}. Check the name; only programs installed on the runner can run.`)
          : error,
      );
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Leftover background processes would hold the pipes open (and outlive the call); end them.
      killGroup();
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const final = exit ?? { code, signal };
      resolve({ exitCode: final.code, signal: final.signal, timedOut, output: output.text() });
    });
  });
}

/** Keeps the first and last characters of a stream in bounded memory, however much is written. */
class HeadTail {
  private head = '';
  private tail = '';
  private dropped = 0;

  constructor(
    private readonly headMax: number,
    private readonly tailMax: number,
  ) {}

  push(chunk: string): void {
    let rest = chunk;
    if (this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest === '') return;
    const combined = this.tail + rest;
    if (combined.length > this.tailMax) {
      this.dropped += combined.length - this.tailMax;
      this.tail = combined.slice(combined.length - this.tailMax);
    } else {
      this.tail = combined;
    }
  }

  text(): string {
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n${omissionLine(this.dropped)}\n${this.tail}`;
  }
}
