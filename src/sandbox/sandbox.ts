import { absolutePath, lookUp } from '../repo/programs.js';
import { accountSandbox } from './account/account-sandbox.js';
import { sealNetwork } from './network/network-seal.js';
import type { RefusedDestination, Sandbox, SandboxOptions } from './account/sandbox-types.js';
import { noteTreeChange } from './tree-changes.js';

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
 * Ending processes: each command runs in a PID namespace of its own where the runner allows
 * (sandbox/account/account-pid-namespace.ts), which the kernel ends with it, and where it sees its own
 * processes only, not the stdio MCP servers'. Then, after every command, everything the account
 * still runs is ended, except the process trees `keep` names (the stdio MCP servers, which live as
 * long as the run; sandbox/account/account-processes.ts), and a process that could not be ended fails the
 * command, named, and stops every further loan while it runs. That is why the account must be
 * dedicated to plangate, and may be neither root nor the action's own user.
 */

// The sandbox's parts, re-exported so that its users keep one import for all of them.
export {
  defaultSandboxAccount,
  LeftRunningError,
  SandboxError,
  type AccountIdentity,
  type AccountProcess,
  type AccountSwitch,
  type CommandIsolation,
  type PlanOptions,
  type Sandbox,
  type SandboxDeps,
  type SandboxOptions,
  type SpawnPlan,
  type RefusedDestination,
} from './account/sandbox-types.js';
export {
  isolationImpossible,
  missingProgram,
  probeAccountSwitch,
  saysProgramMissing,
  sudoPlan,
} from './account/account-switch.js';
export { lookUpAccount } from './account/account-prepare.js';
export { noteTreeChange, treeChangeCount } from './tree-changes.js';
export { unrecordedDestinations } from './network/refusal-tally.js';
// The local command's seal: its commands run as the user, in namespaces of their own.
export { sealInNamespace } from './network/namespace-seal.js';

/** A sandbox for `options.workTree`; nothing happens until `ready`. */
export function createSandbox(options: SandboxOptions): Sandbox {
  const sandbox = options.isolation === 'none' ? ownUserSandbox(options) : accountSandbox(options);
  const sealed = options.network ? sealNetwork(sandbox, { ...options.network, deps: options.deps ?? {} }) : sandbox;
  return withTreeViews(noteChangesOnReturn(sealed));
}

/**
 * Whatever runs in the sandbox may change the work tree only while it is lent, so the end of every
 * loan is noted as a possible change (tree-changes.ts), whichever tool lent it.
 */
function noteChangesOnReturn(sandbox: Sandbox): Sandbox {
  return {
    ...sandbox,
    async lend(work, tree) {
      try {
        return await sandbox.lend(work, tree);
      } finally {
        noteTreeChange(tree ?? sandbox.workTree);
      }
    },
  };
}

/**
 * The sandbox and its views on other work trees (`inTree`), with one queue for every loan: the
 * account runs one piece of work at a time, so a sweep after one command never ends another
 * session's, and only the tree of the work under way is lent. A view's refusals are read at the end
 * of each of its own loans, inside the queue, so each session is told only what its commands met.
 */
function withTreeViews(sandbox: Sandbox): Sandbox {
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work);
    queue = next.catch(() => undefined);
    return next;
  };
  const view = (tree: string): Sandbox => {
    let refused: RefusedDestination[] = [];
    return {
      ...sandbox,
      workTree: tree,
      lend: (work) =>
        serially(async () => {
          try {
            return await sandbox.lend(work, tree);
          } finally {
            refused = [...refused, ...(await sandbox.refusedSince())];
          }
        }),
      refusedSince: () => {
        const since = refused;
        refused = [];
        return Promise.resolve(since);
      },
      inTree: view,
    };
  };
  return { ...sandbox, lend: (work, tree) => serially(() => sandbox.lend(work, tree)), inTree: view };
}

/**
 * Everything as the action's own user: the explicit opt-out. Only the process group is ended. A
 * bare program name is found on the absolute entries of the PATH the process gets (and only those
 * are passed on), never in the work tree it starts in; an unknown one is left for spawn to report.
 */
function ownUserSandbox({ workTree, deps }: SandboxOptions): Sandbox {
  return {
    account: undefined,
    workTree,
    ready: () => Promise.resolve(),
    refusal: () => Promise.resolve(undefined),
    plan(argv, env) {
      const pathList = absolutePath(env.PATH ?? deps?.programs?.path ?? process.env.PATH);
      const name = argv[0] ?? '';
      return {
        file: lookUp(name, pathList) ?? name,
        args: argv.slice(1),
        env: { ...env, PATH: pathList },
        wrapped: false,
      };
    },
    lend: (work) => work(),
    sweep: () => Promise.resolve(),
    keep: () => () => undefined,
    refusedSince: () => Promise.resolve([]),
    limitNetwork: () => undefined,
    close: () => Promise.resolve(),
  };
}
