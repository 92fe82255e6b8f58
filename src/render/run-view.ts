import type { Plan } from '../machine/fields.js';
import type { Snapshot } from '../machine/types.js';
import type { RoleUsageSummary } from '../models/usage.js';
import type { CostEstimate } from '../checks/cost-estimate.js';
import type { KeptOutChange } from '../repo/change-gate.js';
import type { ReviewThreadRef } from './review-threads.js';
import type { PlannedActual } from './planned-actual.js';

/** Everything the progress comment, the pull request and the job summary show about one run. */
export interface RunView {
  planId: string;
  issue: number;
  isPullRequest: boolean;
  /** The run's commits go on the pull request it was asked on (`issue`), which then shows the run. */
  sameBranch?: boolean;
  approvedBy: string;
  requestedBy: string;
  branch: string;
  baseRef: string;
  runUrl: string;
  pullRequestUrl?: string;
  snapshot: Snapshot;
  /**
   * The plan as it was approved. A replan may revise `snapshot`'s plan; the progress comment and the
   * pull request then show the changes against this one, so a reviewer sees where the run departed.
   */
  approvedPlan?: Plan;
  usage: RoleUsageSummary[];
  /** A note the reader must see, e.g. that the planner failed and the executor worked alone. */
  notice?: string;
  /** Set when the run stopped on an error it can resume from. */
  interrupted?: string;
  /** `git diff --stat` of the work branch against the plan's base, raw; the pull request bounds it. */
  diffStat?: string;
  /** The execution estimate the plan was approved with, shown beside the actual cost. */
  estimate?: CostEstimate;
  /** Changes the commit gate kept out of the run's commits (protected paths, `.git`, nested repositories). */
  keptOut?: KeptOutChange[];
  /** What the sealed network refused the run's commands: by command, each destination once. */
  networkRefused?: ReadonlyArray<{ command: string; destination: string }>;
  /** The review threads the planner was given (a run on a pull request): listed with links. */
  reviewThreads?: readonly ReviewThreadRef[];
  /** Set when the run stopped to ask for a wider scope: the amendment a maintainer approves to resume it. */
  waitingFor?: { amendmentId: string; url: string; reason: string };
  /** The approval set beside what the run did (the pull request and the job summary). */
  contract?: PlannedActual;
  /**
   * Plan steps (from 1) while a batch of steps runs at once, filled by the host: running now, finished,
   * and waiting for others to finish. Absent for a plan carried out one step after another.
   */
  steps?: { running: number[]; done: number[]; waiting: number[] };
  /** Set when the run has ended: done or aborted, with the reason. */
  ended?: { outcome: 'done' | 'aborted'; reason?: string };
}
