import { totalCost, totalTokens } from '../models/usage.js';
import type { Git } from '../repo/git.js';
import type { PlannedActual } from '../render/planned-actual.js';
import type { Snapshot } from '../machine/types.js';
import type { ExecutionRun } from './execution-run.js';

/**
 * What the pull request and the job summary set beside the approval: the approved plan and scope,
 * each cycle's changed files (read from its commit on the work branch, so nothing is kept twice) and
 * commands, and what the run spent since the approval.
 */
export async function plannedActual(run: ExecutionRun, final: Snapshot): Promise<PlannedActual | undefined> {
  const { record } = run;
  const plan = record.snapshot.context.plan;
  if (!plan || !record.scope) return undefined;
  const files = await filesByCycle(run.ctx.git, record.base.sha, run.work.pushed, record.planId, final);
  const cycles = final.context.history.map((_, i) => ({
    cycle: i + 1,
    files: files.get(i + 1) ?? [],
    commands: run.ran.filter((r) => r.cycle === i + 1).map((r) => r.command),
    refused: run.ran
      .filter((r) => r.cycle === i + 1)
      .flatMap((r) => (r.refused ?? []).map((d) => ({ command: r.command, destination: d }))),
  }));
  const used = (t: ReturnType<typeof totalTokens>) => t.promptTokens + t.completionTokens;
  const ledger = run.team.ledger();
  const cost = totalCost(ledger, run.ctx.settings.prices);
  const planning = totalCost(record.usage, run.ctx.settings.prices);
  return {
    plan,
    scope: record.scope,
    amendments: run.amendments,
    cycles,
    spent: {
      tokens: used(totalTokens(ledger)) - used(totalTokens(record.usage)),
      cycles: final.context.history.length,
      costUsd: cost === null || planning === null ? null : cost - planning,
    },
  };
}

/**
 * The files each cycle's commits between base and tip changed: a `plangate: cycle N of plan <id>`
 * commit is cycle N's; a `plangate: step N of plan <id>` commit (a step run beside others, merged
 * into the branch) is the cycle whose history entry reports step N. A merge brings the step's
 * commit onto the branch, which is read itself, so every file that lands is credited once.
 */
async function filesByCycle(
  git: Git,
  base: string,
  tip: string | undefined,
  planId: string,
  final: Snapshot,
): Promise<Map<number, string[]>> {
  const byCycle = new Map<number, string[]>();
  if (!tip) return byCycle;
  const log = await git([
    'log',
    '--reverse',
    '--no-renames',
    '--format=%x00%s',
    '--name-only',
    `${base}..${tip}`,
  ]).catch(() => '');
  const subject = new RegExp(`^plangate: (cycle|step) (\\d+) of plan ${planId}:`);
  const history = final.context.history;
  const cycleOfStep = (step: number) => history.findLastIndex((h) => h.step === step) + 1;
  for (const entry of log.split('\0').slice(1)) {
    const [first = '', ...rest] = entry.split('\n');
    const [, kind, n] = subject.exec(first) ?? [];
    const cycle = kind === 'cycle' ? Number(n) : kind === 'step' ? cycleOfStep(Number(n)) : 0;
    if (!Number.isInteger(cycle) || cycle < 1) continue;
    const changed = rest.filter((line) => line.trim() !== '');
    byCycle.set(cycle, [...new Set([...(byCycle.get(cycle) ?? []), ...changed])]);
  }
  return byCycle;
}
