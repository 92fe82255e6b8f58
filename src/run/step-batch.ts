import * as core from '@actions/core';
import type { Plan, PlanStep, StepReport } from '../machine/fields.js';
import type { Snapshot } from '../machine/types.js';
import { finishedSteps, isStepGraph, readySteps } from '../machine/step-order.js';
import type { DriveOptions } from '../agents/drive.js';
import type { SummonOptions } from '../agents/team.js';
import { stageChecked } from '../repo/change-gate.js';
import { botIdentity, GitError, type Git } from '../repo/git.js';
import type { ForkedTree } from '../repo/work-tree.js';
import { commitTrailers } from '../render/commit-trailers.js';
import { commitMessage } from './work-branch.js';
import { inScope, type ApprovedScope } from '../scope/approved-scope.js';
import { scopePath } from '../text/literal-path.js';
import { errorMessage } from '../text/error-message.js';
import type { Progress } from './checkpoint.js';
import { readHeld, restoreHeld, type HeldFile } from './step-held-changes.js';
import type { ExecutionRun, StepBatchRecord } from './execution-run.js';

/**
 * The steps of a step graph carried out together. When the executor is due and the plan orders its
 * steps (`after`), the steps ready now (machine/step-order.ts) each get an executor session of their
 * own, in a work tree of their own forked from the same commit, held to the paths of that step
 * alone; their commands run one at a time through the one sandbox account (sandbox/sandbox.ts). A
 * finished step is committed through the commit gate, its commit pushed to a bookkeeping ref and
 * named in the checkpoint, so a job killed mid-batch keeps it. Once every step is in, they are
 * merged into the work branch in plan order; a step whose changes conflict with what merged before
 * it runs again on the merged tree (never dropped, never merged with markers), and its history
 * entry says so. The machine then gets the batch's reports together (event `steps`).
 */

/** Where a step's finished commit waits for its merge: a ref beside the branches, not a branch anyone reviews. */
export function stepRef(planId: string, step: number): string {
  return `refs/plangate/steps/${planId}/${step}`;
}

/**
 * The runner drive() calls when the executor is due; undefined where steps cannot run apart (no
 * forked work trees, a sandbox without views), so they run one at a time as any plan's.
 */
export function stepBatchRunner(
  run: ExecutionRun,
  progress: Progress,
  halted: () => boolean,
  stepsAtOnce: number,
): DriveOptions['runSteps'] {
  const { ctx } = run;
  const fork = ctx.forkTree;
  const inTree = ctx.sandbox.inTree?.bind(ctx.sandbox);
  if (!fork || !inTree) return undefined;
  return async (s, limits) => {
    const plan = s.context.plan;
    if (!isStepGraph(plan)) return undefined;
    // A batch never runs more steps than the cycles left: each step is a cycle.
    const room = Math.max(1, s.policy.maxIterations - s.iteration);
    const ready = readySteps(plan, finishedSteps(s.context.history), Math.min(stepsAtOnce, room));
    const batch = new Batch(run, s, plan, ready, { fork, inTree, limits, halted });
    return batch.carryOutAll(progress);
  };
}

interface Means {
  fork: (name: string) => Promise<ForkedTree>;
  inTree: NonNullable<ExecutionRun['ctx']['sandbox']['inTree']>;
  limits: SummonOptions;
  halted: () => boolean;
}

type Finished = StepBatchRecord['steps'][number];

class Batch {
  private readonly git: Git;
  private readonly author: { name: string; email: string };
  private readonly trailers: string[];
  /** Steps whose commit is on its ref on origin (pushed by this job, or kept from an earlier one). */
  private readonly onRefs = new Set<number>();
  /** What the commit gate held back in each step's tree, to be kept in the main tree after the merge. */
  private readonly held = new Map<number, HeldFile[]>();

  constructor(
    private readonly run: ExecutionRun,
    private readonly s: Snapshot,
    private readonly plan: Plan,
    private readonly ready: number[],
    private readonly means: Means,
  ) {
    const { ctx, record } = run;
    this.git = ctx.git;
    this.author = botIdentity(ctx.settings.botLogin);
    this.trailers = commitTrailers({
      planId: record.planId,
      approvedBy: record.approvedBy,
      requestedBy: record.requestedBy,
      botLogin: ctx.settings.botLogin,
    });
  }

  async carryOutAll(progress: Progress): Promise<StepReport[] | null> {
    const base = await this.git(['rev-parse', 'HEAD']);
    const kept = await this.adopted(base);
    this.run.batch = { base, steps: kept };
    const pending = this.ready.filter((n) => !kept.some((f) => f.step === n));
    if (kept.length > 0) core.info(`Keeping step ${kept.map((f) => f.step).join(', ')} from the earlier attempt.`);
    core.info(`Running step ${pending.join(', ')} of plan ${this.run.record.planId} together.`);
    const running = new Set(pending);
    const save = () => progress.save(this.s, { steps: this.view(running) });
    // A step alone is checkpointed by the cycle's own save after its merge, as any cycle is. Of steps
    // together, each one finished is pushed to its ref and checkpointed at once, with the steps still
    // running (but the last, whose merge and save follow straight away), so a job killed mid-batch
    // keeps it. The batch's start is not a write of its own: GitHub paces many writes.
    const together = pending.length > 1;
    const settled = await Promise.allSettled(
      pending.map(async (n) => {
        const finished = await this.carryOut(n, base, this.ready, { keep: together });
        if (finished === undefined || this.means.halted()) return;
        this.record(finished);
        running.delete(n);
        if (together && running.size > 0) await save();
      }),
    );
    // Every session has ended, so a failure is raised only now, with the finished steps kept.
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    if (this.means.halted()) return null;
    const done = this.run.batch.steps;
    // A step stopped before it staged its outcome (the approved budget is spent): the batch waits for the next job.
    if (this.ready.some((n) => !done.some((f) => f.step === n))) return null;
    return this.mergeInOrder(base);
  }

  /** Runs step `n` in a fresh work tree from HEAD and commits what it changed on `base`. */
  private async carryOut(
    n: number,
    base: string,
    together: readonly number[],
    { note, keep }: { note?: string; keep: boolean },
  ): Promise<Finished | undefined> {
    const { run, s } = this;
    const step = this.plan.steps[n - 1] as PlanStep;
    const scope = run.scopeEnforced ? stepScope(run.scope, step) : undefined;
    const tree = await this.means.fork(`step-${n}`);
    try {
      const protectedPaths = run.ctx.settings.protectedPaths;
      const cycle = s.iteration + this.ready.indexOf(n) + 1;
      const report = await run.team.summonStep(
        {
          step: n,
          together,
          directive: this.directive(n),
          sandbox: this.means.inTree(tree.path),
          reader: tree.reader,
          ...(scope ? { scope } : {}),
          afterCommand: async () => run.keptOut.keep(await stageChecked(tree.git, protectedPaths, scope)),
          onCommand: (command, refused) =>
            run.ran.push({
              cycle,
              command,
              ...(refused.length ? { refused: refused.slice(0, 20).map((r) => r.destination) } : {}),
            }),
          ...(note ? { note } : {}),
        },
        this.means.limits,
      );
      if (report === undefined || this.means.halted()) return undefined;
      const commit = await this.commit(tree, n, base, scope, keep);
      return { ...report, ...(commit ? { commit } : {}) };
    } finally {
      await tree.close();
    }
  }

  /** The directive of step `n`: the planner's for the first step of the batch when it wrote one, else the step as the plan says it. */
  private directive(n: number): string {
    const staged = this.s.context.directive;
    if (staged !== undefined && n === this.ready[0]) return staged;
    return stepDirective(this.plan.steps[n - 1] as PlanStep, n);
  }

  /**
   * Commits the step's tree through the commit gate (held to the step's own paths) as one commit on
   * `base`, and pushes it to the step's ref; undefined when the step changed nothing that lands.
   */
  private async commit(
    tree: ForkedTree,
    n: number,
    base: string,
    scope: ApprovedScope | undefined,
    keep: boolean,
  ): Promise<string | undefined> {
    const { run } = this;
    const keptOut = await stageChecked(tree.git, run.ctx.settings.protectedPaths, scope);
    const notice = run.keptOut.keep(keptOut);
    if (notice) core.info(notice);
    this.held.set(n, await readHeld(tree.path, keptOut, (path) => !run.scopeEnforced || inScope(path, run.scope)));
    const [changed, unchanged] = await Promise.all([
      tree.git(['write-tree']),
      this.git(['rev-parse', `${base}^{tree}`]),
    ]);
    if (changed === unchanged) return undefined;
    const title = (this.plan.steps[n - 1]?.title ?? '').split('\n')[0]?.slice(0, 60) ?? '';
    const message = await commitMessage(
      `plangate: step ${n} of plan ${run.record.planId}: ${title}\n\nRefs #${run.record.issue}`,
      this.trailers,
    );
    const sha = await tree.git([
      '-c',
      `user.name=${this.author.name}`,
      '-c',
      `user.email=${this.author.email}`,
      'commit-tree',
      changed,
      '-p',
      base,
      '-m',
      message,
    ]);
    if (keep && !this.means.halted()) {
      await this.git(['push', '--quiet', '--force', 'origin', `${sha}:${stepRef(run.record.planId, n)}`]);
      this.onRefs.add(n);
    }
    return sha;
  }

  /** The steps running now, those done (earlier batches' and this one's) and those waiting, for the progress comment. */
  private view(running: ReadonlySet<number>): { running: number[]; done: number[]; waiting: number[] } {
    const done = new Set([
      ...finishedSteps(this.s.context.history),
      ...(this.run.batch?.steps ?? []).map((f) => f.step),
    ]);
    const all = this.plan.steps.map((_, i) => i + 1);
    return {
      running: all.filter((n) => running.has(n)),
      done: all.filter((n) => done.has(n) && !running.has(n)),
      waiting: all.filter((n) => !done.has(n) && !running.has(n)),
    };
  }

  /** Keeps a finished step in the batch record, in plan order, replacing an earlier attempt of it. */
  private record(finished: Finished): void {
    const batch = this.run.batch as StepBatchRecord;
    const steps = [...batch.steps.filter((f) => f.step !== finished.step), finished];
    steps.sort((a, b) => a.step - b.step);
    this.run.batch = { ...batch, steps };
  }

  /**
   * The steps an earlier attempt finished in this same batch (its checkpoint names them), each
   * still on its ref at the commit named; anything else runs again.
   */
  private async adopted(base: string): Promise<Finished[]> {
    const earlier = this.run.batch;
    this.run.batch = undefined;
    if (!earlier || earlier.base !== base) return [];
    const kept: Finished[] = [];
    for (const f of earlier.steps) {
      if (!this.ready.includes(f.step)) continue;
      if (f.commit === undefined) kept.push(f);
      else if (await this.fetched(f.step, f.commit)) {
        kept.push(f);
        this.onRefs.add(f.step);
      } else
        core.warning(`Step ${f.step} of the earlier attempt is no longer where its checkpoint says; it runs again.`);
    }
    return kept;
  }

  private async fetched(n: number, commit: string): Promise<boolean> {
    const ref = stepRef(this.run.record.planId, n);
    try {
      await this.git(['fetch', '--no-tags', '--quiet', 'origin', `+${ref}:${ref}`]);
      return (await this.git(['rev-parse', `${ref}^{commit}`])) === commit;
    } catch {
      return false;
    }
  }

  /**
   * Merges the finished steps into the work branch in plan order; a step that conflicts with what
   * merged before it runs again on the merged tree and merges then. Pushes the branch once.
   */
  private async mergeInOrder(base: string): Promise<StepReport[] | null> {
    const { run } = this;
    const reports: StepReport[] = [];
    const merged: number[] = [];
    for (const n of this.ready) {
      const finished = (run.batch as StepBatchRecord).steps.find((f) => f.step === n) as Finished;
      const { commit, ...report } = finished;
      if (commit === undefined) {
        reports.push(report);
        continue;
      }
      if (await run.work.merge(commit, mergeMessage(n, run.record.planId))) {
        merged.push(n);
        reports.push(report);
        continue;
      }
      const note = `Its changes conflicted with step ${merged.join(', ')} merged before it, so it ran again on the merged tree; what it reported the first time: ${clipped(report.result)}`;
      core.info(`Step ${n} conflicts with step ${merged.join(', ')}; running it again on the merged tree.`);
      const head = await this.git(['rev-parse', 'HEAD']);
      const again = await this.carryOut(n, head, [n], { note: rerunNote(merged), keep: false });
      if (again === undefined || this.means.halted()) return null;
      const { commit: redone, ...rerun } = again;
      if (redone !== undefined && !(await run.work.merge(redone, mergeMessage(n, run.record.planId))))
        throw new Error(`step ${n} run again on the merged tree still does not merge`);
      merged.push(n);
      reports.push({ ...rerun, ...(report.together ? { together: report.together } : {}), note });
    }
    for (const n of this.ready) await restoreHeld(run.ctx.sandbox.workTree, this.held.get(n) ?? []);
    await run.work.push();
    await this.forgetRefs([...this.onRefs]);
    run.batch = undefined;
    if (base !== (await this.git(['rev-parse', 'HEAD']))) core.info(`Merged step ${merged.join(', ')} in plan order.`);
    return reports;
  }

  /** The step refs of the batch, now merged: removed, best effort (a leftover one changes nothing). */
  private async forgetRefs(steps: readonly number[]): Promise<void> {
    if (steps.length === 0) return;
    const refs = [...new Set(steps)].map((n) => `:${stepRef(this.run.record.planId, n)}`);
    await this.git(['push', '--quiet', 'origin', ...refs]).catch((error: unknown) => {
      if (!(error instanceof GitError)) throw error;
      core.info(`Could not remove the merged steps' refs: ${errorMessage(error)}`);
    });
  }
}

/**
 * The step's scope: the run's, with only the paths this step names that the run's scope allows
 * (commands and network stay the run's: commands run one at a time, and the network is the sandbox's).
 */
export function stepScope(scope: ApprovedScope, step: PlanStep): ApprovedScope {
  const named = (step.files ?? []).map(scopePath).filter((p) => p !== '');
  return { ...scope, paths: named.filter((p) => inScope(p, scope)) };
}

/** A step as the plan says it, for a step the planner wrote no directive for. */
export function stepDirective(step: PlanStep, n: number): string {
  return [
    `Carry out step ${n} of the approved plan: ${step.title}`,
    step.detail ?? '',
    step.files?.length ? `Files: ${step.files.join(', ')}` : '',
    step.verify ? `Verify: ${step.verify}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

function mergeMessage(n: number, planId: string): string {
  return `plangate: merge step ${n} of plan ${planId}`;
}

function rerunNote(merged: readonly number[]): string {
  return `Your step ran before beside other steps, and its changes conflicted with step ${merged.join(', ')}, which merged first. This work tree holds the merged work: do the step again on top of it, keeping what those steps changed.`;
}

function clipped(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= 300 ? flat : `${flat.slice(0, 299)}…`;
}
