import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  commitAll,
  commitTrailers,
  cycleCommitMessage,
  executorOnlySnapshot,
  machineFor,
  runBudget,
  runEnding,
  startBranch,
  withTrailers
} from "./chunk-PGX75ENN.js";
import {
  branchExists,
  checkBranchName,
  currentHead,
  hasCommit,
  loadLastPlan,
  localDefaults,
  plan,
  proposedPlan,
  readLocalSettings,
  renderHistoryText,
  renderUsageText,
  reportUnplanned,
  savePlan,
  showPlan,
  startLocalTeam,
  teamSetup,
  withSession
} from "./chunk-KIOIKIOY.js";
import {
  CliError,
  UsageError
} from "./chunk-6NVIIRNY.js";
import "./chunk-GUISNBV7.js";
import {
  defaultPolicy,
  isEmptyDelta,
  scopeDelta
} from "./chunk-JF4VOWI3.js";
import "./chunk-L7UZGG4K.js";
import "./chunk-5QKFIOA3.js";
import "./chunk-ORSRIQN3.js";
import "./chunk-T5TEVDNA.js";
import "./chunk-UBTQZF52.js";
import {
  errorMessage
} from "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";

// src/cli/local-execution.ts
var widenLocally = "The work so far is on the branch; to go on, plan again with an objective that names what more is needed";
function describeDelta(delta) {
  return [
    ...delta.paths?.length ? [`changes to ${delta.paths.join(", ")}`] : [],
    ...delta.commands?.length ? [`the commands ${delta.commands.join(", ")}`] : []
  ].join(" and ");
}
async function executeLocally(request) {
  const { setup, branch, author } = request;
  const { git, gitDir } = setup.repo;
  let plan2 = { ...request.plan, status: "executing", branch };
  await startBranch(git, branch, plan2.base.sha);
  savePlan(gitDir, plan2);
  const { scope } = plan2;
  if (!scope) throw new Error(`plan ${plan2.planId} was saved before plans named what a run may change; plan again`);
  const team = await startLocalTeam(setup, machineFor(plan2.machine), plan2.snapshot, plan2.base.sha, plan2.usage, scope);
  const trailers = commitTrailers({
    planId: plan2.planId,
    approvedBy: request.plan.approvedBy,
    requestedBy: plan2.requestedBy,
    botLogin: author.name
  });
  let commits = 0;
  const commitCycle = async (s) => {
    const message = withTrailers(cycleCommitMessage(s, plan2.planId), trailers);
    if ((await commitAll(git, message, author, setup.protectedPaths, scope)).sha) commits += 1;
  };
  const budget = runBudget({ maxCostUsd: request.maxCostUsd }, () => team.totals().costUsd, Date.now, {
    budget: scope.budget,
    ledger: () => team.ledger(),
    atApproval: plan2.usage,
    prices: setup.prices
  });
  const wider = (s) => {
    const delta = s.context.plan && s.state === "execute" ? scopeDelta(scope, s.context.plan, plan2.allowedCommands) : {};
    return isEmptyDelta(delta) ? void 0 : delta;
  };
  const final = await team.drive({ budget, onCycle: commitCycle, until: (s) => wider(s) !== void 0 });
  await commitCycle(final);
  const needs = wider(final);
  const beyond = budget.spent ?? (needs ? `the revised plan needs ${describeDelta(needs)}, beyond what the approval allows` : void 0);
  const ending = beyond !== void 0 ? { outcome: "aborted", reason: `${beyond}. ${widenLocally}` } : runEnding(final);
  plan2 = { ...plan2, status: ending.outcome, usage: team.ledger() };
  savePlan(gitDir, plan2);
  return {
    final,
    plan: plan2,
    usage: team.usage(),
    commits,
    ...ending.outcome === "aborted" ? { abortReason: ending.reason } : {}
  };
}

// src/cli/run-command.ts
async function runCommand(objective, flags, context) {
  const settings = readLocalSettings(flags, context.env, "run");
  const { policy } = settings;
  if (policy === "plan-only")
    throw new UsageError('the plan-only policy never executes; use plangate plan "<objective>" for a plan.', "run");
  if (policy === "executor-only" && objective === void 0)
    throw new UsageError(
      'the executor-only policy needs an objective: plangate run --policy executor-only "<objective>".',
      "run"
    );
  return withSession(settings, context, "running plangate", (session) => runInSession(session, objective));
}
async function runInSession(session, objective) {
  const { terminal, repo, settings } = session;
  const author = session.identity;
  if (!author)
    throw new CliError(
      "git does not know who you are, and the work is committed in your name: set git config user.name and user.email."
    );
  const proposed = await proposedPlanFor(session, objective);
  if (typeof proposed === "number") return proposed;
  const branch = `${settings.branchPrefix}${proposed.planId}`;
  await checkWorkBranch(session, proposed, branch);
  const head = await currentHead(repo.git);
  await showPlan(session, proposed);
  if (head.sha !== proposed.base.sha) {
    terminal.out(
      `
Note: the plan was made at ${proposed.base.sha.slice(0, 7)}; the work branch starts there, not at your HEAD (${head.sha.slice(0, 7)}).`
    );
  }
  terminal.out(`
The executor will work on a new branch ${branch}, one commit per cycle; nothing is pushed.`);
  const approved = await approval(session, proposed.planId);
  if (!approved) {
    terminal.out(`Plan ${proposed.planId} was not approved; nothing was changed.`);
    return 0;
  }
  const maxIterations = settings.maxIterations ?? proposed.snapshot.policy.maxIterations;
  const setup = teamSetup(session, proposed);
  let outcome;
  try {
    outcome = await executeLocally({
      setup,
      plan: {
        ...proposed,
        approvedBy: author.name,
        snapshot: { ...proposed.snapshot, policy: { ...proposed.snapshot.policy, maxIterations } }
      },
      branch,
      author,
      ...settings.maxCostUsd === void 0 ? {} : { maxCostUsd: settings.maxCostUsd }
    });
  } catch (error) {
    const message = errorMessage(error);
    throw new CliError(
      `the run of plan ${proposed.planId} stopped: ${message.replace(/\.$/, "")}. What was committed so far is on branch ${branch}.`
    );
  }
  return report(session, outcome, branch, head.ref);
}
async function proposedPlanFor(session, objective) {
  const { terminal, repo, settings } = session;
  const { policy } = settings;
  let proposed;
  if (objective === void 0) {
    proposed = loadLastPlan(repo.gitDir);
    if (proposed.status !== "proposed") {
      const where = proposed.branch ? ` on branch ${proposed.branch}` : "";
      const what = proposed.status === "executing" ? `was started${where} and did not finish; its work so far is on that branch` : `was already run${where} (${proposed.status})`;
      throw new CliError(`the last plan, ${proposed.planId}, ${what}; make a new one with plangate run "<objective>".`);
    }
  } else if (policy === "executor-only") {
    const base = await currentHead(repo.git);
    const snapshot = executorOnlySnapshot(objective, {
      ...defaultPolicy,
      maxIterations: settings.maxIterations ?? localDefaults.maxIterations
    });
    proposed = proposedPlan(
      { setup: teamSetup(session), base, requestedBy: session.requestedBy },
      "executor-only",
      snapshot
    );
  } else {
    const outcome = await plan(session, objective);
    if (outcome.kind !== "planned") return reportUnplanned(session, outcome, true);
    proposed = outcome.plan;
    terminal.out(`Planning cost:
${renderUsageText(outcome.usage)}
`);
  }
  return proposed;
}
async function checkWorkBranch(session, proposed, branch) {
  const { repo } = session;
  await checkBranchName(repo.git, branch);
  if (await branchExists(repo.git, branch)) {
    throw new CliError(
      `branch ${branch} already exists and plangate never touches a branch it did not just create; delete it (git branch -D ${branch}) or make a new plan.`
    );
  }
  if (!await hasCommit(repo.git, proposed.base.sha)) {
    throw new CliError(
      `the plan's base commit ${proposed.base.sha.slice(0, 7)} is not in this repository any more; make a new plan.`
    );
  }
}
async function approval(session, planId) {
  const { settings, terminal } = session;
  if (settings.yes || settings.policy === "plan-first" || settings.policy === "executor-only") {
    terminal.err(`Approved by ${settings.yes ? "--yes" : `the ${settings.policy} policy`}.`);
    return true;
  }
  const answer = await terminal.ask(`
Approve plan ${planId}? [y/N] `);
  if (answer === void 0) {
    terminal.err("");
    throw new CliError(
      `nobody answered the approval question (stdin ended); run plangate in a terminal to answer it, or pass --yes to approve plan ${planId}.`
    );
  }
  return /^(y|yes)$/i.test(answer.trim());
}
async function report(session, outcome, branch, startedOn) {
  const { terminal, repo } = session;
  const { final, plan: plan2 } = outcome;
  terminal.out(`
History:
${renderHistoryText(final.context.history)}`);
  if (final.context.summary) terminal.out(`
Summary:
${final.context.summary.trim().replace(/^/gm, "  ")}`);
  terminal.out(`
Usage (planning included):
${renderUsageText(outcome.usage)}`);
  const stat = await repo.git(["diff", "--stat=100", `${plan2.base.sha}..${branch}`]).catch(() => "");
  if (stat)
    terminal.out(
      `
Changes on ${branch}:
${stat.split("\n").map((line) => `  ${line.replace(/^ /, "")}`).join("\n")}`
    );
  const back = startedOn === "HEAD" ? "" : ` git switch ${startedOn} goes back.`;
  const commits = `${outcome.commits} ${outcome.commits === 1 ? "commit" : "commits"}`;
  terminal.out(
    `
The work is on branch ${branch} (${commits} on ${plan2.base.ref} ${plan2.base.sha.slice(0, 7)}); you are on it now.${back} Nothing was pushed.`
  );
  if (outcome.abortReason !== void 0) {
    terminal.err(`plangate: plan ${plan2.planId} aborted: ${outcome.abortReason.split("\n")[0] ?? ""}`);
    return 1;
  }
  terminal.err(`plangate: plan ${plan2.planId} done.`);
  return 0;
}
export {
  runCommand
};
