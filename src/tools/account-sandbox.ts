import os from 'node:os';
import { absolutePath } from '../repo/programs.js';
import { asRoot, launcher, probeAccountSwitch, setprivArgs, sudoPlan, type Helpers } from './account-switch.js';
import { accountUsedBy } from './account-in-use.js';
import { removeLeftovers } from './account-leftovers.js';
import { removeAccountTempFiles } from './account-temp-files.js';
import { prepareAccount, type Prepared } from './account-prepare.js';
import { sweepAccount } from './account-processes.js';
import { helperPrograms } from './run-helper.js';
import {
  defaultSandboxAccount,
  SandboxError,
  type Sandbox,
  type SandboxDeps,
  type SandboxOptions,
} from './sandbox-types.js';
import { closeToolchains, openToolchains, outOfReachText, type ToolchainAccess } from './toolchain-access.js';
import { lendWorkTree, openEnclosure, takeBackWorkTree } from './work-tree-loan.js';

/**
 * The sandbox that runs processes under a separate unprivileged account (see sandbox.ts for why):
 * the account prepared once, processes started through setpriv or sudo, the work tree lent for each
 * piece of work, and everything the account left running ended after it (and, once, before the
 * first: what a killed earlier job left). What the account owns in the shared temp places is
 * removed before the first and when the sandbox closes (account-temp-files.ts).
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

  const sweep = async () => (prepared ? sweepAccount(h, prepared, kept) : undefined);

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
      refuseWhenClosed();
      const p = prepared;
      if (!p) throw new SandboxError('The sandbox is not ready; call ready() first.');
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
      if (p.how === 'root') {
        // setpriv keeps the environment it is given; nothing of it reaches a command line.
        const setpriv = launcher(h.programs, 'setpriv');
        return { file: setpriv, args: [...setprivArgs(p.identity), ...argv], env: full, wrapped: true };
      }
      return { ...sudoPlan(p.identity.user, full, argv, secretNames, h.programs), file: launcher(h.programs, h.sudo) };
    },
    async lend(work, tree = options.workTree) {
      const p = await ensure();
      refuseWhenClosed();
      await lendWorkTree(h, p, tree);
      try {
        return await work();
      } finally {
        await sweep();
        await takeBackWorkTree(h, p, tree);
      }
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
      await sweep();
      await takeBackWorkTree(h, p, options.workTree).catch(() => undefined);
      await closeToolchains(h, p, p.access.granted);
      await removeAccountFolder(h, p);
      await removeAccountTempFiles(h, p, deps.tmpDir ?? os.tmpdir(), spared(options.enclosure));
    },
  };
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
    await sweepAccount(h, p, kept);
    await removeLeftovers(h, p, tmpDir);
    await removeAccountTempFiles(h, p, tmpDir, [p.dir, ...spared(enclosure)]);
    if (enclosure !== undefined) await openEnclosure(h, p, enclosure);
  } catch (error) {
    // Nothing of this run starts as the account: its HOME folder goes, and with it this run's mark on the account.
    await removeAccountFolder(h, p);
    throw error;
  }
  // The toolchains on the PATH, which setup actions put where only the runner user may pass.
  return { ...p, access: await openToolchains(h, p, h.programs.path, keepClosed) };
}

/** A prepared account with the PATH folders opened to it for the run. */
type Ready = Prepared & { access: ToolchainAccess };

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
