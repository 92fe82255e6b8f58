import { spawn } from 'node:child_process';
import { z } from 'zod';
import { authorizeCommand } from './command-policy.js';
import { CommandUserError, ownUserLauncher, prepareCommandUser } from './command-user.js';
import type { CommandLauncher, CommandUserDeps, SpawnPlan } from './command-user.js';
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
  /**
   * Unprivileged user the commands run as (see command-user.ts); undefined or empty: the action's
   * own user. When set and the switch fails, the tool refuses to run anything.
   */
  commandUser?: string;
  /** How the user switch is made; only tests change it. */
  userSwitch?: CommandUserDeps;
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
  // Resolved on first use, once: a failure is remembered, so no later call runs as the wrong user.
  let launcher: Promise<CommandLauncher> | undefined;
  const launch = async (): Promise<CommandLauncher> => {
    const user = options.commandUser;
    launcher ??= user ? prepareCommandUser(user, { path: options.env.PATH, ...options.userSwitch }) : Promise.resolve(ownUserLauncher);
    try {
      return await launcher;
    } catch (error) {
      if (!(error instanceof CommandUserError)) throw error;
      throw new ToolError(`${error.message} Nothing was run; report this in your result, since no command can run until a maintainer fixes it.`);
    }
  };
  return defineTool({
    name: 'run_command',
    // No per-repository values here: tool schemas are part of the cached prompt prefix. The allowed
    // commands and the time limit reach the model in its first instructions instead.
    description:
      'Run one allowed command in the repository root without a shell and get its exit code and combined output. The allowed commands and the time limit are listed under "Workspace rules" in your first instructions.',
    schema: runCommandSchema,
    async run(args) {
      const argv = authorizeCommand(args.command, options.allowedCommands);
      const as = await launch();
      const result = await execute(as, planFor(as, argv, options.env), workspace, options.timeoutMs);
      if (result.missingProgram) throw notFound(argv[0] ?? '');
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
  /** `env` (under sudo) could not find the program. */
  missingProgram: boolean;
}

function planFor(as: CommandLauncher, argv: string[], env: NodeJS.ProcessEnv): SpawnPlan {
  try {
    return as.plan(argv, env);
  } catch (error) {
    if (error instanceof CommandUserError) throw new ToolError(error.message);
    throw error;
  }
}

function notFound(file: string): ToolError {
  return new ToolError(`Command not found: ${file}. Check the name; only programs installed on the runner can run.`);
}

/**
 * spawn rather than execFile: same direct exec without a shell, but `detached` puts the child in
 * its own process group, which is what lets the timeout kill grandchildren too. Under another user
 * the launcher's sweep ends what the group kill cannot reach (see command-user.ts).
 */
function execute(as: CommandLauncher, plan: SpawnPlan, cwd: string, timeoutMs: number): Promise<Execution> {
  const file = plan.file;
  return new Promise((resolve, reject) => {
    const output = new HeadTail(HEAD_CHARS, TAIL_CHARS);
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    // Awaited before the result: a sweep still running when the next command starts would kill it.
    const sweeps: Promise<void>[] = [];
    const child = spawn(file, plan.args, {
      cwd,
      env: plan.env,
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(plan.uid === undefined ? {} : { uid: plan.uid }),
      ...(plan.gid === undefined ? {} : { gid: plan.gid }),
    });
    const killGroup = () => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // The group is already gone.
        }
      }
      sweeps.push(as.sweep());
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
      if (error.code === 'ENOENT') reject(notFound(file));
      else if (error.code === 'EACCES' && as.user !== undefined) {
        reject(new ToolError(`Cannot start ${file} as ${as.user}: permission denied. The workspace and the program must be accessible to ${as.user}.`));
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
      // GNU env's own words for a program it cannot find; nothing else prints them with 127.
      const missingProgram = plan.execByEnv && final.code === 127 && /^env: .*No such file or directory/.test(text);
      void Promise.all(sweeps).then(() => resolve({ exitCode: final.code, signal: final.signal, timedOut, output: text, missingProgram }));
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
