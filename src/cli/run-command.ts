import { executorOnlySnapshot } from '../machine/executor-only.js';
import { defaultPolicy } from '../machine/planner-executor.js';
import type { Flags } from './args.js';
import { CliError, UsageError } from './cli-error.js';
import { branchExists, checkBranchName, currentHead, hasCommit } from './local-repo.js';
import { executeLocally, type ExecutionOutcome } from './local-execution.js';
import { proposedPlan } from './local-planning.js';
import { localDefaults, readLocalSettings } from './local-settings.js';
import { teamSetup, withSession, type CommandContext, type LocalSession } from './local-session.js';
import { plan, reportUnplanned, showPlan } from './plan-command.js';
import { loadLastPlan, type LocalPlan } from './plan-store.js';
import { renderHistoryText, renderUsageText } from './text-render.js';
import { errorMessage } from '../text/error-message.js';

/**
 * `plangate run ["<objective>"]`: plan (or take the last saved plan), show it, ask, then execute on
 * a new local branch. Every check that can refuse the run is made before the question, so a "y"
 * is never followed by a refusal, and nothing is written before the answer.
 */
export async function runCommand(
  objective: string | undefined,
  flags: Flags,
  context: CommandContext,
): Promise<number> {
  // The policy decides whether this command can run at all: a usage error beats every other check.
  const settings = readLocalSettings(flags, context.env, 'run');
  const { policy } = settings;
  if (policy === 'plan-only')
    throw new UsageError('the plan-only policy never executes; use plangate plan "<objective>" for a plan.', 'run');
  if (policy === 'executor-only' && objective === undefined)
    throw new UsageError(
      'the executor-only policy needs an objective: plangate run --policy executor-only "<objective>".',
      'run',
    );

  return withSession(settings, context, 'running plangate', (session) => runInSession(session, objective));
}

/** The run once the session is open; its MCP servers are stopped when this returns or throws. */
async function runInSession(session: LocalSession, objective: string | undefined): Promise<number> {
  const { terminal, repo, settings } = session;
  const author = session.identity;
  if (!author)
    throw new CliError(
      'git does not know who you are, and the work is committed in your name: set git config user.name and user.email.',
    );

  const proposed = await proposedPlanFor(session, objective);
  if (typeof proposed === 'number') return proposed;
  const branch = `${settings.branchPrefix}${proposed.planId}`;
  await checkWorkBranch(session, proposed, branch);
  const head = await currentHead(repo.git);

  await showPlan(session, proposed);
  if (head.sha !== proposed.base.sha) {
    terminal.out(
      `\nNote: the plan was made at ${proposed.base.sha.slice(0, 7)}; the work branch starts there, not at your HEAD (${head.sha.slice(0, 7)}).`,
    );
  }
  terminal.out(`\nThe executor will work on a new branch ${branch}, one commit per cycle; nothing is pushed.`);

  const approved = await approval(session, proposed.planId);
  if (!approved) {
    terminal.out(`Plan ${proposed.planId} was not approved; nothing was changed.`);
    return 0;
  }

  const maxIterations = settings.maxIterations ?? proposed.snapshot.policy.maxIterations;
  const setup = teamSetup(session, proposed);
  let outcome: ExecutionOutcome;
  try {
    outcome = await executeLocally({
      setup,
      plan: {
        ...proposed,
        approvedBy: author.name,
        snapshot: { ...proposed.snapshot, policy: { ...proposed.snapshot.policy, maxIterations } },
      },
      branch,
      author,
      ...(settings.maxCostUsd === undefined ? {} : { maxCostUsd: settings.maxCostUsd }),
    });
  } catch (error) {
    const message = errorMessage(error);
    throw new CliError(
      `the run of plan ${proposed.planId} stopped: ${message.replace(/\.$/, '')}. What was committed so far is on branch ${branch}.`,
    );
  }
  return report(session, outcome, branch, head.ref);
}

/** The plan to run: the last one saved (no objective), one made now, or an executor-only start. */
async function proposedPlanFor(session: LocalSession, objective: string | undefined): Promise<LocalPlan | number> {
  const { terminal, repo, settings } = session;
  const { policy } = settings;
  let proposed: LocalPlan;
  if (objective === undefined) {
    proposed = loadLastPlan(repo.gitDir);
    if (proposed.status !== 'proposed') {
      const where = proposed.branch ? ` on branch ${proposed.branch}` : '';
      const what =
        proposed.status === 'executing'
          ? `was started${where} and did not finish; its work so far is on that branch`
          : `was already run${where} (${proposed.status})`;
      throw new CliError(`the last plan, ${proposed.planId}, ${what}; make a new one with plangate run "<objective>".`);
    }
  } else if (policy === 'executor-only') {
    const base = await currentHead(repo.git);
    const snapshot = executorOnlySnapshot(objective, {
      ...defaultPolicy,
      maxIterations: settings.maxIterations ?? localDefaults.maxIterations,
    });
    proposed = proposedPlan(
      { setup: teamSetup(session), base, requestedBy: session.requestedBy },
      'executor-only',
      snapshot,
    );
  } else {
    const outcome = await plan(session, objective);
    if (outcome.kind !== 'planned') return reportUnplanned(session, outcome, true);
    proposed = outcome.plan;
    terminal.out(`Planning cost:\n${renderUsageText(outcome.usage)}\n`);
  }

  return proposed;
}

/** The work branch must be new and the plan's base must still exist. */
async function checkWorkBranch(session: LocalSession, proposed: LocalPlan, branch: string): Promise<void> {
  const { repo } = session;
  await checkBranchName(repo.git, branch);
  if (await branchExists(repo.git, branch)) {
    throw new CliError(
      `branch ${branch} already exists and plangate never touches a branch it did not just create; delete it (git branch -D ${branch}) or make a new plan.`,
    );
  }
  if (!(await hasCommit(repo.git, proposed.base.sha))) {
    throw new CliError(
      `the plan's base commit ${proposed.base.sha.slice(0, 7)} is not in this repository any more; make a new plan.`,
    );
  }
}

/** The approval: the policy, --yes, or a "y" from the user; anything else is a no. */
async function approval(session: LocalSession, planId: string): Promise<boolean> {
  const { settings, terminal } = session;
  if (settings.yes || settings.policy === 'plan-first' || settings.policy === 'executor-only') {
    terminal.err(`Approved by ${settings.yes ? '--yes' : `the ${settings.policy} policy`}.`);
    return true;
  }
  const answer = await terminal.ask(`\nApprove plan ${planId}? [y/N] `);
  if (answer === undefined) {
    // The question is still open on its line; the refusal gets a line of its own.
    terminal.err('');
    throw new CliError(
      `nobody answered the approval question (stdin ended); run plangate in a terminal to answer it, or pass --yes to approve plan ${planId}.`,
    );
  }
  return /^(y|yes)$/i.test(answer.trim());
}

async function report(
  session: LocalSession,
  outcome: ExecutionOutcome,
  branch: string,
  startedOn: string,
): Promise<number> {
  const { terminal, repo } = session;
  const { final, plan } = outcome;
  terminal.out(`\nHistory:\n${renderHistoryText(final.context.history)}`);
  if (final.context.summary) terminal.out(`\nSummary:\n${final.context.summary.trim().replace(/^/gm, '  ')}`);
  terminal.out(`\nUsage (planning included):\n${renderUsageText(outcome.usage)}`);
  const stat = await repo.git(['diff', '--stat=100', `${plan.base.sha}..${branch}`]).catch(() => '');
  // git's stat lines start with a space, which the git runner trimmed off the first one only.
  if (stat)
    terminal.out(
      `\nChanges on ${branch}:\n${stat
        .split('\n')
        .map((line) => `  ${line.replace(/^ /, '')}`)
        .join('\n')}`,
    );
  const back = startedOn === 'HEAD' ? '' : ` git switch ${startedOn} goes back.`;
  const commits = `${outcome.commits} ${outcome.commits === 1 ? 'commit' : 'commits'}`;
  terminal.out(
    `\nThe work is on branch ${branch} (${commits} on ${plan.base.ref} ${plan.base.sha.slice(0, 7)}); you are on it now.${back} Nothing was pushed.`,
  );
  if (outcome.abortReason !== undefined) {
    terminal.err(`plangate: plan ${plan.planId} aborted: ${outcome.abortReason.split('\n')[0] ?? ''}`);
    return 1;
  }
  terminal.err(`plangate: plan ${plan.planId} done.`);
  return 0;
}
