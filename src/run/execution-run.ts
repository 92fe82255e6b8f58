import * as core from '@actions/core';
import type { CommandSource } from './command.js';
import type { Comment } from '../github/thread.js';
import type { ServerFailure } from '../mcp/capability-hub.js';
import type { Snapshot } from '../machine/types.js';
import type { PlanRecord } from '../record/plan-record.js';
import type { RunRecord } from '../record/run-record.js';
import type { AmendmentRecord } from '../record/amendment-record.js';
import { widenScope, type ApprovedScope } from '../scope/approved-scope.js';
import type { RunView } from '../render/run-view.js';
import { commitTrailers } from '../render/commit-trailers.js';
import { readRepositoryInstructions } from '../agents/repository-instructions.js';
import { botIdentity } from '../repo/git.js';
import { stageChecked } from '../repo/change-gate.js';
import type { RunContext } from './run-context.js';
import type { CancelWatch } from './cancel-watch.js';
import { createKeptOutLog, type KeptOutLog } from './cycle-commit.js';
import { instructionsCommit } from './instructions-source.js';
import type { PlanCommentSync } from './plan-comment-sync.js';
import { machineFor, startTeamRun, type TeamRun } from './run-team.js';
import { openWorkBranch, type WorkBranch } from './work-branch.js';
import { applyHeldChanges } from './held-changes.js';

/**
 * Carries out an approved record: the work branch (fresh from the plan's base commit, or resumed
 * from the last checkpoint), the machine driven to its end with a commit, a lease-protected push and
 * a checkpoint in the progress comment after every cycle, then one pull request that carries the
 * whole history. Shared by `/approve` and the policies that execute without one; not a flow itself.
 */
export interface Execution {
  /** The record to carry out, already marked executing with its approver and branch. */
  record: ApprovedRecord;
  /** The plan comment to keep in step with the run; absent when no plan was posted. */
  planComment?: Comment;
  /** The command that started the run, for reactions and the thread. */
  source: CommandSource;
  /** Said in the progress comment and the pull request, e.g. why the planner is missing. */
  notice?: string;
  /** The thread's comments as read at the start of the run: an earlier attempt's checkpoint is among them. */
  comments: readonly Comment[];
  /** The clock of the progress comment's elapsed time and of `timeout-minutes`; tests pass their own. */
  now?: () => number;
  /** The amendment this run's approval grants (`/approve <amendment id>`), verified: the run resumes with it. */
  amendment?: AmendmentRecord & { approvedBy: string };
}

/** An amendment a maintainer approved, as the checkpoint keeps it. */
export type ApprovedAmendment = NonNullable<RunRecord['amendments']>[number];

/** A record an approval (or a policy) put into execution: it names its approver and work branch. */
export type ApprovedRecord = PlanRecord & { approvedBy: string; branch: string };

/**
 * One execution in progress, as its parts (cycles, checkpoint, publish, outcome) share it. The
 * fields that change are the record (its status, at the end) and the pull request (once opened).
 */
export interface ExecutionRun {
  readonly ctx: RunContext;
  readonly execution: Execution;
  record: ApprovedRecord;
  readonly team: TeamRun;
  readonly work: WorkBranch;
  readonly keptOut: KeptOutLog;
  readonly plan: PlanCommentSync;
  readonly cancel: CancelWatch;
  /** Set once the pull request exists; a resumed run knows it from its checkpoint. */
  pullRequest: { number: number; url: string } | undefined;
  /** When the execution first started: a resumed run's elapsed time counts from there. */
  readonly startedAt: number;
  readonly now: () => number;
  /** MCP servers that did not start: named in the progress comment and the pull request. */
  readonly serverFailures: readonly ServerFailure[];
  /** What the run may do: the approved plan's scope widened by every approved amendment. */
  readonly scope: ApprovedScope;
  /** `scope: enforce` (the default): the tools, the commit gate and the budget hold `scope`; else it is only reported. */
  readonly scopeEnforced: boolean;
  /** The amendments approved so far, the one this run's approval grants last. */
  readonly amendments: readonly ApprovedAmendment[];
  /** Set when the run stops to ask for an amendment: the checkpoint says the run waits for it. */
  pendingAmendment: string | undefined;
  /** The commands the executor ran, by cycle (an earlier attempt's included). */
  readonly ran: Array<{ cycle: number; command: string; refused?: string[] }>;
  /** The batch of plan steps under way, as the checkpoint keeps it (run/step-batch.ts); an earlier attempt's at first. */
  batch: StepBatchRecord | undefined;
}

/** A batch of plan steps under way: where the steps started and each one finished so far. */
export type StepBatchRecord = NonNullable<RunRecord['batch']>;

/**
 * Sets up the run: the base commit present, the work branch opened (resumed from the checkpoint's
 * last push), the team started from the checkpoint's snapshot or the approved one.
 */
export async function startExecutionRun(
  ctx: RunContext,
  execution: Execution,
  checkpoint: RunRecord | undefined,
  parts: { plan: PlanCommentSync; cancel: CancelWatch },
): Promise<ExecutionRun> {
  const { settings } = ctx;
  const { record } = execution;
  const { scope, amendments } = grantedScope(record, checkpoint, execution.amendment);
  // Under `scope: report` nothing is refused or held back for the scope; the pull request shows where the run went beyond it.
  const scopeEnforced = settings.scope === 'enforce';
  const held = scopeEnforced ? scope : undefined;
  // Before anything starts in the sandbox: only what the approval named is reached, whatever the workflow
  // says now, under `scope: report` too: a connection let through cannot be reported back.
  if (scope.network !== undefined) ctx.sandbox.limitNetwork(scope.network);
  await ensureCommit(ctx, record.base.ref, record.base.sha);
  // From here on every push is held to the approval: the commits it sends, whichever path sends them.
  ctx.pushGate?.bind({ known: [record.base.sha], protectedPaths: settings.protectedPaths, scope: held });
  let resumed = checkpoint;
  const work = await openWorkBranch(ctx.git, {
    branch: record.branch,
    baseSha: record.base.sha,
    author: botIdentity(settings.botLogin),
    checkpointed: checkpoint?.pushed,
    protectedPaths: settings.protectedPaths,
    ...(held ? { scope: held } : {}),
    trailers: commitTrailers({
      planId: record.planId,
      approvedBy: record.approvedBy,
      requestedBy: record.requestedBy,
      botLogin: settings.botLogin,
    }),
  });
  if (checkpoint?.pushed !== undefined && work.pushed === undefined) {
    // The branch the checkpoint names is gone (deleted to start over): its cycles' work with it.
    core.warning(`${record.branch} no longer exists; plan ${record.planId} starts again from the approved plan.`);
    resumed = undefined;
  }
  // The approved amendment's held-back changes land now, inside the wider scope, with the next commit.
  if (execution.amendment) await applyHeldChanges(ctx.git, execution.amendment);
  // The base commit's (the default branch's, for work based elsewhere), never the work branch's: the
  // executor may have rewritten them there.
  const instructions = await readRepositoryInstructions(ctx.git, instructionsCommit(record.base, ctx.trusted));
  const keptOut = createKeptOutLog(resumed?.keptOut);
  const ran = [...(resumed?.ran ?? [])];
  const team = startTeamRun(
    ctx,
    machineFor(record.machine),
    resumed?.snapshot ?? record.snapshot,
    // What was spent stays spent, whichever snapshot the run starts from.
    checkpoint?.usage ?? record.usage,
    instructions,
    {
      notices: keptOut.notices,
      // Checked right after each command, so the command's own result says what will not land.
      afterCommand: async () => keptOut.keep(await stageChecked(ctx.git, settings.protectedPaths, held)),
      ...(held ? { scope: held } : {}),
      onCommand: (command, refused) =>
        ran.push({
          cycle: team.run.snapshot.iteration + 1,
          command,
          ...(refused.length ? { refused: refused.slice(0, 20).map((r) => r.destination) } : {}),
        }),
    },
  );
  // Started before the first progress comment (the team's drive gets the same answer), so servers
  // that did not start are named there from the first post on, and in the pull request.
  const serverFailures = (await ctx.mcp?.start())?.failures ?? [];
  const now = execution.now ?? Date.now;
  return {
    ctx,
    execution,
    record,
    team,
    work,
    keptOut,
    ...parts,
    pullRequest: resumed?.pullRequest,
    startedAt: checkpoint?.startedAt ?? now(),
    now,
    serverFailures,
    scope,
    scopeEnforced,
    amendments,
    pendingAmendment: undefined,
    ran,
    batch: resumed?.batch,
  };
}

/** The run's scope: the approved plan's, widened by every amendment approved (this run's last). */
function grantedScope(
  record: ApprovedRecord,
  checkpoint: RunRecord | undefined,
  granted: Execution['amendment'],
): { scope: ApprovedScope; amendments: ApprovedAmendment[] } {
  if (!record.scope) throw new Error(`plan ${record.planId} carries no scope`);
  const amendments: ApprovedAmendment[] = [
    ...(checkpoint?.amendments ?? []),
    ...(granted ? [{ id: granted.amendmentId, delta: granted.delta, approvedBy: granted.approvedBy }] : []),
  ];
  return { scope: amendments.reduce((wider, a) => widenScope(wider, a.delta), record.scope), amendments };
}

/** What the progress comment, the pull request and the job summary show of the run at snapshot `s`. */
export function executionView(run: ExecutionRun, s: Snapshot, extra: Partial<RunView> = {}): RunView {
  const { record, execution, ctx, pullRequest } = run;
  const keptOut = run.keptOut.all;
  return {
    planId: record.planId,
    issue: record.issue,
    isPullRequest: execution.source.thread.isPullRequest,
    ...(record.sameBranch ? { sameBranch: true } : {}),
    approvedBy: record.approvedBy,
    requestedBy: record.requestedBy,
    branch: record.branch,
    baseRef: record.base.ref,
    runUrl: ctx.runUrl,
    snapshot: s,
    ...(record.snapshot.context.plan ? { approvedPlan: record.snapshot.context.plan } : {}),
    usage: run.team.usage(),
    ...(execution.notice ? { notice: execution.notice } : {}),
    ...(record.checks ? { estimate: record.checks.estimate } : {}),
    ...(pullRequest ? { pullRequestUrl: pullRequest.url } : {}),
    ...(keptOut.length > 0 ? { keptOut } : {}),
    ...networkRefusedOf(run.ran),
    ...(record.reviewThreads?.length ? { reviewThreads: record.reviewThreads } : {}),
    ...extra,
  };
}

/** Each destination the sealed network refused a command, once per command, for the progress comment. */
function networkRefusedOf(ran: ExecutionRun['ran']): Pick<RunView, 'networkRefused'> {
  const seen = new Map<string, { command: string; destination: string }>();
  for (const r of ran)
    for (const d of r.refused ?? []) seen.set(`${r.command}\0${d}`, { command: r.command, destination: d });
  return seen.size > 0 ? { networkRefused: [...seen.values()] } : {};
}

/** Makes sure the plan's base commit is present, even in a shallow checkout. */
async function ensureCommit(ctx: RunContext, ref: string, sha: string): Promise<void> {
  const present = () =>
    ctx.git(['cat-file', '-e', `${sha}^{commit}`]).then(
      () => true,
      () => false,
    );
  if (await present()) return;
  await ctx.git(['fetch', '--no-tags', '--quiet', 'origin', ref]).catch(() => undefined);
  if (await present()) return;
  await ctx.git(['fetch', '--no-tags', '--quiet', 'origin', sha]);
}
