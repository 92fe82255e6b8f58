import type { Helpers } from '../account/account-switch.js';
import { findIptables, installIptablesRules } from './network-iptables.js';
import { findNft, installNftRules } from './network-nftables.js';
import type { BlockedDestination, NetworkRules, NetworkRulesOptions, RulesRefusals } from './network-rules-types.js';
import { SandboxError } from '../account/sandbox-types.js';

/**
 * The operating system's half of the sealed network: firewall rules, matched on the sandbox
 * account's uid, that let its processes reach loopback only (the host's egress proxy listens there;
 * port 53 excepted, so no DNS query leaves through a local resolver), whatever they try: a raw
 * socket, their own DNS query, IPv6, a tool that ignores proxy settings. The same rules keep every
 * other account (but the action's own) off the proxy's port, so only the sandbox reaches what the
 * proxy lets through. Every refused packet is counted, with its destination where the firewall can
 * record it, so each attempt can be reported.
 *
 * Two firewalls can hold them, chosen once, at start: nftables where `nft` is on the action's PATH
 * (network-nftables.ts), otherwise iptables and ip6tables with the `owner` match, on either of their
 * backends (network-iptables.ts), since a stock runner often has iptables and no nft. Either way the
 * rules end with the job, a SIGKILL of the action included. Where neither is installed, nothing runs.
 */

export type { BlockedDestination, NetworkRules, NetworkRulesOptions, RulesRefusals };

/** Which firewall the rules go in here: the first of nftables and iptables the action's PATH has; undefined: neither. */
export function firewallHere(h: Helpers): 'nftables' | 'iptables' | undefined {
  if (findNft(h) !== undefined) return 'nftables';
  return findIptables(h) !== undefined ? 'iptables' : undefined;
}

/** Why no firewall can hold the rules here, with the fix; undefined: one can. */
export function noFirewall(h: Helpers): string | undefined {
  if (firewallHere(h) !== undefined) return undefined;
  return `neither nftables nor iptables is installed (no nft program, nor iptables, ip6tables, iptables-restore and ip6tables-restore, on PATH: ${h.programs.path}): install one of them in a step before plangate (\`sudo apt-get install -y nftables\` or \`sudo apt-get install -y iptables\`), or add its folder to PATH`;
}

/**
 * Installs the rules in the firewall {@link firewallHere} finds and keeps them until `close`.
 * Throws SandboxError naming the cause when they cannot be installed (no firewall, the kernel refusing).
 */
export async function installNetworkRules(options: NetworkRulesOptions): Promise<NetworkRules> {
  const kind = firewallHere(options.helpers);
  if (kind === 'nftables') return installNftRules(options);
  if (kind === 'iptables') return installIptablesRules(options);
  throw new SandboxError(noFirewall(options.helpers) ?? 'no firewall is installed');
}
