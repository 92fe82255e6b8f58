import { spawn } from 'node:child_process';
import { z } from 'zod';
import { authorizeCommand } from './command-policy.js';
import { refusedText, type NetworkAllowance } from './refused-text.js';
import {
  LeftRunningError,
  missingProgram,
  SandboxError,
  type RefusedDestination,
  type Sandbox,
  type SpawnPlan,
} from '../sandbox/sandbox.js';
import { defineTool } from './tool.js';
import type { Tool } from './tool.js';
import { ToolError } from './tool-error.js';
import { refuseOutsideCommands } from './scope-refusal.js';
import type { ApprovedScope } from '../scope/approved-scope.js';
import { omissionLine } from './truncate.js';

/**
 * The executor's one way to run programs: only configured commands, no shell, a scrubbed
 * environment handed in by the caller (never the runner's secrets), in the sandbox (another
 * account, which the work tree is lent to for the command's duration), and a hard timeout that
 * kills the whole process group so a stuck test runner cannot outlive its call. Nothing the command
 * starts may outlive it: a process the sandbox could not end fails the command, named in its result.
 */

export interface RunCommandOptions {
  /** Command-line patterns from the configuration; empty disables the tool's effect entirely. */
  allowedCommands: string[];
  timeoutMs: number;
  /** The complete environment of the child; nothing from this process leaks in besides it. */
  env: NodeJS.ProcessEnv;
  /** Where and as whom commands run; its work tree is the folder commands start in. */
  sandbox: Sandbox;
  /**
   * Runs once the work tree is back with the host after every command: the host's check of what the
   * command changed (see repo/change-gate.ts). What it returns ends the command's result.
   */
  afterCommand?: () => Promise<string | undefined>;
  /** The approved scope: commands it does not name are refused, allowed or not. */
  scope?: Pick<ApprovedScope, 'commands'>;
  /** What the sealed network allows the run, so a refusal says how the executor can ask for a destination; absent: it is open. */
  network?: NetworkAllowance;
  /** Told every command that ran (whatever its exit) and what the sealed network refused it, for the run's account of what it did. */
  onRun?: (command: string, refused: readonly RefusedDestination[]) => void;
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

/** run_command, executing in the sandbox's work tree only what `options.allowedCommands` permits. */
export function createRunCommandTool(options: RunCommandOptions): Tool {
  const { sandbox } = options;
  return defineTool({
    name: 'run_command',
    // No per-repository values here: tool schemas are part of the cached prompt prefix. The allowed
    // commands and the time limit reach the model in its first instructions instead.
    description:
      'Run one allowed command in the repository root without a shell and get its exit code and combined output. The allowed commands and the time limit are listed under "Workspace rules" in your first instructions.',
    schema: runCommandSchema,
    async run(args) {
      const argv = authorizeCommand(args.command, options.allowedCommands);
      refuseOutsideCommands(argv, args.command, options.scope);
      const plan = await planFor(sandbox, argv, options.env);
      const { result, leftRunning } = await lent(sandbox, () => execute(sandbox, plan, options.timeoutMs));
      const refused = await sandbox.refusedSince();
      options.onRun?.(args.command, refused);
      // A program in a PATH folder closed to the account, when it failed: the cause and the fix.
      const outOfReach = result.exitCode !== 0 ? (sandbox.programOutOfReach?.(argv[0] ?? '') ?? '') : '';
      if (result.missingProgram) throw notFound(argv[0] ?? '', plan, outOfReach);
      const checked = await options.afterCommand?.();
      const notes = [outOfReach, refusedText(refused, options.network), checked ?? ''].filter((n) => n !== '');
      const body = (result.output === '' ? '(no output)' : result.output) + notes.map((n) => `\n\n${n}`).join('');
      const status =
        result.exitCode !== null
          ? `exit code: ${result.exitCode}`
          : `terminated by signal ${result.signal ?? 'unknown'}`;
      // Whatever the command's own outcome: something it started still runs, and that fails it.
      if (leftRunning !== undefined) throw new ToolError(`$ ${args.command}\n${status}\n${body}\n\n${leftRunning}`);
      if (result.timedOut) {
        throw new ToolError(
          `$ ${args.command}\nTimed out after ${options.timeoutMs} ms; the command and its child processes were killed.\n${body}`,
        );
      }
      return `$ ${args.command}\n${status}\n${body}`;
    },
  });
}

interface Execution {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  output: string;
  /** `env` (under sudo) could not find the program. */
  missingProgram: boolean;
}

/** The sandbox's plan for argv; a sandbox that cannot be used refuses, and nothing runs. */
async function planFor(sandbox: Sandbox, argv: string[], env: NodeJS.ProcessEnv): Promise<SpawnPlan> {
  try {
    await sandbox.ready();
    return sandbox.plan(argv, env);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    const tail = /Nothing was run/.test(error.message) ? '' : ' Nothing was run.';
    throw new ToolError(
      `${error.message}${tail} Report this in your result: no command can run until a maintainer fixes it.`,
    );
  }
}

/**
 * The command run with the work tree lent, and the sandbox's words for processes of it that could
 * not be ended (the command ran: its result is still shown). A sandbox that refuses to lend while
 * such processes run throws a ToolError: nothing was run.
 */
async function lent(
  sandbox: Sandbox,
  work: () => Promise<Execution>,
): Promise<{ result: Execution; leftRunning?: string }> {
  let ran: Execution | undefined;
  try {
    return { result: await sandbox.lend(async () => (ran = await work())) };
  } catch (error) {
    if (error instanceof LeftRunningError && ran !== undefined) return { result: ran, leftRunning: error.message };
    if (error instanceof LeftRunningError) throw new ToolError(error.message);
    if (error instanceof SandboxError)
      throw new ToolError(
        `${error.message} Report this in your result: no command can run until a maintainer fixes it.`,
      );
    throw error;
  }
}

/** The words for a program that is not there: its name and the PATH searched (absolute entries only, as commands get it). */
function notFound(file: string, plan: SpawnPlan, outOfReach: string): ToolError {
  return new ToolError(
    outOfReach ||
      `Command not found: ${file} (searched PATH: ${plan.env.PATH ?? ''}). Check the name; only programs installed on the runner can run, and never from a relative PATH entry.`,
  );
}

/**
 * spawn rather than execFile: same direct exec without a shell, but `detached` puts the child in
 * its own process group, which is what lets the timeout kill grandchildren too. Under another
 * account the sandbox's sweep ends what the group kill cannot reach (see sandbox.ts).
 */
function execute(sandbox: Sandbox, plan: SpawnPlan, timeoutMs: number): Promise<Execution> {
  const file = plan.file;
  return new Promise((resolve, reject) => {
    const output = new HeadTail(HEAD_CHARS, TAIL_CHARS);
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    // Awaited before the result: a sweep still running when the next command starts would kill it.
    const sweeps: Promise<void>[] = [];
    const child = spawn(file, plan.args, {
      cwd: sandbox.workTree,
      env: plan.env,
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killGroup = () => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // The group is already gone.
        }
      }
      sweeps.push(sandbox.sweep());
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => output.push(chunk));
    child.stderr.on('data', (chunk: string) => output.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === 'ENOENT') reject(notFound(file, plan, ''));
      else if (error.code === 'EACCES' && sandbox.account !== undefined) {
        reject(
          new ToolError(
            `Cannot start ${file} as ${sandbox.account}: permission denied. The program must be accessible to ${sandbox.account}.`,
          ),
        );
      } else reject(error);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Leftover background processes would hold the pipes open (and outlive the call); end them.
      killGroup();
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const final = exit ?? { code, signal };
      const text = output.text();
      const missing = missingProgram(plan, final.code, text);
      void Promise.all(sweeps).then(() =>
        resolve({ exitCode: final.code, signal: final.signal, timedOut, output: text, missingProgram: missing }),
      );
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
