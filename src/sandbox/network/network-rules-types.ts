import type { Helpers } from '../account/account-switch.js';

/**
 * What the sealed network's firewall rules promise, whichever firewall holds them (network-rules.ts
 * chooses): apart from the two ways of keeping them so that each depends only on the contract.
 */

/** Packets the rules refused, by destination; counts are since the rules were installed. */
export interface BlockedDestination {
  address: string;
  /** The transport protocol: tcp, udp, icmp, … */
  protocol: string;
  /** Undefined for a protocol without ports. */
  port?: number;
  packets: number;
}

/** What the rules refused so far: by destination, and every packet in all. */
export interface RulesRefusals {
  destinations: BlockedDestination[];
  /** Every refused packet, recorded with its destination or not (a table the kernel could not add to). */
  packets: number;
}

export interface NetworkRules {
  /** The firewall that holds them, as the job log names it: `nftables (/usr/sbin/nft)`, `iptables v1.8.9 (legacy)…`. */
  readonly firewall: string;
  /** Where they live: the nftables table `plangate_<pid>`, or the iptables chain `plangate-<pid>-<start>`. */
  readonly name: string;
  /** Every destination refused so far, with its packet count, and the packets refused in all. */
  blocked(): Promise<RulesRefusals>;
  /**
   * Undefined while the rules are in force (their holder runs and the kernel has them); otherwise
   * why they are not, so that nothing runs unsealed.
   */
  inForce(): Promise<string | undefined>;
  /** Removes the rules. Never throws. */
  close(): Promise<void>;
}

export interface NetworkRulesOptions {
  /** The sandbox account's uid: the only one the rules let reach loopback only. */
  uid: number;
  how: 'root' | 'sudo';
  helpers: Helpers;
  /** The egress proxy's port on 127.0.0.1: closed to every account but the sandbox's and the action's own. */
  proxyPort: number;
  /** The action's own uid. Default: this process's. */
  ownUid?: number;
}
