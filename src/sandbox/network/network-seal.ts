import * as core from '@actions/core';
import type { NetworkMode } from '../../config/input-schemas.js';
import {
  formatDestination,
  narrowDestinations,
  scopeDestinations,
  type Destination,
} from '../../scope/network-destinations.js';
import { lookUpAccount } from '../account/account-prepare.js';
import { probeAccountSwitch } from '../account/account-switch.js';
import { startEgressProxy, type EgressProxy } from './egress-proxy.js';
import {
  installNetworkRules,
  noFirewall,
  type BlockedDestination,
  type NetworkRules,
  type RulesRefusals,
} from './network-rules.js';
import { helperPrograms } from '../account/run-helper.js';
import { proxyEnvironment } from './proxy-environment.js';
import { emptyTally, newSince, proxyRefused, unrecordedDestinations, type Tally } from './refusal-tally.js';
import { SandboxError, type Sandbox, type SandboxDeps } from '../account/sandbox-types.js';

/**
 * The sealed network around a sandbox: before anything of it runs, the operating system's rules
 * (network-rules.ts) close every destination but loopback to the sandbox account, and the host's
 * egress proxy (egress-proxy.ts) on loopback lets through the allowed destinations only. Its
 * processes are told where the proxy is (HTTP_PROXY and the like), which is a convenience: the
 * guarantee is the rules, which a raw socket, a DNS query or IPv6 cannot get past. What either
 * refused is reported after every piece of work (`refusedSince`).
 *
 * Where the rules cannot be installed, nothing runs (the sandbox's `ready` throws, naming the cause,
 * and `refusal` says so before approval), unless the workflow names `network: open`. Before every
 * command and stdio MCP server the rules are checked to be still in force (their holder runs and the
 * kernel has them): where they are not, nothing more runs. The firewall used (nftables, else
 * iptables) is named in the job log when the rules go in.
 */

export interface NetworkSealOptions {
  mode: NetworkMode;
  destinations: readonly Destination[];
  deps?: SandboxDeps;
}

/** `sandbox` with its network sealed as `options` say; with `network: open`, the sandbox as it is. */
export function sealNetwork(sandbox: Sandbox, options: NetworkSealOptions): Sandbox {
  if (options.mode === 'open') return sandbox;
  const deps = options.deps ?? {};
  let sealing: Promise<Seal> | undefined;
  let seal: Seal | undefined;
  let reported = emptyTally();
  let destinations = options.destinations;

  const install = async (): Promise<Seal> => {
    const cause = sealRefusal(sandbox, deps);
    if (cause !== undefined) throw new SandboxError(networkImpossible(cause));
    const identity = sandbox.account ? await lookUpAccount(sandbox.account, helperPrograms(deps)) : undefined;
    if (!identity)
      throw new SandboxError(networkImpossible(`the account ${sandbox.account ?? ''} cannot be looked up`));
    // The account sandbox is ready, so a switch is possible: root, or else sudo.
    const how = (await probeAccountSwitch(deps)).kind === 'root' ? 'root' : 'sudo';
    // The proxy first: the rules close its port to every other account.
    const proxy = await startEgressProxy({ destinations });
    let rules: NetworkRules;
    try {
      rules = await installNetworkRules({
        uid: identity.uid,
        how,
        helpers: { sudo: deps.sudo ?? 'sudo', programs: helperPrograms(deps) },
        proxyPort: Number(new URL(proxy.url).port),
      });
    } catch (error) {
      await proxy.close();
      throw new SandboxError(networkImpossible(error instanceof Error ? error.message : String(error)));
    }
    core.info(
      `The sandbox's network is sealed by ${rules.firewall}: ${identity.user} (uid ${identity.uid}) reaches loopback and, through the egress proxy at ${proxy.url}, the allowed destinations only (rules ${rules.name}).`,
    );
    return { rules, proxy };
  };

  /** Why nothing may run now though the network was sealed: its rules are no longer in force. */
  let broken: string | undefined;
  const stillSealed = async (s: Seal) => {
    broken ??= await s.rules.inForce();
    if (broken !== undefined)
      throw new SandboxError(
        `Commands cannot run: the sandbox's network is no longer sealed (${broken}). Nothing was run, and nothing more will run in this job, so that no command reaches the network unsealed. Run the job again.`,
      );
  };

  return {
    ...sandbox,
    async ready() {
      await sandbox.ready();
      // Remembered, failure included: nothing may run unsealed after a failed attempt.
      sealing ??= install().then((s) => (seal = s));
      // Checked before every command and server: the rules' holder could have been killed since.
      await stillSealed(await sealing);
    },
    async refusal() {
      const inner = await sandbox.refusal();
      if (inner !== undefined) return inner;
      const cause = sealRefusal(sandbox, deps);
      return cause === undefined ? undefined : networkImpossible(cause);
    },
    plan(argv, env, options) {
      if (!seal) throw new SandboxError('The sandbox is not ready; call ready() first.');
      return sandbox.plan(argv, { ...env, ...proxyEnvironment(seal.proxy.url) }, options);
    },
    limitNetwork(approved) {
      if (sealing !== undefined)
        throw new SandboxError('The network was sealed before the approved scope was known; nothing may widen it now.');
      destinations = narrowDestinations(destinations, scopeDestinations(approved));
    },
    async refusedSince() {
      if (!seal) return [];
      const now = await refusedSoFar(seal, reported);
      const fresh = newSince(reported, now);
      reported = now;
      return fresh;
    },
    async close() {
      await sandbox.close();
      const s = seal;
      seal = undefined;
      if (s) await Promise.all([s.proxy.close(), s.rules.close()]);
    },
  };
}

interface Seal {
  rules: NetworkRules;
  proxy: EgressProxy;
}

/**
 * The rules' and the proxy's refusals so far. Reading the rules goes through the firewall (and sudo), which a
 * loaded machine can fail once: it is asked again, and while it cannot answer the counts reported
 * before stand, so a refusal is reported with the next piece of work rather than never.
 */
async function refusedSoFar(seal: Seal, before: Tally): Promise<Tally> {
  let read: RulesRefusals | undefined;
  for (let attempt = 0; attempt < 3 && read === undefined; attempt++)
    read = await seal.rules.blocked().catch(() => undefined);
  if (read === undefined) return { counts: new Map(before.counts), proxyRefusals: proxyRefused(seal.proxy) };
  const counts = new Map(read.destinations.map((b) => [key(b), b.packets]));
  // A packet the chain refused that no set recorded is still reported, without its destination.
  const recorded = read.destinations.reduce((sum, b) => sum + b.packets, 0);
  if (read.packets > recorded) counts.set(unrecordedDestinations, read.packets - recorded);
  return { counts, proxyRefusals: proxyRefused(seal.proxy) };
}

/** A refused packet's destination as people write it: `10.0.0.5:443 (tcp)`, `[fd00::5]:53 (udp)`, `10.0.0.5 (icmp)`. */
function key(b: BlockedDestination): string {
  return `${formatDestination({ host: b.address, ...(b.port !== undefined ? { port: b.port } : {}) })} (${b.protocol})`;
}

/**
 * Why the rules cannot hold this sandbox's processes, found without installing anything; undefined:
 * they can. Whether an account switch is possible at all is the sandbox's own refusal, asked first.
 */
function sealRefusal(sandbox: Sandbox, deps: SandboxDeps): string | undefined {
  if (sandbox.account === undefined)
    return "`command-isolation: none` runs commands as the action's own user, and the network rules hold only a separate account";
  return noFirewall({ sudo: deps.sudo ?? 'sudo', programs: helperPrograms(deps) });
}

/** The words for a runner where the network cannot be sealed: the cause, what was not done, and the opt-out. */
export function networkImpossible(cause: string): string {
  return (
    `Commands cannot run here with a sealed network: ${cause}. plangate lets commands and MCP servers reach only loopback and the destinations \`allowed-domains\` names, by firewall rules on the sandbox account, so that code from the repository cannot send it elsewhere. ` +
    'Nothing was run. Fix the cause, or set the input `network: open` to run them with the network as the runner has it, where they can send the work tree anywhere.'
  );
}
