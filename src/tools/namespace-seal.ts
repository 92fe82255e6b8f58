import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatDestination, type Destination } from '../scope/network-destinations.js';
import { errorMessage } from '../text/error-message.js';
import { startEgressProxy, type EgressProxy } from './egress-proxy.js';
import { bridgeProgram } from './namespace-bridge.js';
import { proxyEnvironment } from './proxy-environment.js';
import { emptyTally, newSince, proxyRefused } from './refusal-tally.js';
import { helperPrograms, locate, run, type RunFailure } from './run-helper.js';
import { SandboxError, type Sandbox, type SandboxDeps } from './sandbox-types.js';

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
 * Loopback inside is the namespace's own: a repository's test servers work, the host's loopback
 * services are not reached. Inside, the process is root of its user namespace, which is the user
 * outside it and nobody more (files it writes are the user's).
 *
 * Where no namespace can be made, nothing runs (`ready` throws, and `refusal` says so before
 * approval, in the caller's words for the cause and the opt-out).
 */
export interface NamespaceSealOptions {
  destinations: readonly Destination[];
  /** The words for a machine where the network cannot be sealed: the cause, and the caller's opt-out. */
  impossible: (cause: string) => string;
  /** Where unshare and ip are found, and where the proxy's folder is made (tmpDir). */
  deps?: SandboxDeps;
  /** Default: process.platform. */
  platform?: NodeJS.Platform;
  /** The node program the bridge runs in. Default: process.execPath. */
  node?: string;
}

/** What a namespace needs on the host, found once: the programs, by absolute path. */
interface Means {
  unshare: string;
  ip: string;
}

interface Seal {
  proxy: EgressProxy;
  folder: string;
  socket: string;
  /** The bridge's port inside every namespace: free there, since nothing else runs in it yet. */
  port: number;
}

/** The unshare options: a user namespace (no privilege needed) that owns a new network namespace. */
const unshareArgs = ['--user', '--map-root-user', '--net', '--'];

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

  const probe = () => (probing ??= findMeans(options.platform ?? process.platform, deps));

  const install = async (): Promise<Seal> => {
    const found = await probe();
    if (typeof found === 'string') throw new SandboxError(options.impossible(found));
    means = found;
    return openProxy(destinations, deps);
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
    plan(argv, env, secretNames) {
      if (!seal || !means) throw new SandboxError('The sandbox is not ready; call ready() first.');
      const proxied = { ...env, ...proxyEnvironment(`http://127.0.0.1:${seal.port}`) };
      const inner = sandbox.plan(argv, proxied, secretNames);
      return {
        file: means.unshare,
        args: [
          ...unshareArgs,
          node,
          '-e',
          bridgeProgram,
          seal.socket,
          String(seal.port),
          means.ip,
          inner.file,
          ...inner.args,
        ],
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
        await rm(s.folder, { recursive: true, force: true });
      }
    },
  };
}

/** The egress proxy on a unix socket in a new folder only this user can enter, so only this user's processes reach it. */
async function openProxy(destinations: readonly Destination[], deps: SandboxDeps): Promise<Seal> {
  const folder = await mkdtemp(path.join(deps.tmpDir ?? tmpdir(), 'plangate-net-'));
  const socket = path.join(folder, 'proxy.sock');
  try {
    const proxy = await startEgressProxy({ destinations, socketPath: socket });
    return { proxy, folder, socket, port: randomInt(20_000, 60_000) };
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

/**
 * unshare and ip, and proof that a namespace can be made and its loopback brought up here, by
 * making one; otherwise why not, in words that name the cause.
 */
async function findMeans(platform: NodeJS.Platform, deps: SandboxDeps): Promise<Means | string> {
  if (platform !== 'linux') return `network namespaces exist only on Linux, and this is ${platform}`;
  const programs = helperPrograms(deps);
  let found: Means;
  try {
    found = { unshare: locate(programs, 'unshare'), ip: '' };
  } catch {
    return `unshare (util-linux) is not installed: there is no unshare program on PATH (${programs.path})`;
  }
  try {
    found.ip = locate(programs, 'ip');
  } catch {
    return `ip (iproute2), which brings up loopback inside the namespace, is not installed: there is no ip program on PATH (${programs.path})`;
  }
  try {
    await run(programs, found.unshare, [...unshareArgs, found.ip, 'link', 'set', 'lo', 'up']);
  } catch (error) {
    const detail = (error as Partial<RunFailure>).detail ?? errorMessage(error);
    return `unshare cannot make a network namespace as this user (${detail.split('\n')[0] ?? detail}): user namespaces are not allowed here (see the sysctls user.max_user_namespaces, kernel.unprivileged_userns_clone or kernel.apparmor_restrict_unprivileged_userns)`;
  }
  return found;
}
