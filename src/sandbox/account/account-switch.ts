import { defaultPrograms, type Programs } from '../../repo/programs.js';
import { helperPrograms, locate, run, type RunFailure } from './run-helper.js';
import {
  SandboxError,
  type AccountIdentity,
  type AccountSwitch,
  type SandboxDeps,
  type SpawnPlan,
} from './sandbox-types.js';

/**
 * How a process becomes the sandbox account: whether this runner allows a switch at all (root or
 * passwordless sudo), and the exact command line that makes it, without putting a secret where
 * every account can read it.
 */

/** What a prepared account needs to switch: its identity and whether the action is root or uses sudo. */
export interface Switch {
  identity: AccountIdentity;
  how: 'root' | 'sudo';
}

/** The sudo program and where the helpers are found, fixed once per sandbox. */
export interface Helpers {
  sudo: string;
  programs: Programs;
}

/** Whether (and how) this runner can start processes as another account; cheap and without side effects. */
export async function probeAccountSwitch(deps: SandboxDeps = {}): Promise<AccountSwitch> {
  if (deps.isRoot ?? process.getuid?.() === 0) return { kind: 'root' };
  const sudo = deps.sudo ?? 'sudo';
  try {
    await run(helperPrograms(deps), sudo, ['-n', 'true']);
    return { kind: 'sudo' };
  } catch (error) {
    const failure = error as RunFailure;
    const why = failure.code === 'ENOENT' ? 'sudo is not installed' : `sudo -n refused (${failure.detail})`;
    return { kind: 'impossible', cause: `the action does not run as root and cannot use passwordless sudo: ${why}` };
  }
}

/** The words for a runner where nothing can be isolated: the cause, what was not done, and the opt-out. */
export function isolationImpossible(cause: string): string {
  return (
    `Commands cannot run here: ${cause}. plangate runs commands and MCP servers under a separate account, so they cannot read its token and API keys, and this runner allows no account switch. ` +
    "Nothing was run. Run the job as root or with passwordless sudo (as GitHub-hosted runners do), or set the input `command-isolation: none` to run them as the action's own user, where they can read its secrets."
  );
}

/** Runs a helper as root: directly when the action is root, else through sudo (given its absolute path). */
export async function asRoot(
  h: Helpers,
  file: string,
  args: string[],
  how: 'root' | 'sudo',
): Promise<{ stdout: string }> {
  return how === 'root'
    ? run(h.programs, file, args)
    : run(h.programs, h.sudo, ['-n', locate(h.programs, file), ...args]);
}

/** Runs a helper as the account, its program given by absolute path. */
export async function asAccount(h: Helpers, p: Switch, argv: string[]): Promise<{ stdout: string }> {
  const [name = '', ...args] = argv;
  const program = [locate(h.programs, name), ...args];
  return p.how === 'root'
    ? run(h.programs, 'setpriv', [...setprivArgs(p.identity), ...program])
    : run(h.programs, h.sudo, ['-n', '-u', p.identity.user, '--', ...program]);
}

/** setpriv's switch to the account: its uid and gid, no supplementary groups, then the program. */
export function setprivArgs(identity: AccountIdentity): string[] {
  return ['--reuid', String(identity.uid), '--regid', String(identity.gid), '--clear-groups', '--'];
}

/**
 * sudo's arguments for running argv as `user` with exactly `env`. `env -i` (by its absolute path)
 * rebuilds the environment after sudo, whose own handling (env_reset, env_keep, secure_path) differs
 * between machines; its assignments are on sudo's world-readable command line, so secrets go through
 * sudo's environment instead (`--preserve-env`, which the `ALL` rule of GitHub-hosted runners allows).
 * SandboxError when env cannot be found.
 */
export function sudoPlan(
  user: string,
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
  secretNames: readonly string[] = [],
  programs: Programs = defaultPrograms(),
): Omit<SpawnPlan, 'file'> {
  return sudoArgs({ sudoOptions: ['-u', user], through: [] }, env, argv, secretNames, programs);
}

/**
 * The same as {@link sudoPlan}, but sudo runs `through` as root, a program line that makes the
 * switch to the account itself (unshare and setpriv: sandbox/account/account-pid-namespace.ts) before env.
 */
export function sudoPlanThrough(
  through: readonly string[],
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
  secretNames: readonly string[] = [],
  programs: Programs = defaultPrograms(),
): Omit<SpawnPlan, 'file'> {
  return sudoArgs({ sudoOptions: [], through }, env, argv, secretNames, programs);
}

function sudoArgs(
  target: { sudoOptions: readonly string[]; through: readonly string[] },
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
  secretNames: readonly string[],
  programs: Programs,
): Omit<SpawnPlan, 'file'> {
  // env would read a program name containing "=" as one more variable and run something else.
  if ((argv[0] ?? '').includes('='))
    throw new SandboxError(
      `Cannot run ${JSON.stringify(argv[0])} as another account: program names may not contain "=".`,
    );
  const envProgram = launcher(programs, 'env');
  const pathList = programs.path;
  const secret = new Set(secretNames);
  const assignments = Object.entries(env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && !secret.has(entry[0]))
    .map(([name, value]) => `${name}=${value}`);
  const secrets = Object.fromEntries(
    secretNames.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]]])),
  );
  const { sudoOptions, through } = target;
  if (Object.keys(secrets).length === 0) {
    return {
      args: ['-n', ...sudoOptions, '--', ...through, envProgram, '-i', ...assignments, ...argv],
      env: { PATH: pathList },
      wrapped: true,
    };
  }
  return {
    args: [
      '-n',
      `--preserve-env=${Object.keys(secrets).join(',')}`,
      ...sudoOptions,
      '--',
      ...through,
      envProgram,
      ...assignments,
      ...argv,
    ],
    env: { PATH: pathList, ...secrets },
    wrapped: true,
  };
}

/** The absolute path of a program that starts the account's processes (sudo, setpriv, env); SandboxError when missing. */
export function launcher(programs: Programs, name: string): string {
  try {
    return programs.find(name);
  } catch (error) {
    throw new SandboxError(error instanceof Error ? error.message : String(error));
  }
}

/** Whether a wrapped start failed because the program does not exist (env's and setpriv's own words). */
export function missingProgram(plan: SpawnPlan, exitCode: number | null, output: string): boolean {
  return plan.wrapped && exitCode === 127 && saysProgramMissing(output);
}

/**
 * env's, setpriv's and the network bridge's (sandbox/network/namespace-bridge.ts) words (named as started, by
 * path) for a program they cannot find; nothing else prints them.
 */
export function saysProgramMissing(output: string): boolean {
  return /^((?:\/\S*\/)?env: .*|(?:\/\S*\/)?setpriv: failed to execute .*|plangate network bridge: failed to execute .*)No such file or directory/m.test(
    output,
  );
}
