import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/**
 * Running the executor's commands as a separate, unprivileged user, so a command cannot read the
 * action's memory, environment (`/proc/<pid>/environ` is readable by the same user only) or files
 * that only the action's user may read. Fails closed: when the switch cannot be made, nothing runs
 * as the action's user instead.
 *
 * Two ways to switch:
 * - The action runs as root: the child is spawned with the user's uid and gid directly (Node drops
 *   root's supplementary groups), HOME set to the user's home.
 * - Otherwise: `sudo -n -u <user> -- env -i NAME=value ... <argv>`. `-n` never prompts, so a missing
 *   sudo rule is an error instead of a hang. `env -i` rebuilds the environment from scratch after
 *   sudo, because sudo's own env handling (env_reset, env_keep, secure_path, per-host sudoers)
 *   differs between machines and could leak a variable or drop PATH. Those values appear in the
 *   world-readable command line; that is acceptable only because the curated environment holds no
 *   secret (commandEnvironment refuses credential names).
 *
 * Ending a command: a process of another uid cannot be killed by a non-root action, and sudo cannot
 * relay SIGKILL, so killing the sudo process group alone would leave the command running. After
 * every command, therefore, `kill -s KILL -- -1` runs as the command user, ending everything that
 * user runs: background processes, and those that left the process group with setsid. That is why
 * the command user must be dedicated to plangate's commands, and may be neither root nor the
 * action's own user (both refused).
 */

/** The command user as the system knows it. */
export interface CommandIdentity {
  user: string;
  uid: number;
  gid: number;
  home: string;
}

/** The command user cannot be used; the message says what to fix. */
export class CommandUserError extends Error {
  override name = 'CommandUserError';
}

/** How to start one command: spawn's file, arguments and process options. */
export interface SpawnPlan {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  uid?: number;
  gid?: number;
  /** The program is started by `env`, which reports a missing one as exit code 127 instead of ENOENT. */
  execByEnv: boolean;
}

/** Starts commands as some user and ends what they leave behind. */
export interface CommandLauncher {
  /** The user commands run as; undefined: the action's own user. */
  readonly user: string | undefined;
  plan(argv: readonly string[], env: NodeJS.ProcessEnv): SpawnPlan;
  /** Ends every process the command user still runs. Never throws: it is cleanup. */
  sweep(): Promise<void>;
}

/** How the switch is made; tests substitute sudo and pretend not to be root. */
export interface CommandUserDeps {
  /** Whether this process may set the child's uid itself. Default: `process.getuid() === 0`. */
  isRoot?: boolean;
  /** The sudo program. Default: `sudo`, found on PATH. */
  sudo?: string;
  /** PATH for sudo and the user lookup. Default: this process's PATH. */
  path?: string;
}

/** Commands as the action's own user: no switch, nothing to sweep beyond the process group. */
export const ownUserLauncher: CommandLauncher = {
  user: undefined,
  plan: (argv, env) => ({ file: argv[0] ?? '', args: argv.slice(1), env, execByEnv: false }),
  sweep: () => Promise.resolve(),
};

// Settings accepts the same shape; checked again because this name reaches sudo's command line.
const userNameSchema = z.string().regex(/^[a-z_][a-z0-9_-]*$/i, 'must be a user name');

const passwdEntrySchema = z.object({
  user: z.string().min(1),
  uid: z.coerce.number().int().nonnegative(),
  gid: z.coerce.number().int().nonnegative(),
  home: z.string().min(1),
});

const KILL_ALL_OF_USER = ['/bin/sh', '-c', 'kill -s KILL -- -1'];

/**
 * Resolves the command user once and checks that commands can really run as it, so the first
 * command fails with a clear reason instead of running with the wrong identity.
 */
export async function prepareCommandUser(user: string, deps: CommandUserDeps = {}): Promise<CommandLauncher> {
  const name = userNameSchema.safeParse(user);
  if (!name.success) throw new CommandUserError(`command-user ${JSON.stringify(user)} is not a valid user name.`);
  const path = deps.path ?? process.env.PATH ?? '/usr/bin:/bin';
  const identity = await lookUpUser(name.data, path);
  if (identity.uid === 0) {
    throw new CommandUserError(`command-user ${user} is root (uid 0); name an unprivileged user that exists only to run commands.`);
  }
  if (identity.uid === process.getuid?.()) {
    throw new CommandUserError(
      `command-user ${user} is the action's own user; commands would see everything the action sees. Name a separate unprivileged user.`,
    );
  }
  const isRoot = deps.isRoot ?? process.getuid?.() === 0;
  return isRoot ? rootLauncher(identity) : sudoLauncher(identity, deps.sudo ?? 'sudo', path);
}

/** uid, gid and home of a user: `getent passwd` (which sees NSS users), else /etc/passwd. */
export async function lookUpUser(user: string, path = process.env.PATH ?? '/usr/bin:/bin'): Promise<CommandIdentity> {
  let line: string | undefined;
  try {
    line = (await run('getent', ['passwd', user], path)).stdout.split('\n')[0];
  } catch (error) {
    const failure = error as RunFailure;
    // getent exits 2 for "no such entry"; a missing getent leaves /etc/passwd.
    if (failure.code === 'ENOENT') {
      const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '');
      line = passwd.split('\n').find((entry) => entry.split(':')[0] === user);
    } else if (failure.code !== 2) {
      throw new CommandUserError(`Cannot look up command-user ${user}: ${failure.detail}`);
    }
  }
  const fields = line?.split(':') ?? [];
  const parsed = passwdEntrySchema.safeParse({ user: fields[0], uid: fields[2], gid: fields[3], home: fields[5] });
  if (line === undefined || line === '' || !parsed.success || parsed.data.user !== user) {
    throw new CommandUserError(`command-user ${user} does not exist on this runner; create it (e.g. useradd ${user}) before plangate runs.`);
  }
  return parsed.data;
}

/** What the command user's environment says about who it is. */
function ownIdentityEnv(identity: CommandIdentity): NodeJS.ProcessEnv {
  return { HOME: identity.home, USER: identity.user, LOGNAME: identity.user };
}

function rootLauncher(identity: CommandIdentity): CommandLauncher {
  return {
    user: identity.user,
    plan: (argv, env) => ({
      file: argv[0] ?? '',
      args: argv.slice(1),
      env: { ...env, ...ownIdentityEnv(identity) },
      uid: identity.uid,
      gid: identity.gid,
      execByEnv: false,
    }),
    sweep: () => settle(KILL_ALL_OF_USER[0] as string, KILL_ALL_OF_USER.slice(1), { uid: identity.uid, gid: identity.gid }),
  };
}

async function sudoLauncher(identity: CommandIdentity, sudo: string, path: string): Promise<CommandLauncher> {
  const { user, uid } = identity;
  let answer: string;
  try {
    answer = (await run(sudo, ['-n', '-u', user, '--', 'id', '-u'], path)).stdout.trim();
  } catch (error) {
    const failure = error as RunFailure;
    const why = failure.code === 'ENOENT' ? `${sudo} is not installed` : failure.detail;
    throw new CommandUserError(
      `Cannot run commands as command-user ${user}: sudo -n -u ${user} failed (${why}). The action's user needs passwordless sudo to ${user}, or the action must run as root.`,
    );
  }
  if (answer !== String(uid)) {
    throw new CommandUserError(`Cannot run commands as command-user ${user}: sudo ran the check as uid ${JSON.stringify(answer)}, not ${uid}.`);
  }
  return {
    user,
    plan: (argv, env) => {
      const full = { ...env, ...ownIdentityEnv(identity) };
      return { file: sudo, args: sudoArgs(user, full, argv), env: { PATH: full.PATH ?? path }, execByEnv: true };
    },
    sweep: () => settle(sudo, ['-n', '-u', user, '--', ...KILL_ALL_OF_USER], { env: { PATH: path } }),
  };
}

/** sudo's arguments for running argv as `user` with exactly `env`. */
export function sudoArgs(user: string, env: NodeJS.ProcessEnv, argv: readonly string[]): string[] {
  // env would read a program name containing "=" as one more variable and run something else.
  if ((argv[0] ?? '').includes('=')) throw new CommandUserError(`Cannot run ${JSON.stringify(argv[0])} as another user: program names may not contain "=".`);
  const assignments = Object.entries(env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${value}`);
  return ['-n', '-u', user, '--', 'env', '-i', ...assignments, ...argv];
}

interface RunFailure {
  /** Exit code, or the spawn error's code (e.g. ENOENT). */
  code: number | string | null;
  detail: string;
}

/** Runs a short helper without a shell; rejects with a RunFailure. */
function run(file: string, args: string[], path: string): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: '/', env: { PATH: path }, encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) => {
      if (error === null) {
        resolve({ stdout });
        return;
      }
      const code = (error as NodeJS.ErrnoException & { code?: number | string }).code ?? null;
      reject({ code, detail: stderr.trim() || error.message } satisfies RunFailure);
    });
  });
}

/** Runs a cleanup helper to its end, whatever its outcome. */
function settle(file: string, args: string[], options: { uid?: number; gid?: number; env?: NodeJS.ProcessEnv }): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: '/', env: options.env ?? { PATH: '/usr/bin:/bin' }, stdio: 'ignore', uid: options.uid, gid: options.gid });
    child.on('error', () => resolve());
    child.on('close', () => resolve());
  });
}
