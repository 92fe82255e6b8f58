import * as core from '@actions/core';
import os from 'node:os';
import { absolutePath } from '../../repo/programs.js';
import {
  asRoot,
  launcher,
  probeAccountSwitch,
  setprivArgs,
  sudoPlan,
  sudoPlanThrough,
  type Helpers,
} from './account-switch.js';
import { accountUsedBy } from './account-in-use.js';
import { removeLeftovers } from './account-leftovers.js';
import { removeAccountTempFiles } from './account-temp-files.js';
import { prepareAccount, type Prepared } from './account-prepare.js';
import { namespaceLauncher, pidNamespaceRefusal } from './account-pid-namespace.js';
import { endAccountProcesses, killListed, namedProcesses, sweepAccount } from './account-processes.js';
import { helperPrograms } from './run-helper.js';
import {
  defaultSandboxAccount,
  LeftRunningError,
  SandboxError,
  type AccountProcess,
  type PlanOptions,
  type Sandbox,
  type SandboxDeps,
  type SandboxOptions,
  type SpawnPlan,
} from './sandbox-types.js';
import { closeToolchains, openToolchains, outOfReachText, type ToolchainAccess } from './toolchain-access.js';
import { lendWorkTree, openEnclosure, takeBackWorkTree } from './work-tree-loan.js';

/**
 * The sandbox that runs processes under a separate unprivileged account (see sandbox.ts for why):
 * the account prepared once, processes started through setpriv or sudo (a command in a PID
 * namespace of its own where the runner allows: account-pid-namespace.ts), the work tree lent for
 * each piece of work, and everything the account left running ended after it (and, once, before the
 * first: what a killed earlier job left). A process of the account that cannot be ended fails the
 * piece of work it outlived, is named there and in the log, and no work tree is lent again while it
 * runs. What the account owns in the shared temp places is removed before the first and when the
 * sandbox closes (account-temp-files.ts).
 */
export function accountSandbox(options: SandboxOptions): Sandbox {
  const deps = options.deps ?? {};
  const h: Helpers = { sudo: deps.sudo ?? 'sudo', programs: helperPrograms(deps) };
  const name = options.account || defaultSandboxAccount;
  const kept = new Set<number>();
  let preparing: Promise<Ready> | undefined;
  let prepared: Ready | undefined;
  // Once closed, nothing more starts as the account: a run being stopped may still be mid-flow.
  let closed = false;
  const refuseWhenClosed = () => {
    if (closed) throw new SandboxError('The sandbox is closed: the run is ending, and nothing more starts.');
  };

  async function ensure(): Promise<Ready> {
    // Remembered, failure included: no later call may run as the wrong account.
    preparing ??= readyAccount(name, deps, h, kept, options).then((p) => (prepared = p));
    return preparing;
  }

  // At a command's end or timeout. Where it had a namespace of its own, nothing of it can hold its
  // output open once its first process is gone; the sweep after the loan stops what runs outside it.
  const sweep = async () => {
    if (!prepared) return;
    if (prepared.pidNamespaceRefused === undefined && kept.size > 0) await killListed(h, prepared, kept);
    else await sweepAccount(h, prepared, kept);
  };
  // What a sweep could not end; while set, nothing is lent until a sweep ends it.
  let leftRunning: readonly AccountProcess[] = [];

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
    plan(argv, env, planOptions) {
      refuseWhenClosed();
      if (!prepared) throw new SandboxError('The sandbox is not ready; call ready() first.');
      return accountPlan(h, prepared, argv, env, planOptions);
    },
    async lend(work, tree = options.workTree) {
      const p = await ensure();
      refuseWhenClosed();
      if (leftRunning.length > 0) {
        leftRunning = await endAccountProcesses(h, p, kept);
        if (leftRunning.length > 0) throw new SandboxError(stillRunning(p.identity.user, leftRunning));
      }
      await lendWorkTree(h, p, tree);
      let outcome: { value: Awaited<ReturnType<typeof work>> } | { error: unknown };
      try {
        outcome = { value: await work() };
      } catch (error) {
        outcome = { error };
      }
      leftRunning = await endAccountProcesses(h, p, kept);
      await takeBackWorkTree(h, p, tree);
      // Over the work's own result or error: what outlived it is the failure that matters.
      if (leftRunning.length > 0) throw outlivedWork(p.identity.user, leftRunning);
      if ('error' in outcome) throw outcome.error;
      return outcome.value;
    },
    sweep,
    programOutOfReach: (program) =>
      prepared && outOfReachText(prepared.access, program, h.programs.path, prepared.identity.user),
    refusedSince: () => Promise.resolve([]),
    limitNetwork: () => undefined,
    keep(pid) {
      kept.add(pid);
      return () => kept.delete(pid);
    },
    async close() {
      closed = true;
      const p = prepared;
      if (!p) return;
      kept.clear();
      const left = await endAccountProcesses(h, p, kept);
      if (left.length > 0) core.error(outlived(p.identity.user, left, 'as the run ends'));
      await takeBackWorkTree(h, p, options.workTree).catch(() => undefined);
      await closeToolchains(h, p, p.access.granted);
      await removeAccountFolder(h, p);
      await removeAccountTempFiles(h, p, deps.tmpDir ?? os.tmpdir(), spared(options.enclosure));
    },
  };
}

/**
 * How to start argv as the account with exactly `env` plus the account's own HOME, temp dir and
 * names: a command in a PID namespace of its own where the runner allows, anything else (and every
 * command where it does not) through setpriv or sudo alone.
 */
function accountPlan(
  h: Helpers,
  p: Ready,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  { secretNames = [], lifetime = 'command' }: PlanOptions = {},
): SpawnPlan {
  const full: NodeJS.ProcessEnv = {
    ...env,
    // setpriv and env look the program up on it, in the work tree: absolute entries only.
    PATH: absolutePath(env.PATH ?? h.programs.path),
    HOME: p.home,
    TMPDIR: p.tmp,
    TMP: p.tmp,
    TEMP: p.tmp,
    USER: p.identity.user,
    LOGNAME: p.identity.user,
  };
  if (lifetime === 'command' && p.pidNamespaceRefused === undefined) {
    // unshare and setpriv keep the environment they are given, as root; under sudo, env rebuilds it.
    const [unshare = '', ...rest] = namespaceLauncher(h, p);
    if (p.how === 'root') return { file: unshare, args: [...rest, ...argv], env: full, wrapped: true };
    const through = sudoPlanThrough([unshare, ...rest], full, argv, secretNames, h.programs);
    return { ...through, file: launcher(h.programs, h.sudo) };
  }
  if (p.how === 'root') {
    // setpriv keeps the environment it is given; nothing of it reaches a command line.
    const setpriv = launcher(h.programs, 'setpriv');
    return { file: setpriv, args: [...setprivArgs(p.identity), ...argv], env: full, wrapped: true };
  }
  return { ...sudoPlan(p.identity.user, full, argv, secretNames, h.programs), file: launcher(h.programs, h.sudo) };
}

/**
 * The account, prepared for this run. Refused while another job on the machine uses it: this run's
 * sweep would end that job's commands, and each job's commands could read the other's work tree.
 * (This run's HOME folder exists before the check, so of two jobs that start together, at least
 * the later to check sees the other and refuses.) A job killed mid-command (cancelled, timed out) never swept after it: what its
 * commands started may still run as the account, waiting for the next work tree lent to it, its
 * folders in the temp dir may still hold another repository's files, and what its commands wrote to
 * /tmp, /var/tmp or /dev/shm is still there (a job that closed its sandbox removed that itself). All
 * of it is ended or removed before anything of this run starts as the account; then the account
 * alone is let through to the work tree.
 */
async function readyAccount(
  name: string,
  deps: SandboxDeps,
  h: Helpers,
  kept: ReadonlySet<number>,
  { enclosure, keepClosed }: Pick<SandboxOptions, 'enclosure' | 'keepClosed'>,
): Promise<Ready> {
  const p = await prepareAccount(name, deps, h);
  const tmpDir = deps.tmpDir ?? os.tmpdir();
  try {
    const other = await accountUsedBy(p, tmpDir);
    if (other !== undefined)
      throw new SandboxError(
        `command-user ${name} is in use by another plangate job on this machine (process ${other}). Jobs that run at the same time on one machine must each name their own command-user: under a shared one, each job's commands could read the other's files and would end its commands.`,
      );
    const left = await endAccountProcesses(h, p, kept);
    if (left.length > 0) throw new SandboxError(stillRunning(p.identity.user, left));
    await removeLeftovers(h, p, tmpDir);
    await removeAccountTempFiles(h, p, tmpDir, [p.dir, ...spared(enclosure)]);
    if (enclosure !== undefined) await openEnclosure(h, p, enclosure);
  } catch (error) {
    // Nothing of this run starts as the account: its HOME folder goes, and with it this run's mark on the account.
    await removeAccountFolder(h, p);
    throw error;
  }
  const pidNamespaceRefused = await pidNamespaceRefusal(h, p);
  if (pidNamespaceRefused !== undefined)
    core.info(
      `Commands run without a PID namespace of their own on this runner (${pidNamespaceRefused}): after each, plangate ends what ${name} still runs outside the MCP servers, and fails the command, naming them, when any remain.`,
    );
  // The toolchains on the PATH, which setup actions put where only the runner user may pass.
  return { ...p, pidNamespaceRefused, access: await openToolchains(h, p, h.programs.path, keepClosed) };
}

/**
 * A prepared account with the PATH folders opened to it for the run, and why commands cannot have a
 * PID namespace of their own here (undefined: each has one).
 */
type Ready = Prepared & { access: ToolchainAccess; pidNamespaceRefused: string | undefined };

/** The words for processes of the account that outlived what ran as it, one line each. */
function outlived(user: string, left: readonly AccountProcess[], when: string): string {
  return `plangate could not end everything that ran as ${user}: these processes still run ${when}:\n${namedProcesses(left)}`;
}

/** The failure of a piece of work that processes of the account outlived, logged as an error too. */
function outlivedWork(user: string, left: readonly AccountProcess[]): LeftRunningError {
  const message =
    outlived(user, left, 'after the command or MCP server call ended') +
    '\nNo command or MCP server call runs while they do, so nothing they change reaches a work tree. Report this in your result: a maintainer must find what keeps them running; command-user must be an account that nothing else on the runner uses or starts processes as (cron, at, a service).';
  core.error(message);
  return new LeftRunningError(message, left);
}

/** The words for a piece of work refused because processes of the account still run. */
function stillRunning(user: string, left: readonly AccountProcess[]): string {
  return (
    `Processes of ${user} that plangate could not end still run, so nothing was run and no work tree was lent to ${user}:\n${namedProcesses(left)}\n` +
    'Make command-user an account that nothing else on the runner uses or starts processes as (cron, at, a service), or end these processes, then run the job again.'
  );
}

/** This job's folder around the work tree, which the sweep of the temp places leaves to the job. */
function spared(enclosure: string | undefined): string[] {
  return enclosure === undefined ? [] : [enclosure];
}

/** Removes the account's HOME and temp dir, as root: what the account made in them is its own. Never throws. */
async function removeAccountFolder(h: Helpers, p: Prepared): Promise<void> {
  try {
    await asRoot(h, 'rm', ['-rf', '--', p.dir], p.how);
  } catch {
    // A temp dir left behind holds only what the account wrote; the runner discards it.
  }
}
