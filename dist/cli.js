#!/usr/bin/env node
import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  createCapabilityHub
} from "./chunks/chunk-AEPZYIGS.js";
import {
  checksForStagedPlan,
  commitAll,
  commitTrailers,
  createChatClient,
  createGit,
  cycleCommitMessage,
  defaultLines,
  defaultNumber,
  defaultPolicy,
  didYouMean,
  emptyUsage,
  executorOnlySnapshot,
  formatCost,
  formatCount,
  hashContext,
  httpUrlSchema,
  initialSnapshot,
  inputDefaults,
  issueSentences,
  machineFor,
  mcpSecretValues,
  named,
  outcomeWords,
  plannerExecutorMachine,
  plannerUsageSince,
  planningOutcome,
  readRepoConfig,
  readRepositoryInstructions,
  renderChecksText,
  resolveMcpServers,
  runBudget,
  runEnding,
  runPolicySchema,
  settingsBehind,
  snapshotSchema,
  startBranch,
  startTeam,
  sumCost,
  usageLedgerSchema,
  wholeNumber,
  withOverrides,
  withTrailers
} from "./chunks/chunk-IQIZAZR6.js";
import "./chunks/chunk-BE46HTGE.js";
import {
  createSandbox,
  external_exports
} from "./chunks/chunk-YTLG2PL2.js";
import {
  errorMessage,
  redact
} from "./chunks/chunk-NMFGPCOO.js";
import "./chunks/chunk-XQWL7OYR.js";

// src/cli/actions-log.ts
var dropped = /* @__PURE__ */ new Set([
  "endgroup",
  "debug",
  "add-mask",
  "set-output",
  "save-state",
  "add-path",
  "set-env",
  "echo",
  "stop-commands",
  "add-matcher",
  "remove-matcher"
]);
function unescapeData(text) {
  return text.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");
}
function translateActionsLine(line) {
  const command = /^::([A-Za-z][\w-]*)(?: [^:]*)?::(.*)$/.exec(line);
  if (!command) return `  ${line}`;
  const [, name = "", data = ""] = command;
  const message = unescapeData(data);
  if (name === "group") return `\xBB ${message}`;
  if (name === "warning" || name === "error" || name === "notice") return `${name}: ${message}`;
  if (dropped.has(name)) return void 0;
  return void 0;
}
function routeActionsLog(stream, sink) {
  const original = stream.write;
  let pending = "";
  const take = (chunk) => {
    pending += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const shown = translateActionsLine(line);
      if (shown !== void 0) sink(shown);
    }
  };
  stream.write = ((chunk, encoding, callback) => {
    take(chunk);
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") queueMicrotask(() => done());
    return true;
  });
  return {
    restore() {
      stream.write = original;
      if (pending !== "") {
        const shown = translateActionsLine(pending);
        pending = "";
        if (shown !== void 0) sink(shown);
      }
    }
  };
}

// src/cli/args.ts
import { parseArgs } from "node:util";

// src/cli/cli-error.ts
var CliError = class extends Error {
  name = "CliError";
};
var UsageError = class extends Error {
  constructor(message, command) {
    super(message);
    this.command = command;
  }
  command;
  name = "UsageError";
};
var exitCodes = { ok: 0, failed: 1, usage: 2 };

// src/cli/help.ts
var environment = `Environment:
  PLANGATE_API_KEY          API key of the endpoint (required; any non-empty value for a local
                            server without keys, e.g. Ollama). Never accepted as an argument, so it
                            stays out of your shell history; never printed.
  PLANGATE_BASE_URL         Base URL of the OpenAI-compatible endpoint (default
                            ${inputDefaults["base-url"]}); --base-url wins over it.
  PLANGATE_PLANNER_MODEL    Planner model when no --planner-model or --model is given.
  PLANGATE_EXECUTOR_MODEL   Executor model when no --executor-model or --model is given.
  Variables an MCP server names in .github/plangate.yml (env:) are passed to that server only,
  from this environment; their values are never printed.`;
var modelOptions = `  --base-url <url>          OpenAI-compatible endpoint, e.g. https://api.deepseek.com/v1 or
                            http://localhost:11434/v1 (Ollama).
  --model <name>            Model for both roles.
  --planner-model <name>    Model of the read-only planner (default ${inputDefaults["planner-model"]}).
  --executor-model <name>   Model of the executor (default ${inputDefaults["executor-model"]}).
  --model-retries <n>       Retries of a model request after an overload, a rate limit, a provider
                            error, a timeout or a lost connection (0-20, default ${inputDefaults["model-retries"]}).
  --model-timeout <s>       Seconds a model request may go without an answer (1-3600, default ${inputDefaults["model-timeout"]}).`;
var workOptions = `  --allowed-commands <cmd>  A command the executor may run, e.g. "npm test" or "npm run *"
                            ("*" is one argument, a final "**" any number). Repeat the option for
                            more. Default: none, so run_command refuses everything.
  --protected-paths <glob>  A glob of files the executor may never write; repeat for more.
                            Default: ${defaultLines("protected-paths").join(", ")}
  --max-iterations <n>      Most execute cycles before the run aborts and keeps its work
                            (1-100, default ${inputDefaults["max-iterations"]}).
  --trust-repo-config       Start the stdio MCP servers .github/plangate.yml defines without
                            asking. Their commands are the repository's choice and run as you,
                            so without this option plangate lists them and asks on a terminal,
                            and elsewhere (a pipe, CI=true) starts none of them.`;
var topHelp = `plangate: a plan-then-approve gate for LLM coding agents, in your local checkout.

Usage:
  plangate plan "<objective>"     Study the checkout read-only and print a plan.
  plangate run ["<objective>"]    Plan (or take the last saved plan), ask for approval, then let
                                  the executor carry it out on a local branch.
  plangate <command> --help       Options of a command.

plangate works in the git repository of the current directory against any OpenAI-compatible
Chat Completions endpoint (OpenAI, DeepSeek, a local Ollama or vLLM). It never pushes and never
touches a branch it did not create. It reads .github/plangate.yml as the action does: prices:
for the cost report, and mcp-servers: for the MCP servers the agents may use (the planner only
their read-only tools). The servers start when an agent is first summoned and stop when the
command ends; one that does not start is named on stderr in one line and the command goes on
without it.

A stdio server's command comes from the repository, not from you, so plangate never runs one
unasked, not even for plan: with --trust-repo-config the servers start; on a terminal plangate
lists each command line and asks once (only y or yes starts them); otherwise (stdin or stdout not
a terminal, or CI=true) none starts, one line on stderr names them, and the agents are told they
are not available. Commands you allow with --allowed-commands are yours and are not asked about.

${environment}

Exit codes: 0 done, 1 refused or failed (one line on stderr says what to fix), 2 usage error.`;
var planHelp = `Usage: plangate plan [options] "<objective>"

The read-only planner studies the checkout (it holds no write or command tool) and prints its plan:
the steps, the plan id and the first directive for the executor. The plan is saved under
.git/plangate/ (never in the work tree), so \`plangate run\` can carry it out. The work tree must be
clean: the plan is bound to the commit it was made on.

If the planner needs a decision from you, it prints its question; plan again with the answer in
the objective. If nothing needs to change, it prints its answer and saves no plan.

Read-only includes the repository's own config: the stdio MCP servers .github/plangate.yml
defines start only with --trust-repo-config or your yes on a terminal (see plangate --help).

Options:
${modelOptions}
${workOptions}
  -h, --help                This help.

The planner is told the allowed commands and protected paths, so its checks use commands the
executor may run; \`plangate run\` uses the ones saved with the plan unless it is given its own.

${environment}`;
var runHelp = `Usage: plangate run [options] ["<objective>"]

With an objective, plans first (as \`plangate plan\`); without one, takes the last saved plan. Shows
the plan and asks "Approve plan <id>? [y/N]" on the terminal; only y or yes approves. The executor
then works on a new local branch <branch-prefix><plan id> started from the plan's base commit, with
one commit per cycle (trailers Plangate-Plan and Approved-by), and the planner revises the plan
when the executor's results call for it. At the end plangate prints the history, the summary and
what the models cost, and leaves you on the work branch. It never pushes.

The work tree must be clean, and the branch must not exist yet.

Options:
${modelOptions}
${workOptions}
  --max-cost-usd <usd>      Stop the run cleanly once the models cost this much (needs known
                            prices). Default: no limit.
  --branch-prefix <prefix>  Prefix of the work branch (default ${inputDefaults["branch-prefix"]}).
  --policy <policy>         plan-for-approval (ask before executing), plan-first (execute
                            right after planning, like --yes) or executor-only (no planner: the
                            executor works the objective directly, without asking). Default:
                            ${inputDefaults.policy}.
  -y, --yes                 Approve without asking. Needed where nobody can answer the prompt:
                            with no answer on stdin, plangate refuses to execute. It approves
                            the plan only: the config file's MCP servers still need
                            --trust-repo-config or a yes on a terminal.
  -h, --help                This help.

${environment}`;

// src/cli/args.ts
var shared = {
  "base-url": { type: "string" },
  model: { type: "string" },
  "planner-model": { type: "string" },
  "executor-model": { type: "string" },
  "model-retries": { type: "string" },
  "model-timeout": { type: "string" },
  "allowed-commands": { type: "string", multiple: true },
  "protected-paths": { type: "string", multiple: true },
  "max-iterations": { type: "string" },
  "trust-repo-config": { type: "boolean" },
  help: { type: "boolean", short: "h" }
};
var runOnly = {
  "max-cost-usd": { type: "string" },
  "branch-prefix": { type: "string" },
  policy: { type: "string" },
  yes: { type: "boolean", short: "y" }
};
var helpOf = { plan: planHelp, run: runHelp };
function parseInvocation(argv) {
  const [first, ...rest] = argv;
  if (first === void 0 || first === "-h" || first === "--help") return { kind: "help", text: topHelp };
  if (first === "help") {
    const topic = rest[0];
    if (topic === void 0) return { kind: "help", text: topHelp };
    if (topic === "plan" || topic === "run") return { kind: "help", text: helpOf[topic] };
    throw new UsageError(`there is no command "${topic}"; the commands are plan and run.`);
  }
  if (first !== "plan" && first !== "run") {
    const what = first.startsWith("-") ? `option ${optionName(first)} must follow a command` : `there is no command "${first}"`;
    throw new UsageError(`${what}; the commands are plan and run.`);
  }
  const command = first;
  const options = command === "run" ? { ...shared, ...runOnly } : shared;
  let parsed;
  try {
    parsed = parseArgs({ args: [...rest], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(describeParseError(error, command), command);
  }
  const values = parsed.values;
  if (values.help === true) return { kind: "help", text: helpOf[command] };
  const text = (name) => typeof values[name] === "string" ? values[name] : void 0;
  const list = (name) => {
    const value = values[name];
    return Array.isArray(value) ? value.filter((v) => typeof v === "string") : void 0;
  };
  const flags = {
    baseUrl: text("base-url"),
    model: text("model"),
    plannerModel: text("planner-model"),
    executorModel: text("executor-model"),
    modelRetries: text("model-retries"),
    modelTimeout: text("model-timeout"),
    allowedCommands: list("allowed-commands"),
    protectedPaths: list("protected-paths"),
    maxIterations: text("max-iterations"),
    maxCostUsd: text("max-cost-usd"),
    branchPrefix: text("branch-prefix"),
    policy: text("policy"),
    yes: values.yes === true,
    trustRepoConfig: values["trust-repo-config"] === true
  };
  const objective = parsed.positionals.join(" ").trim();
  if (command === "plan") {
    if (objective === "") throw new UsageError('plan needs an objective: plangate plan "<objective>".', "plan");
    return { kind: "plan", objective, flags };
  }
  return { kind: "run", ...objective === "" ? {} : { objective }, flags };
}
function optionName(arg) {
  return arg.split("=")[0] ?? arg;
}
function describeParseError(error, command) {
  const code = error?.code;
  const message = errorMessage(error);
  const named2 = /'(-[^' ,]+)/.exec(message)?.[1];
  const option = /'-\w, (--[^' ]+)/.exec(message)?.[1] ?? named2 ?? "an option";
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const name = optionName(option);
    if (/^--(api-?key|key|token)$/i.test(name)) {
      return `${name} is not accepted: set PLANGATE_API_KEY in the environment instead (an argument would end up in your shell history).`;
    }
    if (command === "plan" && Object.hasOwn(runOnly, name.replace(/^--/, "")))
      return `${name} is an option of plangate run, not of plan.`;
    const known = Object.keys(command === "run" ? { ...shared, ...runOnly } : shared).map((o) => `--${o}`);
    const guess = didYouMean(name, known);
    return `unknown option ${name}; ${guess ? `did you mean ${guess}? ` : ""}see plangate ${command} --help.`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    return /does not take an argument/.test(message) ? `${option} takes no value.` : `${option} needs a value.`;
  }
  return `${message.split("\n")[0] ?? message}`;
}

// src/cli/local-repo.ts
import { userInfo } from "node:os";
async function openLocalRepo(cwd) {
  const here = createGit(cwd);
  let root;
  try {
    root = await here(["rev-parse", "--show-toplevel"]);
  } catch {
    throw new CliError(`${cwd} is not inside a git work tree: run plangate in a checkout of your repository.`);
  }
  if (root === "")
    throw new CliError(`${cwd} is not inside a git work tree: run plangate in a checkout of your repository.`);
  const git = createGit(root);
  const gitDir = await git(["rev-parse", "--absolute-git-dir"]);
  return { root, gitDir, git };
}
async function requireCleanTree(git, doing) {
  const status = await git(["status", "--porcelain", "--untracked-files=normal"]);
  if (status === "") return;
  const count = status.split("\n").length;
  throw new CliError(
    `the work tree has ${count} uncommitted ${count === 1 ? "change" : "changes"}; commit or stash them (git stash --include-untracked) before ${doing}.`
  );
}
async function currentHead(git) {
  let sha;
  try {
    sha = await git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
  } catch {
    throw new CliError("the repository has no commit yet: commit something for the planner to study first.");
  }
  const ref = await git(["symbolic-ref", "--quiet", "--short", "HEAD"]).catch(() => "HEAD");
  return { ref: ref || "HEAD", sha };
}
async function branchExists(git, branch) {
  return git(["show-ref", "--verify", "--quiet", `refs/heads/${branch}`]).then(
    () => true,
    () => false
  );
}
async function checkBranchName(git, branch) {
  await git(["check-ref-format", "--branch", branch]).catch(() => {
    throw new CliError(`"${branch}" is not a valid branch name; choose another --branch-prefix.`);
  });
}
async function hasCommit(git, sha) {
  return git(["cat-file", "-e", `${sha}^{commit}`]).then(
    () => true,
    () => false
  );
}
async function gitIdentity(git) {
  const ident = await git(["var", "GIT_AUTHOR_IDENT"]).catch(() => "");
  const match = /^(.*?) <([^>]*)>/.exec(ident);
  if (!match?.[1] || !match[2]) return void 0;
  return { name: match[1], email: match[2] };
}
function localUserName() {
  try {
    return userInfo().username;
  } catch {
    return "local user";
  }
}

// src/cli/local-settings.ts
var localDefaults = {
  baseUrl: inputDefaults["base-url"],
  plannerModel: inputDefaults["planner-model"],
  executorModel: inputDefaults["executor-model"],
  allowedCommands: defaultLines("allowed-commands"),
  protectedPaths: defaultLines("protected-paths"),
  maxIterations: defaultNumber("max-iterations"),
  modelRetries: defaultNumber("model-retries"),
  modelTimeoutSeconds: defaultNumber("model-timeout"),
  branchPrefix: inputDefaults["branch-prefix"],
  policy: inputDefaults.policy,
  stallLimit: defaultNumber("stall-limit"),
  maxWriteBytes: defaultNumber("max-write-bytes"),
  configFile: inputDefaults["config-file"]
};
var modelName = external_exports.string().trim().min(1, "must not be empty");
var iterations = wholeNumber(1, 100);
var usd = external_exports.string().trim().regex(/^\d+(\.\d+)?$/, "must be a positive number").transform(Number).pipe(external_exports.number().positive("must be greater than 0"));
var prefix = external_exports.string().regex(/^[A-Za-z0-9._/-]*$/, 'may only hold letters, digits, ".", "_", "-" and "/"');
function check(schema, value, where, fail) {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw fail(issueSentences(parsed.error.issues, named(where), schema));
}
function patterns(values) {
  if (values === void 0) return void 0;
  return values.flatMap((v) => v.split("\n")).map((v) => v.trim()).filter((v) => v !== "" && !v.startsWith("#"));
}
function readLocalSettings(flags, env, command) {
  const usage = (message) => new UsageError(message, command);
  const environment2 = (message) => new CliError(message);
  const flag = (schema, value, name) => value === void 0 ? void 0 : check(schema, value, `--${name}`, usage);
  const variable = (schema, name) => {
    const value = env[name]?.trim();
    return value ? check(schema, value, name, environment2) : void 0;
  };
  const model = flag(modelName, flags.model, "model");
  const planner = flag(modelName, flags.plannerModel, "planner-model") ?? model ?? variable(modelName, "PLANGATE_PLANNER_MODEL") ?? localDefaults.plannerModel;
  const executor = flag(modelName, flags.executorModel, "executor-model") ?? model ?? variable(modelName, "PLANGATE_EXECUTOR_MODEL") ?? localDefaults.executorModel;
  const baseURL = flag(httpUrlSchema, flags.baseUrl, "base-url") ?? variable(httpUrlSchema, "PLANGATE_BASE_URL") ?? localDefaults.baseUrl;
  const protectedPaths = patterns(flags.protectedPaths);
  const settings = {
    allowedCommands: patterns(flags.allowedCommands),
    // An empty list would switch protection off by omission; the default stands instead, as in the action.
    protectedPaths: protectedPaths?.length ? protectedPaths : void 0,
    maxIterations: flag(iterations, flags.maxIterations, "max-iterations"),
    modelRetries: flag(wholeNumber(0, 20), flags.modelRetries, "model-retries") ?? localDefaults.modelRetries,
    modelTimeoutSeconds: flag(wholeNumber(1, 3600), flags.modelTimeout, "model-timeout") ?? localDefaults.modelTimeoutSeconds,
    maxCostUsd: flag(usd, flags.maxCostUsd, "max-cost-usd"),
    branchPrefix: flag(prefix, flags.branchPrefix, "branch-prefix") ?? localDefaults.branchPrefix,
    policy: flag(runPolicySchema, flags.policy, "policy") ?? localDefaults.policy,
    yes: flags.yes,
    trustRepoConfig: flags.trustRepoConfig
  };
  const apiKey = env.PLANGATE_API_KEY?.trim() ?? "";
  return {
    ...settings,
    planner: { model: planner, baseURL, apiKey },
    executor: { model: executor, baseURL, apiKey }
  };
}
function requireApiKey(settings) {
  if (settings.planner.apiKey === "" || settings.executor.apiKey === "") {
    throw new CliError(
      "PLANGATE_API_KEY is not set: export it with your endpoint's API key (any non-empty value for a local server without keys, such as Ollama)."
    );
  }
}
function readLocalConfig(root) {
  try {
    return readRepoConfig(root, localDefaults.configFile);
  } catch (error) {
    throw new CliError(errorMessage(error));
  }
}

// src/cli/plan-store.ts
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
var localPlanStatuses = ["proposed", "executing", "done", "aborted"];
var localPlanSchema = external_exports.object({
  v: external_exports.literal(1),
  planId: external_exports.string().regex(/^[0-9a-f]{8}$/),
  planHash: external_exports.string().regex(/^[0-9a-f]{64}$/),
  status: external_exports.enum(localPlanStatuses),
  machine: external_exports.enum(["planner-executor", "executor-only"]),
  base: external_exports.object({ ref: external_exports.string().min(1), sha: external_exports.string().regex(/^[0-9a-f]{40,64}$/) }),
  requestedBy: external_exports.string(),
  models: external_exports.object({ planner: external_exports.string(), executor: external_exports.string() }),
  /** The workspace rules the planner was told, so `run` enforces the ones the plan was made for. */
  allowedCommands: external_exports.array(external_exports.string()),
  protectedPaths: external_exports.array(external_exports.string()),
  createdAt: external_exports.iso.datetime(),
  snapshot: snapshotSchema,
  usage: usageLedgerSchema,
  approvedBy: external_exports.string().optional(),
  branch: external_exports.string().optional()
});
function localPlanHash(plan2) {
  const bound = [
    hashContext(plan2.snapshot.context),
    plan2.machine,
    plan2.base.ref,
    plan2.base.sha,
    plan2.allowedCommands,
    plan2.protectedPaths
  ];
  return createHash("sha256").update(JSON.stringify(bound)).digest("hex");
}
var folder = (gitDir) => path.join(gitDir, "plangate");
var planFile = (gitDir, planId) => path.join(folder(gitDir), "plans", `${planId}.json`);
var lastFile = (gitDir) => path.join(folder(gitDir), "last-plan");
function newPlanId(gitDir) {
  for (; ; ) {
    const id = randomBytes(4).toString("hex");
    if (!existsSync(planFile(gitDir, id))) return id;
  }
}
function writeAtomically(file, text) {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}
function savePlan(gitDir, plan2) {
  const file = planFile(gitDir, plan2.planId);
  writeAtomically(file, `${JSON.stringify(localPlanSchema.parse(plan2), null, 2)}
`);
  if (plan2.status === "proposed") writeAtomically(lastFile(gitDir), `${plan2.planId}
`);
  return file;
}
function loadLastPlan(gitDir) {
  let planId;
  try {
    planId = readFileSync(lastFile(gitDir), "utf8").trim();
  } catch {
    throw new CliError(
      'there is no saved plan in this checkout: make one with plangate plan "<objective>", or give plangate run an objective.'
    );
  }
  return loadPlan(gitDir, planId);
}
function loadPlan(gitDir, planId) {
  const file = planFile(gitDir, planId);
  let json;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    throw new CliError(
      `the saved plan ${planId} cannot be read (${file}); make a new one with plangate plan "<objective>".`
    );
  }
  const parsed = localPlanSchema.safeParse(json);
  if (!parsed.success || parsed.data.planId !== planId) {
    throw new CliError(
      `the saved plan ${planId} is not a plan record plangate can use (${file}); make a new one with plangate plan "<objective>".`
    );
  }
  if (parsed.data.planHash !== localPlanHash(parsed.data)) {
    throw new CliError(
      `the saved plan ${planId} was changed after it was made, so it cannot be approved; make a new one with plangate plan "<objective>".`
    );
  }
  return parsed.data;
}

// src/cli/local-team.ts
async function startLocalTeam(setup, definition, snapshot, baseSha, spent) {
  const instructions = await readRepositoryInstructions(setup.repo.git, baseSha);
  return startTeam({
    definition,
    snapshot,
    ...spent ? { spent } : {},
    planner: setup.planner,
    executor: setup.executor,
    // The user's own checkout, and their own account: they started the command and approved the plan.
    sandbox: createSandbox({ isolation: "none", workTree: setup.repo.root }),
    allowedCommands: setup.allowedCommands,
    protectedPaths: setup.protectedPaths,
    stallLimit: localDefaults.stallLimit,
    secrets: setup.secrets,
    prices: setup.prices,
    maxWriteBytes: localDefaults.maxWriteBytes,
    instructions,
    capabilities: setup.capabilities
  });
}

// src/cli/local-planning.ts
async function planLocally(request) {
  const { setup } = request;
  const start = initialSnapshot(request.objective, { ...defaultPolicy, maxIterations: request.maxIterations });
  const team = await startLocalTeam(setup, plannerExecutorMachine, start, request.base.sha);
  const snapshot = await team.drive({ until: (s) => s.state !== "plan", stopOnModelError: true });
  const usage = team.usage();
  const outcome = planningOutcome(snapshot);
  if (outcome.kind !== "planned") return { ...outcome, usage };
  const plan2 = proposedPlan(request, "planner-executor", snapshot, team.ledger());
  return { kind: "planned", plan: plan2, file: savePlan(setup.repo.gitDir, plan2), usage };
}
function proposedPlan(request, machine, snapshot, usage = emptyUsage()) {
  const { setup } = request;
  const bound = {
    snapshot,
    machine,
    base: request.base,
    allowedCommands: setup.allowedCommands,
    protectedPaths: setup.protectedPaths
  };
  return {
    v: 1,
    planId: newPlanId(setup.repo.gitDir),
    planHash: localPlanHash(bound),
    status: "proposed",
    machine,
    base: request.base,
    requestedBy: request.requestedBy,
    models: { planner: setup.planner.model, executor: setup.executor.model },
    allowedCommands: setup.allowedCommands,
    protectedPaths: setup.protectedPaths,
    createdAt: (/* @__PURE__ */ new Date()).toISOString(),
    snapshot,
    usage
  };
}

// src/cli/repo-trust.ts
var trustRepoConfigFlag = "--trust-repo-config";
var untrustedReason = `the user did not allow programs named in the repository's config to run (plangate ${trustRepoConfigFlag})`;
async function decideRepoTrust(request) {
  const { servers, terminal } = request;
  const programs = servers.filter((s) => s.transport === "stdio" && s.refusal === void 0);
  const everything = { allowed: [...servers], skipped: [] };
  if (programs.length === 0 || request.trusted) return everything;
  if (terminal.interactive) {
    const listing = programs.map((s) => `  MCP server ${s.name}: ${commandLine(s)}${variables(s)}`).join("\n");
    const answer = await terminal.ask(
      `${request.configFile} in this repository would have plangate start ${programs.length === 1 ? "this program" : "these programs"} on your machine, as you:
${listing}
Start ${programs.length === 1 ? "it" : "them"}? [y/N] `
    );
    if (answer === void 0) terminal.err("");
    if (answer !== void 0 && /^(y|yes)$/i.test(answer.trim())) return everything;
  }
  const names = programs.map((s) => s.name);
  const which = names.length === 1 ? `the MCP server ${names[0] ?? ""}` : `the MCP servers ${names.join(", ")}`;
  terminal.err(
    `Not starting ${which} that ${request.configFile} defines: programs the repository names run only with ${trustRepoConfigFlag} or a yes on a terminal.`
  );
  const skippedNames = new Set(names);
  return {
    allowed: servers.filter((s) => !skippedNames.has(s.name)),
    skipped: names.map((server) => ({ server, reason: untrustedReason }))
  };
}
function withSkippedServers(hub, skipped) {
  if (skipped.length === 0) return hub;
  let started;
  return {
    start() {
      started ??= hub.start().then((s) => ({
        configured: s.configured + skipped.length,
        connected: s.connected,
        failures: [...s.failures, ...skipped].sort((a, b) => a.server < b.server ? -1 : a.server > b.server ? 1 : 0)
      }));
      return started;
    },
    close: () => hub.close()
  };
}
function commandLine(server) {
  return [server.command, ...server.args].map(word).join(" ");
}
function word(text) {
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
function variables(server) {
  const names = Object.keys(server.env);
  return names.length === 0 ? "" : ` (given ${names.join(", ")} from your environment)`;
}

// src/cli/local-session.ts
async function withSession(settings, context, doing, use) {
  const session = await openSession(settings, context, doing);
  try {
    return await use(session);
  } finally {
    await session.capabilities.close();
  }
}
async function openSession(settings, context, doing) {
  requireApiKey(settings);
  const repo = await openLocalRepo(context.cwd);
  await requireCleanTree(repo.git, doing);
  const identity = await gitIdentity(repo.git);
  const config = readLocalConfig(repo.root);
  const apiKeys = [settings.planner.apiKey, settings.executor.apiKey];
  const servers = resolveMcpServers(config["mcp-servers"], context.env, apiKeys, "the environment you run plangate in");
  const serverValues = mcpSecretValues(servers);
  context.terminal.conceal(serverValues);
  const secrets = [...apiKeys, ...serverValues];
  const trust = await decideRepoTrust({
    servers,
    configFile: localDefaults.configFile,
    trusted: settings.trustRepoConfig,
    terminal: context.terminal
  });
  const hub = createCapabilityHub(trust.allowed, {
    sandbox: createSandbox({ isolation: "none", workTree: repo.root }),
    secrets
  });
  return {
    settings,
    repo,
    prices: withOverrides(config.prices ?? {}),
    planner: createChatClient("planner", settings.planner, modelOptions2(settings)),
    executor: createChatClient("executor", settings.executor, modelOptions2(settings)),
    capabilities: withSkippedServers(hub, trust.skipped),
    secrets,
    identity,
    requestedBy: identity?.name ?? localUserName(),
    terminal: context.terminal
  };
}
function teamSetup(session, saved) {
  const { settings } = session;
  return {
    repo: session.repo,
    planner: session.planner,
    executor: session.executor,
    allowedCommands: settings.allowedCommands ?? saved?.allowedCommands ?? localDefaults.allowedCommands,
    protectedPaths: settings.protectedPaths ?? saved?.protectedPaths ?? localDefaults.protectedPaths,
    prices: session.prices,
    secrets: session.secrets,
    capabilities: session.capabilities
  };
}
function modelOptions2(settings) {
  return { maxRetries: settings.modelRetries, timeoutMs: settings.modelTimeoutSeconds * 1e3 };
}

// src/cli/text-render.ts
var indent = (text, by) => text.trim().split("\n").map((line) => line === "" ? "" : `${by}${line}`).join("\n");
function renderPlanText(plan2) {
  const lines = [];
  plan2.steps.forEach((step, i) => {
    const number2 = `${i + 1}. `;
    const pad = " ".repeat(2 + number2.length);
    lines.push(`  ${number2}${step.title}`);
    if (step.detail?.trim()) lines.push(indent(step.detail, pad));
    if (step.files?.length) lines.push(`${pad}Files: ${step.files.join(", ")}`);
    if (step.verify?.trim()) lines.push(`${pad}Verify: ${step.verify}`);
  });
  const list = (title, items) => {
    if (!items?.length) return;
    lines.push("", `${title}:`, ...items.map((item) => indent(`- ${item}`, "  ")));
  };
  list("Assumptions", plan2.assumptions);
  list("Risks", plan2.risks);
  return lines.join("\n");
}
function renderHistoryText(history) {
  if (history.length === 0) return "  No cycle ran.";
  return history.map(
    (entry, i) => [
      `  Cycle ${i + 1}: ${outcomeWords[entry.outcome]}`,
      "    Directive:",
      indent(entry.directive, "      "),
      "    Result:",
      indent(entry.result, "      ")
    ].join("\n")
  ).join("\n\n");
}
var number = formatCount;
function renderUsageText(rows) {
  if (rows.length === 0) return "  No model was called.";
  const table = [
    ["role", "model", "requests", "prompt tokens", "cached", "completion tokens", "cost"],
    ...rows.map((r) => [
      r.role,
      r.models.join(", "),
      number(r.requests),
      number(r.promptTokens),
      `${number(r.cachedTokens)}${r.promptTokens > 0 ? ` (${Math.round(r.cacheHitRatio * 100)} %)` : ""}`,
      number(r.completionTokens),
      formatCost(r.costUsd)
    ]),
    ["total", "", "", "", "", "", formatCost(sumCost(rows))]
  ];
  const widths = table[0]?.map((_, column) => Math.max(...table.map((row) => (row[column] ?? "").length))) ?? [];
  const cell = (text, column) => column < 2 ? text.padEnd(widths[column] ?? 0) : text.padStart(widths[column] ?? 0);
  return table.map((row) => `  ${row.map(cell).join("  ").trimEnd()}`).join("\n");
}

// src/cli/plan-command.ts
async function planCommand(objective, flags, context) {
  return withSession(readLocalSettings(flags, context.env, "plan"), context, "planning", async (session) => {
    const outcome = await plan(session, objective);
    const { terminal } = session;
    if (outcome.kind === "planned") {
      await showPlan(session, outcome.plan);
      terminal.out(`
Planning cost:
${renderUsageText(outcome.usage)}`);
      terminal.out(
        `
Saved as plan ${outcome.plan.planId} (${outcome.file}).
To carry it out on a new branch: plangate run`
      );
      return 0;
    }
    return reportUnplanned(session, outcome);
  });
}
async function plan(session, objective) {
  const base = await currentHead(session.repo.git);
  session.terminal.err(`Planning at ${base.ref} (${base.sha.slice(0, 7)}) with ${session.planner.model}\u2026`);
  return planLocally({
    setup: teamSetup(session),
    objective,
    base,
    requestedBy: session.requestedBy,
    maxIterations: session.settings.maxIterations ?? localDefaults.maxIterations
  });
}
async function showPlan(session, plan2) {
  const { terminal } = session;
  const { context } = plan2.snapshot;
  terminal.out(`Plan ${plan2.planId}: ${context.objective.split("\n")[0] ?? ""}`);
  terminal.out(
    `Base: ${plan2.base.ref} (${plan2.base.sha.slice(0, 7)}) \xB7 planner ${plan2.models.planner} \xB7 executor ${plan2.models.executor}`
  );
  if (context.plan) terminal.out(`
Steps:
${renderPlanText(context.plan)}`);
  if (context.directive)
    terminal.out(`
First directive for the executor:
${context.directive.trim().replace(/^/gm, "  ")}`);
  const rules = plan2.allowedCommands.length ? plan2.allowedCommands.join(", ") : "none";
  terminal.out(`
Commands the executor may run: ${rules}
Protected paths: ${plan2.protectedPaths.join(", ")}`);
  if (context.plan) terminal.out(`
${renderChecksText(await localChecks(session, plan2, context.plan), localFix)}`);
}
function localChecks(session, plan2, steps) {
  return checksForStagedPlan({
    plan: steps,
    // Local commands run as the user (no account switch), so they are never refused as a whole.
    rules: {
      protectedPaths: plan2.protectedPaths,
      allowedCommands: plan2.allowedCommands,
      maxIterations: plan2.snapshot.policy.maxIterations
    },
    git: session.repo.git,
    baseSha: plan2.base.sha,
    planning: plannerUsageSince(plan2.usage, emptyUsage()),
    executorModel: plan2.models.executor,
    prices: session.prices
  });
}
function localFix(blocking) {
  const flags = settingsBehind(blocking).map((name) => `--${name}`);
  const these = blocking.length === 1 ? "this" : "these";
  return `To fix: plan again${flags.length ? ` with ${flags.join(", ")} changed, or` : ""} with an objective that avoids ${these}.`;
}
function reportUnplanned(session, outcome, forRun = false) {
  const { terminal } = session;
  switch (outcome.kind) {
    case "asked":
      terminal.out(
        `The planner needs a decision before it can plan:

${outcome.question.trim().replace(/^/gm, "  ")}`
      );
      terminal.out(
        `
Plan again with your answer in the objective.

Planning cost:
${renderUsageText(outcome.usage)}`
      );
      if (forRun)
        throw new CliError(
          "nothing was executed: the planner asked a question (shown above); run again with the answer in the objective."
        );
      return 0;
    case "answered":
      terminal.out(
        `Nothing needs to change:

${outcome.summary.trim().replace(/^/gm, "  ")}

Planning cost:
${renderUsageText(outcome.usage)}`
      );
      return 0;
    case "failed":
      terminal.err(`Planning cost:
${renderUsageText(outcome.usage)}`);
      throw new CliError(
        `planning failed: ${outcome.reason}. No plan was saved; try again, perhaps with a more specific objective.`
      );
  }
}

// src/cli/local-execution.ts
async function executeLocally(request) {
  const { setup, branch, author } = request;
  const { git, gitDir } = setup.repo;
  let plan2 = { ...request.plan, status: "executing", branch };
  await startBranch(git, branch, plan2.base.sha);
  savePlan(gitDir, plan2);
  const team = await startLocalTeam(setup, machineFor(plan2.machine), plan2.snapshot, plan2.base.sha, plan2.usage);
  const trailers = commitTrailers({
    planId: plan2.planId,
    approvedBy: request.plan.approvedBy,
    requestedBy: plan2.requestedBy,
    botLogin: author.name
  });
  let commits = 0;
  const commitCycle = async (s) => {
    const message = withTrailers(cycleCommitMessage(s, plan2.planId), trailers);
    if ((await commitAll(git, message, author, setup.protectedPaths)).sha) commits += 1;
  };
  const budget = runBudget({ maxCostUsd: request.maxCostUsd }, () => team.totals().costUsd);
  const final = await team.drive({ budget, onCycle: commitCycle });
  await commitCycle(final);
  const ending = runEnding(final);
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

// src/cli/terminal.ts
import { createInterface } from "node:readline";
var controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
function printable(text, secrets) {
  return redact(text.replace(/\r\n/g, "\n").replace(controls, ""), secrets);
}
function createTerminal(io, secrets) {
  const known = [...secrets];
  const line = (text) => `${printable(text, known)}
`;
  return {
    interactive: io.interactive,
    out: (text) => io.stdout(line(text)),
    err: (text) => io.stderr(line(text)),
    conceal: (values) => {
      for (const value of values) if (value !== "" && !known.includes(value)) known.push(value);
    },
    ask: async (question) => {
      io.stderr(printable(question, known));
      const answer = await readAnswer(io.stdin);
      if (answer !== void 0 && !io.stdin.isTTY) io.stderr(line(answer));
      return answer;
    }
  };
}
function isInteractive(stdin, stdout, env) {
  const ci = env.CI?.trim().toLowerCase() ?? "";
  const inCi = ci !== "" && ci !== "false" && ci !== "0";
  return stdin.isTTY === true && stdout.isTTY === true && !inCi;
}
async function readAnswer(stdin) {
  const lines = createInterface({ input: stdin, terminal: false });
  try {
    for await (const answer of lines) return answer;
    return void 0;
  } finally {
    lines.close();
  }
}

// src/cli/main.ts
async function main(proc) {
  const secrets = [proc.env.PLANGATE_API_KEY?.trim() ?? ""].filter((s) => s !== "");
  const stdout = proc.stdout.write.bind(proc.stdout);
  const terminal = createTerminal(
    {
      stdin: proc.stdin,
      stdout: (text) => void stdout(text),
      stderr: (text) => void proc.stderr.write(text),
      interactive: isInteractive(proc.stdin, proc.stdout, proc.env)
    },
    secrets
  );
  const route = routeActionsLog(proc.stdout, (line) => terminal.err(line));
  try {
    const invocation = parseInvocation(proc.argv);
    const context = { env: proc.env, cwd: proc.cwd, terminal };
    switch (invocation.kind) {
      case "help":
        terminal.out(invocation.text);
        return exitCodes.ok;
      case "plan":
        return await planCommand(invocation.objective, invocation.flags, context);
      case "run":
        return await runCommand(invocation.objective, invocation.flags, context);
    }
  } catch (error) {
    terminal.err(`plangate: ${oneLine(describe(error))}`);
    return error instanceof UsageError ? exitCodes.usage : exitCodes.failed;
  } finally {
    route.restore();
  }
}
function describe(error) {
  if (error instanceof UsageError) {
    return error.message.includes("--help") ? error.message : `${error.message} See plangate${error.command ? ` ${error.command}` : ""} --help.`;
  }
  if (error instanceof CliError || error instanceof Error) return error.message;
  return typeof error === "string" ? error : String(error);
}
function oneLine(text) {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

// src/cli/bin.ts
process.exitCode = await main({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr
});
