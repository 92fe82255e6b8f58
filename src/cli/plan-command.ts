import type { Flags } from './args.js';
import { CliError } from './cli-error.js';
import { currentHead } from './local-repo.js';
import { localDefaults, readLocalSettings } from './local-settings.js';
import { planLocally, type PlanningOutcome } from './local-planning.js';
import { teamSetup, withSession, type CommandContext, type LocalSession } from './local-session.js';
import type { LocalPlan } from './plan-store.js';
import { renderPlanText, renderUsageText } from './text-render.js';

/**
 * `plangate plan "<objective>"`: the read-only planner studies the checkout and the plan is printed
 * and saved for `plangate run`. The planner holds no write or command tool, so this command cannot
 * change the work tree whatever the model does.
 */
export async function planCommand(objective: string, flags: Flags, context: CommandContext): Promise<number> {
  return withSession(readLocalSettings(flags, context.env, 'plan'), context, 'planning', async (session) => {
    const outcome = await plan(session, objective);
    const { terminal } = session;
    if (outcome.kind === 'planned') {
      showPlan(session, outcome.plan);
      terminal.out(`\nPlanning cost:\n${renderUsageText(outcome.usage)}`);
      terminal.out(
        `\nSaved as plan ${outcome.plan.planId} (${outcome.file}).\nTo carry it out on a new branch: plangate run`,
      );
      return 0;
    }
    return reportUnplanned(session, outcome);
  });
}

/** Plans at the checkout's HEAD with this invocation's settings. */
export async function plan(session: LocalSession, objective: string): Promise<PlanningOutcome> {
  const base = await currentHead(session.repo.git);
  session.terminal.err(`Planning at ${base.ref} (${base.sha.slice(0, 7)}) with ${session.planner.model}…`);
  return planLocally({
    setup: teamSetup(session),
    objective,
    base,
    requestedBy: session.requestedBy,
    maxIterations: session.settings.maxIterations ?? localDefaults.maxIterations,
  });
}

/** The plan as a reviewer must see it before approving: id, base, steps and the first directive. */
export function showPlan(session: LocalSession, plan: LocalPlan): void {
  const { terminal } = session;
  const { context } = plan.snapshot;
  terminal.out(`Plan ${plan.planId}: ${context.objective.split('\n')[0] ?? ''}`);
  terminal.out(
    `Base: ${plan.base.ref} (${plan.base.sha.slice(0, 7)}) · planner ${plan.models.planner} · executor ${plan.models.executor}`,
  );
  if (context.plan) terminal.out(`\nSteps:\n${renderPlanText(context.plan)}`);
  if (context.directive)
    terminal.out(`\nFirst directive for the executor:\n${context.directive.trim().replace(/^/gm, '  ')}`);
  const rules = plan.allowedCommands.length ? plan.allowedCommands.join(', ') : 'none';
  terminal.out(`\nCommands the executor may run: ${rules}\nProtected paths: ${plan.protectedPaths.join(', ')}`);
}

/**
 * A planning run that produced no plan. A question or a no-change answer is a result for `plan`
 * (exit 0); `run` has nothing to execute, which it reports as a failure.
 */
export function reportUnplanned(
  session: LocalSession,
  outcome: Exclude<PlanningOutcome, { kind: 'planned' }>,
  forRun = false,
): number {
  const { terminal } = session;
  switch (outcome.kind) {
    case 'asked':
      terminal.out(
        `The planner needs a decision before it can plan:\n\n${outcome.question.trim().replace(/^/gm, '  ')}`,
      );
      terminal.out(
        `\nPlan again with your answer in the objective.\n\nPlanning cost:\n${renderUsageText(outcome.usage)}`,
      );
      if (forRun)
        throw new CliError(
          'nothing was executed: the planner asked a question (shown above); run again with the answer in the objective.',
        );
      return 0;
    case 'answered':
      terminal.out(
        `Nothing needs to change:\n\n${outcome.summary.trim().replace(/^/gm, '  ')}\n\nPlanning cost:\n${renderUsageText(outcome.usage)}`,
      );
      return 0;
    case 'failed':
      terminal.err(`Planning cost:\n${renderUsageText(outcome.usage)}`);
      throw new CliError(
        `planning failed: ${outcome.reason}. No plan was saved; try again, perhaps with a more specific objective.`,
      );
  }
}
