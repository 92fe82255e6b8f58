import { asRoot, launcher, setprivArgs, type Helpers, type Switch } from './account-switch.js';
import { locate, type RunFailure } from './run-helper.js';

/**
 * Each command in a PID namespace of its own, so that nothing it starts outlives it: the command
 * is the namespace's first process, and when it ends the kernel kills everything else in the
 * namespace at once (a process that forks every millisecond, or one that left its session with
 * setsid, included) before the command's end is reported. Inside, the command sees only its own
 * processes in /proc: not the stdio MCP servers, which run as the same account outside it, nor
 * anything else on the machine.
 *
 * The namespace is made as root (`unshare --pid --fork --kill-child --mount-proc`, directly or
 * through `sudo -n`), which then switches to the account with `setpriv`, as the root switch always
 * does (account-switch.ts); so it needs no user namespace, which some kernels and AppArmor profiles
 * refuse to unprivileged users.
 *
 * Why this and not the others:
 * - A second account for the MCP servers would let `kill -1` as the commands' account end the
 *   commands alone, and would work where no namespace can be made, but doubles what every job
 *   prepares for an account (its HOME, the toolchain entries, the firewall rules, the passage to the
 *   work tree, the clean-up of a killed job's leftovers), lends the work tree to two owners in turn,
 *   and leaves a command's view of the machine as it is.
 * - A cgroup per command ended with `cgroup.kill` ends a command's processes as atomically, but
 *   needs a writable cgroup v2 hierarchy delegated to the action (a container without privileges has
 *   none, as it has no namespaces) and hides nothing: a command would still see the servers in /proc.
 * - A namespace costs one more short-lived process per command (unshare, which waits for it) and a
 *   proc mount, a few milliseconds; on GitHub-hosted runners sudo makes it as root. Its first process
 *   is the command itself, as in a container run without an init: a signal the command sends itself
 *   without a handler is ignored, and the command inherits the orphans of what it starts.
 *
 * Where the namespace can be made, the sweep still runs after each command (it ends what an MCP
 * server started outside its own tree, and is the only guarantee where no namespace can be made).
 *
 * Where the namespace cannot be made (a container without CAP_SYS_ADMIN, whose seccomp profile
 * refuses unshare; unshare or setpriv missing), commands run as before, in the account's one process
 * list, and the sweep after each (account-processes.ts) ends what they leave; a process it cannot
 * end fails the command and is named.
 */

/** unshare's options: a PID namespace, its first process forked, killed with unshare, and its own /proc. */
const unshareOptions = ['--pid', '--fork', '--kill-child', '--mount-proc'];

/**
 * The program line that starts what follows it as the account's command in a namespace of its
 * own, run as root: unshare, then setpriv's switch, each by absolute path. SandboxError when either
 * program cannot be found.
 */
export function namespaceLauncher(h: Helpers, p: Switch): string[] {
  return [
    launcher(h.programs, 'unshare'),
    ...unshareOptions,
    '--',
    launcher(h.programs, 'setpriv'),
    ...setprivArgs(p.identity),
  ];
}

/**
 * Why commands cannot get a namespace of their own here, found by starting one as the account
 * (`true` in it); undefined: they can. Once per run, before the first command.
 */
export async function pidNamespaceRefusal(h: Helpers, p: Switch): Promise<string | undefined> {
  try {
    const [unshare = '', ...rest] = namespaceLauncher(h, p);
    await asRoot(h, unshare, [...rest, locate(h.programs, 'true')], p.how);
    return undefined;
  } catch (error) {
    const failure = error as Partial<RunFailure>;
    return failure.detail ?? (error instanceof Error ? error.message : String(error));
  }
}
