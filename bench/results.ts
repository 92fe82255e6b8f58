import type { ScenarioFigures, TimingFigures } from './aggregate.js';
import type { BrokenStartFigures } from './broken-start.js';
import type { BundleFigures } from './bundle-size.js';
import type { CostPerCycle } from './cost-per-cycle.js';
import type { RecoveryFigure } from './fault-recovery.js';
import type { GrowthFigures } from './growth-figures.js';
import type { LatencyFigures } from './latency.js';
import type { MachineInfo } from './machine.js';
import type { NpmProxyFigures } from './npm-through-proxy.js';
import type { ScaleFigures } from './repo-scale.js';
import type { TargetResult } from './targets.js';

/** Everything one run measured: the shape of bench/results.json, from which RESULTS.md is rendered. */
export interface BenchResults {
  command: string;
  /**
   * The sources the run measured (scripts/bench-source.mjs): a hash of the files that decide its
   * figures, taken when it started. Absent in results from before the check.
   */
  source?: { hash: string; files: number };
  date: string;
  machine: MachineInfo;
  /** Plays of the timed scenarios and rounds of each tool timing. */
  repeat: number;
  /** dist/: the entry, what an ignored event loads, everything. */
  bundle: BundleFigures;
  /** `node -e 0`, started like the action, timed before every command. */
  baseline: TimingFigures;
  scenarios: ScenarioFigures[];
  /** A job with a broken runner environment failing; absent in results from before the figure. */
  brokenStart?: BrokenStartFigures;
  scale: ScaleFigures[];
  growth: GrowthFigures;
  /** Billed-equivalent tokens per cycle at 1, 3, 6 and 12 cycles; absent in results from before the figure. */
  costPerCycle?: CostPerCycle;
  /** One model request recovering from N transient failures; absent in results from before the figure. */
  recovery?: RecoveryFigure[];
  /** `npm ci` of a real lockfile directly and through the egress proxy; absent in results from before the figure. */
  npmProxy?: NpmProxyFigures;
  /** The latency scenario: independent steps at once against one at a time; absent in results from before the figure. */
  latency?: LatencyFigures;
  wallSeconds: number;
  targets: TargetResult[];
}
