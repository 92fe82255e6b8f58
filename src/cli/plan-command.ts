import type { Flags } from './args.js';
import { CliError } from './cli-error.js';
import { currentHead } from './local-repo.js';
import { localDefaults, readLocalSettings } from './local-settings.js';
import { planLocally, type PlanningOutcome } from './local-planning.js';
import { teamSetup, withSession, type CommandContext, type LocalSession } from './local-session.js';
import type { LocalPlan } from './plan-store.js';
import { renderPlanText, renderUsageText } from './text-render.js';
import { checksForStagedPlan } from '../checks/plan-checks-run.js';
import { plannerUsageSince } from '../checks/cost-estimate.js';
import { settingsBehind } from '../checks/finding-text.js';
import type { Finding } from '../checks/plan-checks.js';
import type { PlanChecks } from '../checks/stored-checks.js';
import type { Plan } from '../machine/fields.js';
import { emptyUsage } from '../models/usage.js';
import { renderChecksText } from '../render/checks.js';
import { renderScopeText } from '../render/scope.js';

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
      await showPlan(session, outcome.plan);
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

/**
 * The plan as a reviewer must see it before approving: id, base, steps, the first directive, and the
 * checks the action's plan comment shows (protected paths, verify commands, cycles, the estimate),
 * made by the same code against the plan's own rules.
 */
export async function showPlan(session: LocalSession, plan: LocalPlan): Promise<void> {
  const { terminal } = session;
  const { context } = plan.snapshot;
  terminal.out(`Plan ${plan.planId}: ${context.objective.split('\n')[0] ?? ''}`);
  terminal.out(
    `Base: ${plan.base.ref} (${plan.base.sha.slice(0, 7)}) · planner ${plan.models.planner} · executor ${plan.models.executor}`,
  );
  if (context.plan) terminal.out(`\nSteps:\n${renderPlanText(context.plan, plan.scope?.parallelSteps)}`);
  if (context.directive)
    terminal.out(`\nFirst directive for the executor:\n${context.directive.trim().replace(/^/gm, '  ')}`);
  const rules = plan.allowedCommands.length ? plan.allowedCommands.join(', ') : 'none';
  terminal.out(`\nCommands the executor may run: ${rules}\nProtected paths: ${plan.protectedPaths.join(', ')}`);
  if (context.plan) terminal.out(`\n${renderChecksText(await localChecks(session, plan, context.plan), localFix)}`);
  const refused = await commandsRefused(session, plan, context.plan);
  if (refused !== undefined) terminal.out(`\n⚠️ ${refused}`);
  if (plan.scope) terminal.out(`\n${renderScopeText(plan.scope)}`);
}

/** The action's checks (checks/plan-checks-run.ts) of a local plan: its rules, base commit and planning usage. */
function localChecks(session: LocalSession, plan: LocalPlan, steps: Plan): Promise<PlanChecks> {
  return checksForStagedPlan({
    plan: steps,
    // Local commands run as the user (no account switch); a network that cannot be sealed is said
    // apart (commandsRefused), in the CLI's words, not the action's.
    rules: {
      protectedPaths: plan.protectedPaths,
      allowedCommands: plan.allowedCommands,
      maxIterations: plan.snapshot.policy.maxIterations,
    },
    git: session.repo.git,
    baseSha: plan.base.sha,
    planning: plannerUsageSince(plan.usage, emptyUsage()),
    executorModel: plan.models.executor,
    prices: session.prices,
  });
}

/**
 * Why no command of this plan could run here (the sealed network cannot be made), said before
 * approval as the action's plan comment says it; undefined when commands can run or the plan needs
 * none (no allowed command and no verify step).
 */
async function commandsRefused(
  session: LocalSession,
  plan: LocalPlan,
  steps: Plan | undefined,
): Promise<string | undefined> {
  const needsCommands = plan.allowedCommands.length > 0 || (steps?.steps.some((step) => step.verify?.trim()) ?? false);
  return needsCommands ? session.sandbox.refusal() : undefined;
}

/** What a local user changes when a check blocks the plan: the flags behind it, or the objective. */
function localFix(blocking: readonly Finding[]): string {
  const flags = settingsBehind(blocking).map((name) => `--${name}`);
  const these = blocking.length === 1 ? 'this' : 'these';
  return `To fix: plan again${flags.length ? ` with ${flags.join(', ')} changed, or` : ''} with an objective that avoids ${these}.`;
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
