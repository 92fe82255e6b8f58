import { randomInt } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { formatDestination, type Destination } from '../../scope/network-destinations.js';
import { errorMessage } from '../../text/error-message.js';
import { startEgressProxy, type EgressProxy } from './egress-proxy.js';
import { bridgeProgram, nestedUnshareArgs, type BridgeSpec } from './namespace-bridge.js';
import {
  hiddenFolderAt,
  hiddenFolders,
  mountSteps,
  stageFolder,
  toolTrees,
  type HiddenFolder,
} from './namespace-mounts.js';
import { serviceSockets } from './namespace-sockets.js';
import { proxyEnvironment } from './proxy-environment.js';
import { emptyTally, newSince, proxyRefused } from './refusal-tally.js';
import { helperPrograms, locate, run, type RunFailure } from '../account/run-helper.js';
import { SandboxError, type Sandbox, type SandboxDeps } from '../account/sandbox-types.js';

/**
 * The sealed network for processes that run as the user who started plangate (the local CLI), where
 * no separate account exists for firewall rules to match: each process starts in a network namespace
 * of its own (`unshare --user --map-root-user --net`, which needs no privilege where the kernel allows
 * user namespaces). In it only loopback exists, so a raw socket, a DNS query or IPv6 gets nowhere,
 * whatever the process does. The one way out is the host's egress proxy (egress-proxy.ts), which
 * listens on a unix socket in a folder only this user can enter; a bridge started first in the
 * namespace (namespace-bridge.ts) carries connections from 127.0.0.1:<port> to it, and the process's
 * proxy variables name that port. What the proxy refused is reported after every piece of work
 * (`refusedSince`), as with the firewall rules (network-seal.ts).
 *
 * A network namespace shares the file system, where the user's own services (tmux, the systemd user
 * manager, the session and system buses, docker) listen on Unix sockets and would run anything, on
 * any network, for the process. So the namespace has a mount namespace too (`--mount`), in which the
 * bridge replaces the folders those sockets live in and covers the known ones elsewhere
 * (namespace-mounts.ts, namespace-sockets.ts), then starts the process in a user namespace nested in
 * its own, which cannot undo that.
 *
 * Loopback inside is the namespace's own: a repository's test servers work, the host's loopback
 * services are not reached. Inside, the process is root of its user namespace, which is the user
 * outside it and nobody more (files it writes are the user's).
 *
 * Where no namespace can be made, or no mount namespace, nothing runs (`ready` throws, and `refusal`
 * says so before approval, in the caller's words for the cause and the opt-out).
 */
export interface NamespaceSealOptions {
  destinations: readonly Destination[];
  /** The words for a machine where the network cannot be sealed: the cause, and the caller's opt-out. */
  impossible: (cause: string) => string;
  /** Where unshare, ip and mount are found, and where the run's folder (the proxy's) is made (tmpDir). */
  deps?: SandboxDeps;
  /** Default: process.platform. */
  platform?: NodeJS.Platform;
  /** The node program the bridge runs in. Default: process.execPath. */
  node?: string;
}

/** What a namespace needs on the host, found once: the programs, by absolute path, and the folders it hides. */
interface Means {
  unshare: string;
  ip: string;
  mount: string;
  folders: HiddenFolder[];
}

interface Seal {
  proxy: EgressProxy;
  /** The run's folder, only this user's: the proxy's socket, the stage folders and the commands' own temp folders. */
  folder: string;
  socket: string;
  /** The bridge's port inside every namespace: free there, since nothing else runs in it yet. */
  port: number;
}

/**
 * The unshare options: a user namespace (no privilege needed) that owns a new network namespace and
 * a new mount namespace, whose mounts never propagate back out.
 */
const unshareArgs = ['--user', '--map-root-user', '--net', '--mount', '--propagation', 'private', '--'];

/** `sandbox` (one that runs processes as this user) with every process it starts in a sealed namespace. */
export function sealInNamespace(sandbox: Sandbox, options: NamespaceSealOptions): Sandbox {
  const deps = options.deps ?? {};
  const node = options.node ?? process.execPath;
  let probing: Promise<Means | string> | undefined;
  let sealing: Promise<Seal> | undefined;
  let seal: Seal | undefined;
  let means: Means | undefined;
  let reported = emptyTally();
  let destinations = options.destinations;

  const probe = () => (probing ??= findMeans(options.platform ?? process.platform, deps, sandbox.workTree));

  const install = async (): Promise<Seal> => {
    const found = await probe();
    if (typeof found === 'string') throw new SandboxError(options.impossible(found));
    means = found;
    return openProxy(destinations, deps, found.folders);
  };

  return {
    ...sandbox,
    async ready() {
      await sandbox.ready();
      // Remembered, failure included: nothing may run unsealed after a failed attempt.
      sealing ??= install().then((s) => (seal = s));
      await sealing;
    },
    async refusal() {
      const inner = await sandbox.refusal();
      if (inner !== undefined) return inner;
      const found = await probe();
      return typeof found === 'string' ? options.impossible(found) : undefined;
    },
    // Steps run apart would get the inner sandbox's views, which are not sealed.
    inTree: undefined,
    plan(argv, env, options) {
      if (!seal || !means) throw new SandboxError('The sandbox is not ready; call ready() first.');
      const proxied = { ...env, ...proxyEnvironment(`http://127.0.0.1:${seal.port}`) };
      const inner = sandbox.plan(argv, proxied, options);
      const spec: BridgeSpec = {
        socket: seal.socket,
        port: seal.port,
        ip: means.ip,
        mount: means.mount,
        unshare: means.unshare,
        steps: viewSteps(means, seal, sandbox.workTree, inner.file, inner.env),
      };
      return {
        file: means.unshare,
        args: [...unshareArgs, node, '-e', bridgeProgram, JSON.stringify(spec), inner.file, ...inner.args],
        env: inner.env,
        wrapped: true,
      };
    },
    limitNetwork(approved) {
      if (sealing !== undefined)
        throw new SandboxError('The network was sealed before the approved scope was known; nothing may widen it now.');
      destinations = destinations.filter((d) => approved.includes(formatDestination(d)));
    },
    refusedSince() {
      if (!seal) return Promise.resolve([]);
      const now = { counts: new Map<string, number>(), proxyRefusals: proxyRefused(seal.proxy) };
      const fresh = newSince(reported, now);
      reported = now;
      return Promise.resolve(fresh);
    },
    async close() {
      await sandbox.close();
      const s = seal;
      seal = undefined;
      if (s) {
        await s.proxy.close();
        // With the commands' temp folders; what one of them made unremovable (a folder of mode 0) stays.
        await rm(s.folder, { recursive: true, force: true }).catch(() => undefined);
      }
    },
  };
}

/**
 * The mount steps of one process's view (namespace-mounts.ts): it keeps its work tree, HOME, PATH
 * folders, program and the proxy's socket, finds its temp folders empty, and none of the services'
 * sockets found now, the user's or those its environment names.
 */
function viewSteps(means: Means, seal: Seal, workTree: string, file: string, env: NodeJS.ProcessEnv) {
  const programs = [file, means.unshare, means.mount].filter((f) => path.isAbsolute(f)).map((f) => path.dirname(f));
  const pathFolders = (env.PATH ?? '').split(path.delimiter);
  const temps = [env.TMPDIR, env.TMP, env.TEMP].filter((t): t is string => t !== undefined);
  // The user's HOME too: an MCP server gets it from the SDK when it starts, after this plan.
  const homes = [homedir(), process.env.HOME, env.HOME].filter((h): h is string => h !== undefined && h !== '');
  return mountSteps({
    folders: means.folders,
    runFolder: seal.folder,
    kept: [
      workTree,
      seal.socket,
      ...homes,
      ...pathFolders,
      ...programs,
      ...toolTrees(means.folders, [...pathFolders, ...programs]),
    ],
    fresh: temps,
    sockets: serviceSockets(homes, [process.env, env]),
  });
}

/**
 * The egress proxy on a unix socket in a new folder only this user can enter, so only this user's
 * processes reach it; the folder also holds the stage folders of the hidden folders' replacements and
 * the commands' own temp folders.
 */
async function openProxy(
  destinations: readonly Destination[],
  deps: SandboxDeps,
  folders: readonly HiddenFolder[],
): Promise<Seal> {
  const folder = await mkdtemp(path.join(deps.tmpDir ?? tmpdir(), 'plangate-net-'));
  const socket = path.join(folder, 'proxy.sock');
  try {
    for (const [index, hidden] of folders.entries()) {
      await mkdir(stageFolder(folder, index), { recursive: true });
      if ('own' in hidden.replacement) {
        const own = path.join(folder, hidden.replacement.own);
        await mkdir(own);
        // As /tmp is: everyone's, sticky (only this user exists in the namespace; the run's folder keeps others out).
        await chmod(own, 0o1777);
      }
    }
    const proxy = await startEgressProxy({ destinations, socketPath: socket });
    return { proxy, folder, socket, port: randomInt(20_000, 60_000) };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

/** The options of the bare network namespace the first probe makes, as the seal had them before it hid folders. */
const networkOnlyArgs = ['--user', '--map-root-user', '--net', '--'];

/** The first line of a failed helper's words. */
function firstLine(error: unknown): string {
  const detail = (error as Partial<RunFailure>).detail ?? errorMessage(error);
  return detail.split('\n')[0] ?? detail;
}

/**
 * unshare, ip and mount, and proof that a namespace can be made here, its loopback brought up, a
 * folder hidden in it and a user namespace nested in it, by making them; otherwise why not, in words
 * that name the cause. A work tree that is itself one of the hidden folders is a cause too: the
 * command would not find it.
 */
async function findMeans(platform: NodeJS.Platform, deps: SandboxDeps, workTree: string): Promise<Means | string> {
  if (platform !== 'linux') return `network namespaces exist only on Linux, and this is ${platform}`;
  const programs = helperPrograms(deps);
  let found: Means;
  try {
    found = { unshare: locate(programs, 'unshare'), ip: '', mount: '', folders: hiddenFolders() };
  } catch {
    return `unshare (util-linux) is not installed: there is no unshare program on PATH (${programs.path})`;
  }
  try {
    found.ip = locate(programs, 'ip');
  } catch {
    return `ip (iproute2), which brings up loopback inside the namespace, is not installed: there is no ip program on PATH (${programs.path})`;
  }
  try {
    found.mount = locate(programs, 'mount');
  } catch {
    return `mount (util-linux), which hides your services' sockets from commands, is not installed: there is no mount program on PATH (${programs.path})`;
  }
  const hidden = hiddenFolderAt(found.folders, workTree);
  if (hidden !== undefined)
    return `the work tree is ${hidden} itself, a folder commands get an empty replacement of (it holds other programs' sockets); clone the repository into a folder of its own`;
  try {
    await run(programs, found.unshare, [...networkOnlyArgs, found.ip, 'link', 'set', 'lo', 'up']);
  } catch (error) {
    return `unshare cannot make a network namespace as this user (${firstLine(error)}): user namespaces are not allowed here (see the sysctls user.max_user_namespaces, kernel.unprivileged_userns_clone or kernel.apparmor_restrict_unprivileged_userns)`;
  }
  const target = found.folders[0]?.at ?? '/tmp';
  try {
    await run(programs, found.unshare, [...unshareArgs, found.mount, '-n', '-t', 'tmpfs', 'plangate', target]);
  } catch (error) {
    return `unshare cannot make a mount namespace that hides ${target} as this user (${firstLine(error)}), so commands would reach your services' sockets there (tmux, the systemd user manager, docker)`;
  }
  try {
    await run(programs, found.unshare, [...unshareArgs, found.unshare, ...nestedUnshareArgs, found.ip, '-V']);
  } catch (error) {
    return `unshare cannot make a user namespace inside the command's namespace as this user (${firstLine(error)}), so a command could undo the mounts that hide your services' sockets (see the sysctl user.max_user_namespaces)`;
  }
  return found;
}
