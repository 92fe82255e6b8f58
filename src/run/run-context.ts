import type { ForkedTree } from '../repo/work-tree.js';
import type { PushGate } from '../repo/push-gate.js';
import type { Command } from './command.js';
import type { Thread } from '../github/thread.js';
import type { LockHolder } from '../github/lock.js';
import type { CapabilityHub } from '../mcp/hub.js';
import type { ChatClient } from '../models/chat-client.js';
import type { Git } from '../repo/git.js';
import type { TrustedBase } from '../repo/trusted-config.js';
import type { Settings } from '../config/settings.js';
import type { Sandbox } from '../sandbox/sandbox.js';

/**
 * What every flow is handed by the composition root: settings, the GitHub thread, git in the
 * workspace and the two model clients. Flows own no clients, so tests pass fakes in.
 */
export interface RunContext {
  settings: Settings;
  thread: Thread;
  /** The host's git on the agents' work tree (see repo/work-tree.ts). */
  git: Git;
  /** The same repository for the agents' read tools. */
  reader: Git;
  /** Where and as whom commands and stdio MCP servers run; its work tree is the agents' workspace. */
  sandbox: Sandbox;
  /**
   * A work tree of its own for a plan step that runs beside others (repo/work-tree.ts `fork`);
   * absent where there is none to make: steps then run one at a time.
   */
  forkTree?: (name: string) => Promise<ForkedTree>;
  /**
   * The gate every push of the job passes (repo/push-gate.ts): an execution binds its approved
   * scope to it before anything is pushed. Absent where nothing is pushed (the CLI).
   */
  pushGate?: Pick<PushGate, 'bind'>;
  /**
   * The default branch's commit the run read its configuration from: what the host trusts when the
   * work starts anywhere else (a pull request's head, another base branch).
   */
  trusted: TrustedBase;
  planner: ChatClient;
  executor: ChatClient;
  /** The key plan records are signed and verified with (see record/record-key.ts); empty: none. */
  recordKey: string;
  /** Every secret the run holds, for scrubbing what models and GitHub see. */
  secrets: readonly string[];
  /** One execution per issue at a time, across jobs. */
  lock: ExecutionLocks;
  /** Link to this job's run page, for comments and the PR. */
  runUrl: string;
  /**
   * The action's clock, in milliseconds since the epoch: what GitHub's timestamps (an approval's
   * creation) are compared with. Tests pass their own.
   */
  now(): number;
  /**
   * The MCP servers of this action run, started on first use and shared by every team the run
   * summons; main.ts closes them at the end. Absent: the run has none.
   */
  mcp?: CapabilityHub;
  /** Writes the job summary; a no-op where the runner offers none. */
  writeSummary(markdown: string): Promise<void>;
  /**
   * Registers what to say if the job is stopped (cancelled, out of time) while the flow runs; the
   * returned function withdraws it. Absent where nothing sends stop signals (unit tests, the CLI).
   */
  onStop?(hook: StopHook): () => void;
}

/** Says on the thread that the job was stopped by `signal`; bounded by the stop handler, may fail. */
export type StopHook = (signal: string) => Promise<void>;

/** The per-issue execution lock, bound to this job's run. */
export interface ExecutionLocks {
  acquire(
    issue: number,
    baseSha: string,
  ): Promise<{ acquired: true; release(): Promise<void> } | { acquired: false; holder: LockHolder }>;
}

/** What the run's model calls added up to, for the action's outputs. */
export interface UsageTotals {
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
  /** Null when a model's price is unknown. */
  costUsd: number | null;
}

/** What a flow reports back; main.ts turns it into the action's outputs. */
export interface FlowResult {
  outcome: 'planned' | 'asked' | 'answered' | 'done' | 'aborted' | 'amendment' | 'refused' | 'ignored' | 'failed';
  planId?: string;
  branch?: string;
  prNumber?: number;
  prUrl?: string;
  usage?: UsageTotals;
  /** Why the step fails, when the outcome is `failed` for a reason the flow can name. */
  failure?: string;
}

export type CommandOf<K extends Command['kind']> = Extract<Command, { kind: K }>;
