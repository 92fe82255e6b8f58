import type { CommandIsolation, NetworkMode } from '../../config/input-schemas.js';
import type { Destination } from '../../scope/network-destinations.js';
import type { Programs } from '../../repo/programs.js';

/**
 * The sandbox's contract and the words for its failures, apart from the two ways of keeping it
 * (the action's own user, a separate account) so that callers depend on what a sandbox promises.
 */

export type { CommandIsolation };

/** The account plangate creates (or reuses) when `command-user` names none. */
export const defaultSandboxAccount = 'plangate-sandbox';

/** Nothing can run isolated here, or the account cannot be used; the message says what to fix. */
export class SandboxError extends Error {
  override name = 'SandboxError';
}

/** A process of the sandbox account, as the sweep names it. */
export interface AccountProcess {
  pid: number;
  /** Its command line, words joined by spaces and cut to a line; empty when it could not be read. */
  command: string;
}

/**
 * Processes of the account still ran after everything it ran outside the kept trees was ended
 * (sandbox/account/account-processes.ts), so the work tree cannot be lent safely again while they run. The
 * message names each one; `survivors` holds them for the caller's own words.
 */
export class LeftRunningError extends SandboxError {
  override name = 'LeftRunningError';

  constructor(
    message: string,
    readonly survivors: readonly AccountProcess[],
  ) {
    super(message);
  }
}

/**
 * What a process the sandbox starts is: a command (the default), whose processes end with it, or a
 * process that lives across commands (a stdio MCP server), which the caller keeps (`keep`).
 */
export interface PlanOptions {
  /** Variables of `env` that must appear on no command line (where every account could read them). */
  secretNames?: readonly string[];
  /** `run`: a process that lives as long as the run, such as a stdio MCP server. Default: `command`. */
  lifetime?: 'command' | 'run';
}

/** How to start one process: spawn's file, arguments and complete environment. */
export interface SpawnPlan {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Set when a wrapper (env, setpriv) starts the program: it reports a missing one as exit code 127. */
  wrapped: boolean;
}

/** Where the executor's commands and stdio MCP servers run; see sandbox.ts for why and how. */
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
   * How to start argv with exactly `env` as the account. A command (the default `lifetime`) runs
   * where everything it starts ends with it, where the runner allows (sandbox/account/account-pid-namespace.ts).
   * Call after `ready`.
   */
  plan(argv: readonly string[], env: NodeJS.ProcessEnv, options?: PlanOptions): SpawnPlan;
  /**
   * Runs `work` with the work tree (or `tree`, another folder of the same enclosure) lent to the
   * account, then ends what it left running and takes the tree back. Throws LeftRunningError, once
   * the tree is back, when a process of the account outside the kept ones could not be ended, and
   * SandboxError (nothing runs, nothing is lent) while such a process still runs.
   */
  lend<T>(work: () => Promise<T>, tree?: string): Promise<T>;
  /**
   * The same sandbox (account, network, HOME) working in `tree`, another folder of the work tree's
   * enclosure: for a plan step that runs beside others in a work tree of its own. Every loan of the
   * sandbox and its views waits for the one before it, so no command sees another session's tree
   * lent and no sweep ends another session's command. Absent where steps cannot run apart.
   */
  inTree?(tree: string): Sandbox;
  /**
   * Destinations the sealed network refused since the last call (sandbox/network/network-seal.ts), so each
   * piece of work can report its own; always empty where the network is not sealed.
   */
  refusedSince(): Promise<RefusedDestination[]>;
  /**
   * Keeps, of the destinations the network allows, only what `approved` names (as people write them:
   * the approved scope's `network`, which the plan narrowed and amendments widened), so a destination
   * the plan did not name, or one added to the workflow after the approval, is not reached. Call before the first process starts; no effect where the network is not sealed.
   */
  limitNetwork(approved: readonly string[]): void;
  /**
   * Why the account cannot run `program` (a name on PATH or a path) when it lies in a PATH folder
   * closed to the account that could not be opened (sandbox/account/toolchain-access.ts): the cause and the fix.
   */
  programOutOfReach?(program: string): string | undefined;
  /**
   * Ends every process of the account except the kept ones, without waiting to see them gone (a
   * command's end or timeout; `lend` checks after it). Never throws: it is cleanup.
   */
  sweep(): Promise<void>;
  /** Keeps a long-lived process (and its children) alive across sweeps; returns the release. */
  keep(pid: number): () => void;
  /** Ends everything the account runs and removes its HOME and temp dir; nothing starts after. Never throws. */
  close(): Promise<void>;
}

/** A destination the sealed network refused: by the firewall (any protocol) or by the egress proxy (a name not allowed). */
export interface RefusedDestination {
  /** As people write it: `10.0.0.5:443 (tcp)`, `example.com:443`. */
  destination: string;
  by: 'firewall' | 'proxy';
  /** Packets (firewall) or requests (proxy). */
  attempts: number;
  /** The proxy's reason, when it gave one. */
  reason?: string;
}

/** What this runner allows for switching accounts. */
export type AccountSwitch = { kind: 'root' } | { kind: 'sudo' } | { kind: 'impossible'; cause: string };

/** How the switch is made; tests substitute sudo, pretend not to be root, or move the temp dir. */
export interface SandboxDeps {
  /** Whether this process may switch accounts itself. Default: `process.getuid() === 0`. */
  isRoot?: boolean;
  /** The sudo program, by absolute path. Default: `sudo`, found by `programs`. */
  sudo?: string;
  /**
   * Where the helpers (sudo, setpriv, env, getent, useradd, chown, find) are found, and the PATH
   * they and the account's processes get (absolute entries only). Default: this process's PATH.
   */
  programs?: Programs;
  /** Where the account's HOME and temp dir are made. Default: the system's temp dir. */
  tmpDir?: string;
}

/** What createSandbox is asked for: how to isolate, as whom, and which folder to lend. */
export interface SandboxOptions {
  isolation: CommandIsolation;
  /** The account to use; empty or undefined: {@link defaultSandboxAccount}. */
  account?: string;
  workTree: string;
  /**
   * The folder around `workTree`, closed to every other account (repo/work-tree.ts): once the
   * account is prepared, its group alone may pass through it. Unset: the account must already be
   * able to reach `workTree`.
   */
  enclosure?: string;
  deps?: SandboxDeps;
  /**
   * Folders the account must never be let through to (the runner's workspace and temp folder):
   * no PATH folder above them is opened for a toolchain (sandbox/account/toolchain-access.ts).
   */
  keepClosed?: readonly string[];
  /** The network its processes get (sandbox/network/network-seal.ts); unset: the runner's, unchanged. */
  network?: { mode: NetworkMode; destinations: readonly Destination[] };
}

/** The account as the system knows it. */
export interface AccountIdentity {
  user: string;
  uid: number;
  gid: number;
}
