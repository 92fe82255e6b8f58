import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * The sandbox: the account the executor's commands and stdio MCP servers run as, so that the code
 * they run (a repository's test script is code anyone with a pull request can change) holds nothing
 * worth stealing. Such a process runs under a separate unprivileged account with its own empty HOME
 * and temp dir and an environment without secrets; another account can read neither the action's
 * `/proc/<pid>/environ` nor its files.
 *
 * How the switch is made, by what the runner allows:
 * - the action runs as root: the account is created when missing and processes start through
 *   `setpriv`;
 * - the action has passwordless sudo (GitHub-hosted runners): the same through `sudo -n`;
 * - neither: nothing can be isolated, so nothing runs (fails closed), unless the user named
 *   `command-isolation: none`, which runs everything as the action's own user.
 *
 * The work tree is lent to the account only while one of its processes works in it: `enter` makes
 * the account its owner, `leave` ends what the process left running and gives the tree back to the
 * action. So the account needs no access to anything of the action's (the folders above the
 * checkout are often closed to other accounts), and between commands it can change nothing.
 *
 * Ending processes: a process of another account cannot be killed by a non-root action and sudo
 * cannot relay SIGKILL, so after every command everything the account runs is ended, except the
 * process trees `keep` names (the stdio MCP servers, which live as long as the run). That is why
 * the account must be dedicated to plangate, and may be neither root nor the action's own user.
 */

/** `account`: a separate unprivileged account, or nothing runs; `none`: the action's own user. */
export type CommandIsolation = 'account' | 'none';

/** The account plangate creates (or reuses) when `command-user` names none. */
export const defaultSandboxAccount = 'plangate-sandbox';

/** Nothing can run isolated here, or the account cannot be used; the message says what to fix. */
export class SandboxError extends Error {
  override name = 'SandboxError';
}

/** How to start one process: spawn's file, arguments and complete environment. */
export interface SpawnPlan {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Set when a wrapper (env, setpriv) starts the program: it reports a missing one as exit code 127. */
  wrapped: boolean;
}

export interface Sandbox {
  /** The account processes run as; undefined: the action's own user. */
  readonly account: string | undefined;
  /** The folder processes work in; lent to the account while they run. */
  readonly workTree: string;
  /**
   * Resolves the account once (creating it when needed) and prepares its HOME and temp dir. Throws
   * SandboxError naming the cause, every time it is called again, when nothing can run here.
   */
  ready(): Promise<void>;
  /** Why nothing can run here (no account switch is possible), without preparing anything; undefined: processes can run. */
  refusal(): Promise<string | undefined>;
  /**
   * How to start argv with exactly `env` as the account. `secretNames` are variables of `env` that
   * must appear on no command line (where every account could read them). Call after `ready`.
   */
  plan(argv: readonly string[], env: NodeJS.ProcessEnv, secretNames?: readonly string[]): SpawnPlan;
  /** Runs `work` with the work tree lent to the account, then ends what it left running and takes the tree back. */
  lend<T>(work: () => Promise<T>): Promise<T>;
  /** Ends every process of the account except the kept ones. Never throws: it is cleanup. */
  sweep(): Promise<void>;
  /** Keeps a long-lived process (and its children) alive across sweeps; returns the release. */
  keep(pid: number): () => void;
  /** Ends everything the account runs and removes its HOME and temp dir. Never throws. */
  close(): Promise<void>;
}

/** What this runner allows for switching accounts. */
export type AccountSwitch = { kind: 'root' } | { kind: 'sudo' } | { kind: 'impossible'; cause: string };

/** How the switch is made; tests substitute sudo, pretend not to be root, or move the temp dir. */
export interface SandboxDeps {
  /** Whether this process may switch accounts itself. Default: `process.getuid() === 0`. */
  isRoot?: boolean;
  /** The sudo program. Default: `sudo`, found on PATH. */
  sudo?: string;
  /** PATH for the helpers (sudo, getent, useradd, setpriv). Default: this process's PATH. */
  path?: string;
  /** Where the account's HOME and temp dir are made. Default: the system's temp dir. */
  tmpDir?: string;
}

export interface SandboxOptions {
  isolation: CommandIsolation;
  /** The account to use; empty or undefined: {@link defaultSandboxAccount}. */
  account?: string;
  workTree: string;
  deps?: SandboxDeps;
}

/** The account as the system knows it. */
export interface AccountIdentity {
  user: string;
  uid: number;
  gid: number;
}

// The name reaches command lines (sudo, useradd); settings accepts the same shape.
const accountNameSchema = z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/i, 'must be a user name of at most 32 characters');

const passwdEntrySchema = z.object({
  user: z.string().min(1),
  uid: z.coerce.number().int().nonnegative(),
  gid: z.coerce.number().int().nonnegative(),
});

const KILL_ALL = ['/bin/sh', '-c', 'kill -s KILL -- -1'];
const KILL_LISTED = ['/bin/sh', '-c', 'kill -s KILL -- "$@" 2>/dev/null; exit 0', 'sweep'];

/** Whether (and how) this runner can start processes as another account; cheap and without side effects. */
export async function probeAccountSwitch(deps: SandboxDeps = {}): Promise<AccountSwitch> {
  if (deps.isRoot ?? process.getuid?.() === 0) return { kind: 'root' };
  const sudo = deps.sudo ?? 'sudo';
  try {
    await run(sudo, ['-n', 'true'], helperPath(deps));
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
    'Nothing was run. Run the job as root or with passwordless sudo (as GitHub-hosted runners do), or set the input `command-isolation: none` to run them as the action\'s own user, where they can read its secrets.'
  );
}

/** A sandbox for `options.workTree`; nothing happens until `ready`. */
export function createSandbox(options: SandboxOptions): Sandbox {
  if (options.isolation === 'none') return ownUserSandbox(options.workTree);
  return accountSandbox(options);
}

/** Everything as the action's own user: the explicit opt-out. Only the process group is ended. */
function ownUserSandbox(workTree: string): Sandbox {
  return {
    account: undefined,
    workTree,
    ready: () => Promise.resolve(),
    refusal: () => Promise.resolve(undefined),
    plan: (argv, env) => ({ file: argv[0] ?? '', args: argv.slice(1), env, wrapped: false }),
    lend: (work) => work(),
    sweep: () => Promise.resolve(),
    keep: () => () => undefined,
    close: () => Promise.resolve(),
  };
}

interface Prepared {
  identity: AccountIdentity;
  how: 'root' | 'sudo';
  /** Holds the account's HOME and temp dir; the action's, 0711. */
  dir: string;
  home: string;
  tmp: string;
}

function accountSandbox(options: SandboxOptions): Sandbox {
  const deps = options.deps ?? {};
  const sudo = deps.sudo ?? 'sudo';
  const pathList = helperPath(deps);
  const name = options.account || defaultSandboxAccount;
  const kept = new Set<number>();
  let preparing: Promise<Prepared> | undefined;
  let prepared: Prepared | undefined;

  /** Runs a helper as root: directly when the action is root, else through sudo. */
  const asRoot = (file: string, args: string[], how: 'root' | 'sudo') =>
    how === 'root' ? run(file, args, pathList) : run(sudo, ['-n', file, ...args], pathList);
  /** Runs a helper as the account. */
  const asAccount = (p: Prepared, argv: string[]) =>
    p.how === 'root'
      ? run('setpriv', [...setprivArgs(p.identity), ...argv], pathList)
      : run(sudo, ['-n', '-u', p.identity.user, '--', ...argv], pathList);

  async function prepare(): Promise<Prepared> {
    const parsed = accountNameSchema.safeParse(name);
    if (!parsed.success) throw new SandboxError(`command-user ${JSON.stringify(name)} is not a valid account name.`);
    const allowed = await probeAccountSwitch(deps);
    if (allowed.kind === 'impossible') throw new SandboxError(isolationImpossible(allowed.cause));
    const how = allowed.kind;
    const identity = (await lookUpAccount(name, pathList)) ?? (await createAccount(name, how));
    if (identity.uid === 0) throw new SandboxError(`command-user ${name} is root (uid 0); name an unprivileged account that exists only to run plangate's commands.`);
    if (identity.uid === process.getuid?.()) {
      throw new SandboxError(`command-user ${name} is the action's own user; its commands would see everything the action sees. Name a separate unprivileged account.`);
    }
    // Others may pass through (not list) the folder, to reach the HOME and temp dir the account owns.
    const dir = await mkdtemp(path.join(deps.tmpDir ?? os.tmpdir(), 'plangate-sandbox-'));
    await chmod(dir, 0o711);
    const home = path.join(dir, 'home');
    const tmp = path.join(dir, 'tmp');
    await mkdir(home, { mode: 0o700 });
    await mkdir(tmp, { mode: 0o700 });
    const owner = `${identity.uid}:${identity.gid}`;
    try {
      if (how === 'root') await Promise.all([chown(home, identity.uid, identity.gid), chown(tmp, identity.uid, identity.gid)]);
      else await asRoot('chown', [owner, '--', home, tmp], how);
      if (how === 'sudo') {
        // The rule may name only some accounts, or map this one to another uid: check it really switches.
        const answer = (await run(sudo, ['-n', '-u', name, '--', 'id', '-u'], pathList)).stdout.trim();
        if (answer !== String(identity.uid)) throw new SandboxError(`sudo ran a check as command-user ${name} with uid ${JSON.stringify(answer)}, not ${identity.uid}.`);
      }
    } catch (error) {
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      if (error instanceof SandboxError) throw error;
      throw new SandboxError(`Cannot prepare command-user ${name}: ${(error as RunFailure).detail ?? String(error)}.`);
    }
    return { identity, how, dir, home, tmp };
  }

  /** useradd through root or sudo; a concurrent run that created it first is fine. */
  async function createAccount(account: string, how: 'root' | 'sudo'): Promise<AccountIdentity> {
    const args = ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', account];
    try {
      await asRoot(how === 'root' ? findUseradd() : 'useradd', args, how);
    } catch (error) {
      const failure = error as RunFailure;
      // Exit 9: it exists (another job made it meanwhile).
      if (failure.code !== 9) {
        throw new SandboxError(`Cannot create the account ${account} that commands run as (useradd: ${failure.detail}). Create it yourself and name it in command-user.`);
      }
    }
    const identity = await lookUpAccount(account, pathList);
    if (!identity) throw new SandboxError(`The account ${account} was created but cannot be looked up.`);
    return identity;
  }

  async function ensure(): Promise<Prepared> {
    // Remembered, failure included: no later call may run as the wrong account.
    preparing ??= prepare().then((p) => (prepared = p));
    return preparing;
  }

  /** Every process of the account, or all but the kept trees. */
  async function sweep(): Promise<void> {
    const p = prepared;
    if (!p) return;
    try {
      if (kept.size === 0) {
        // One kill(-1) as the account: atomic, so a forking process cannot slip past it.
        await asAccount(p, KILL_ALL);
        return;
      }
      for (let pass = 0; pass < 10; pass += 1) {
        const targets = await strayProcesses(p.identity.uid, kept);
        if (targets.length === 0) return;
        await asAccount(p, [...KILL_LISTED, ...targets.map(String)]);
      }
    } catch {
      // Cleanup: a failed sweep leaves strays of an account that holds nothing; it must not fail the run.
    }
  }

  async function takeBack(p: Prepared): Promise<void> {
    const owner = `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`;
    if (p.how === 'root') {
      await run('chown', ['-R', '-h', owner, '--', options.workTree], pathList);
    } else {
      await asRoot('chown', ['-R', '-h', owner, '--', options.workTree], 'sudo');
      // The account may have left files only it could read; the action owns them now and must read them.
      await run('chmod', ['-R', 'u+rwX', '--', options.workTree], pathList);
    }
  }

  return {
    account: name,
    workTree: options.workTree,
    async ready() {
      await ensure();
    },
    async refusal() {
      const allowed = await probeAccountSwitch(deps);
      return allowed.kind === 'impossible' ? allowed.cause : undefined;
    },
    plan(argv, env, secretNames = []) {
      const p = prepared;
      if (!p) throw new SandboxError('The sandbox is not ready; call ready() first.');
      const full: NodeJS.ProcessEnv = { ...env, HOME: p.home, TMPDIR: p.tmp, TMP: p.tmp, TEMP: p.tmp, USER: p.identity.user, LOGNAME: p.identity.user };
      if (p.how === 'root') {
        // setpriv keeps the environment it is given; nothing of it reaches a command line.
        return { file: 'setpriv', args: [...setprivArgs(p.identity), ...argv], env: full, wrapped: true };
      }
      return { ...sudoPlan(p.identity.user, full, argv, secretNames, pathList), file: sudo };
    },
    async lend(work) {
      const p = await ensure();
      const owner = `${p.identity.uid}:${p.identity.gid}`;
      try {
        await asRoot('chown', ['-R', '-h', owner, '--', options.workTree], p.how);
      } catch (error) {
        throw new SandboxError(`Cannot hand the work tree to ${p.identity.user}: ${(error as RunFailure).detail ?? String(error)}.`);
      }
      try {
        return await work();
      } finally {
        await sweep();
        await takeBack(p);
      }
    },
    sweep,
    keep(pid) {
      kept.add(pid);
      return () => kept.delete(pid);
    },
    async close() {
      const p = prepared;
      if (!p) return;
      kept.clear();
      await sweep();
      await takeBack(p).catch(() => undefined);
      try {
        if (p.how === 'root') await rm(p.dir, { recursive: true, force: true });
        else await asRoot('rm', ['-rf', '--', p.dir], 'sudo');
      } catch {
        // A temp dir left behind holds only what the account wrote; the runner discards it.
      }
    },
  };
}

/** setpriv's switch to the account: its uid and gid, no supplementary groups, then the program. */
function setprivArgs(identity: AccountIdentity): string[] {
  return ['--reuid', String(identity.uid), '--regid', String(identity.gid), '--clear-groups', '--'];
}

/**
 * sudo's arguments for running argv as `user` with exactly `env`. `env -i` rebuilds the environment
 * after sudo, whose own handling (env_reset, env_keep, secure_path) differs between machines; its
 * assignments are on sudo's world-readable command line, so secrets go through sudo's environment
 * instead (`--preserve-env`, which the `ALL` rule of GitHub-hosted runners allows).
 */
export function sudoPlan(
  user: string,
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
  secretNames: readonly string[] = [],
  pathList = '/usr/bin:/bin',
): Omit<SpawnPlan, 'file'> {
  // env would read a program name containing "=" as one more variable and run something else.
  if ((argv[0] ?? '').includes('=')) throw new SandboxError(`Cannot run ${JSON.stringify(argv[0])} as another account: program names may not contain "=".`);
  const secret = new Set(secretNames);
  const assignments = Object.entries(env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && !secret.has(entry[0]))
    .map(([name, value]) => `${name}=${value}`);
  const secrets = Object.fromEntries(secretNames.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]]])));
  if (Object.keys(secrets).length === 0) {
    return { args: ['-n', '-u', user, '--', 'env', '-i', ...assignments, ...argv], env: { PATH: pathList }, wrapped: true };
  }
  return {
    args: ['-n', `--preserve-env=${Object.keys(secrets).join(',')}`, '-u', user, '--', 'env', ...assignments, ...argv],
    env: { PATH: pathList, ...secrets },
    wrapped: true,
  };
}

/** Whether a wrapped start failed because the program does not exist (env's and setpriv's own words). */
export function missingProgram(plan: SpawnPlan, exitCode: number | null, output: string): boolean {
  return plan.wrapped && exitCode === 127 && saysProgramMissing(output);
}

/** env's and setpriv's words for a program they cannot find; nothing else prints them. */
export function saysProgramMissing(output: string): boolean {
  return /^(env: .*|setpriv: failed to execute .*)No such file or directory/m.test(output);
}

/** uid and gid of an account: `getent passwd` (which sees NSS accounts), else /etc/passwd; undefined when none. */
export async function lookUpAccount(user: string, pathList = process.env.PATH ?? '/usr/bin:/bin'): Promise<AccountIdentity | undefined> {
  let line: string | undefined;
  try {
    line = (await run('getent', ['passwd', user], pathList)).stdout.split('\n')[0];
  } catch (error) {
    const failure = error as RunFailure;
    // getent exits 2 for "no such entry"; a missing getent leaves /etc/passwd.
    if (failure.code === 2) return undefined;
    if (failure.code !== 'ENOENT') throw new SandboxError(`Cannot look up the account ${user}: ${failure.detail}`);
    const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '');
    line = passwd.split('\n').find((entry) => entry.split(':')[0] === user);
  }
  const fields = line?.split(':') ?? [];
  const parsed = passwdEntrySchema.safeParse({ user: fields[0], uid: fields[2], gid: fields[3] });
  return parsed.success && parsed.data.user === user ? parsed.data : undefined;
}

/**
 * Processes of `uid` outside the kept trees. /proc/<pid>/status is readable by every account, so no
 * switch is needed to find them; a kept root may belong to another account (sudo, as root).
 */
async function strayProcesses(uid: number, keptRoots: ReadonlySet<number>): Promise<number[]> {
  const entries = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  const children = new Map<number, number[]>();
  const ofAccount: number[] = [];
  await Promise.all(
    entries.map(async (entry) => {
      const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
      const realUid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
      const pid = Number(entry);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
      if (realUid === uid) ofAccount.push(pid);
    }),
  );
  const spared = new Set<number>();
  const queue = [...keptRoots];
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    if (spared.has(pid)) continue;
    spared.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return ofAccount.filter((pid) => !spared.has(pid));
}

function helperPath(deps: SandboxDeps): string {
  return deps.path ?? process.env.PATH ?? '/usr/bin:/bin';
}

/** useradd is in sbin, which a root job's PATH may lack. */
function findUseradd(): string {
  return ['/usr/sbin/useradd', '/sbin/useradd'].find((file) => existsSync(file)) ?? 'useradd';
}

interface RunFailure {
  /** Exit code, or the spawn error's code (e.g. ENOENT). */
  code: number | string | null;
  detail: string;
}

/** Runs a short helper without a shell; rejects with a RunFailure. */
function run(file: string, args: string[], pathList: string): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: '/', env: { PATH: pathList }, encoding: 'utf8', timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) {
        resolve({ stdout });
        return;
      }
      const code = (error as NodeJS.ErrnoException & { code?: number | string }).code ?? null;
      reject({ code, detail: stderr.trim() || error.message } satisfies RunFailure);
    });
  });
}
