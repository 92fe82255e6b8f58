import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  CliError,
  UsageError
} from "./chunk-6NVIIRNY.js";
import {
  createCapabilityHub
} from "./chunk-GUISNBV7.js";
import {
  approvedScopeSchema,
  checksForStagedPlan,
  createChatClient,
  createGit,
  defaultPolicy,
  deriveScope,
  emptyUsage,
  estimateExecutionCost,
  formatCost,
  formatCount,
  hashContext,
  httpUrlSchema,
  initialSnapshot,
  issueSentences,
  mcpSecretValues,
  named,
  networkModeSchema,
  outcomeWords,
  planOrder,
  plannerExecutorMachine,
  plannerUsageSince,
  planningOutcome,
  readRepoConfig,
  readRepositoryInstructions,
  renderChecksText,
  renderScopeText,
  resolveMcpServers,
  runPolicySchema,
  settingsBehind,
  snapshotSchema,
  startTeam,
  stepWords,
  sumCost,
  unplannedScope,
  usageLedgerSchema,
  waitsFor,
  wholeNumber,
  withOverrides
} from "./chunk-JF4VOWI3.js";
import {
  defaultLines,
  defaultNumber,
  inputDefaults
} from "./chunk-5QKFIOA3.js";
import {
  createSandbox,
  destinationEntrySchema,
  external_exports,
  sealInNamespace
} from "./chunk-T5TEVDNA.js";
import {
  errorMessage
} from "./chunk-NMFGPCOO.js";

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
  network: inputDefaults.network,
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
function destinations(values, fail) {
  return (patterns(values) ?? []).flatMap((value) => value.split(",")).map((entry) => entry.trim()).filter((entry) => entry !== "").flatMap((entry) => check(destinationEntrySchema, entry, `--allowed-domains ${entry}`, fail));
}
function readLocalSettings(flags, env, command) {
  const usage = (message) => new UsageError(message, command);
  const environment = (message) => new CliError(message);
  const flag = (schema, value, name) => value === void 0 ? void 0 : check(schema, value, `--${name}`, usage);
  const variable = (schema, name) => {
    const value = env[name]?.trim();
    return value ? check(schema, value, name, environment) : void 0;
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
    network: flag(networkModeSchema, flags.network, "network") ?? localDefaults.network,
    allowedDestinations: destinations(flags.allowedDomains, usage),
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
  branch: external_exports.string().optional(),
  /** What an approval of the plan allows (checks/scope-derivation.ts); covered by `planHash`. */
  scope: approvedScopeSchema.optional()
});
function localPlanHash(plan2) {
  const bound = [
    hashContext(plan2.snapshot.context),
    plan2.machine,
    plan2.base.ref,
    plan2.base.sha,
    plan2.allowedCommands,
    plan2.protectedPaths,
    // A plan saved before plans carried a scope hashes as it always did.
    ...plan2.scope ? [plan2.scope] : []
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
async function startLocalTeam(setup, definition, snapshot, baseSha, spent, scope) {
  const instructions = await readRepositoryInstructions(setup.repo.git, baseSha);
  return startTeam({
    definition,
    snapshot,
    ...spent ? { spent } : {},
    planner: setup.planner,
    executor: setup.executor,
    // The user's own checkout, and their own account: they started the command and approved the plan.
    sandbox: setup.sandbox,
    allowedCommands: setup.allowedCommands,
    protectedPaths: setup.protectedPaths,
    stallLimit: localDefaults.stallLimit,
    secrets: setup.secrets,
    prices: setup.prices,
    maxWriteBytes: localDefaults.maxWriteBytes,
    ...scope ? { scope } : {},
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
    protectedPaths: setup.protectedPaths,
    scope: localScope(setup, snapshot, usage)
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
    usage,
    scope: bound.scope
  };
}
var localParallelSteps = 1;
function localScope(setup, snapshot, usage) {
  const { plan: plan2 } = snapshot.context;
  const { maxIterations } = snapshot.policy;
  if (!plan2) return unplannedScope({ allowedCommands: setup.allowedCommands, maxIterations });
  const planning = plannerUsageSince(usage, emptyUsage());
  const estimate = estimateExecutionCost({
    planning,
    steps: plan2.steps.length,
    executorModel: setup.executor.model,
    prices: setup.prices
  });
  return deriveScope({
    plan: plan2,
    allowedCommands: setup.allowedCommands,
    planning,
    estimate,
    maxIterations,
    parallelSteps: localParallelSteps
  });
}

// src/cli/local-network.ts
function localSandbox(settings, workTree) {
  const own = createSandbox({ isolation: "none", workTree });
  if (settings.network === "open") return own;
  return sealInNamespace(own, { destinations: settings.allowedDestinations, impossible: localNetworkImpossible });
}
function localNetworkImpossible(cause) {
  return `Commands cannot run here with a sealed network: ${cause}. plangate runs commands and MCP servers in a network namespace of their own that reaches only loopback and the destinations --allowed-domains names, so that code from the repository cannot send your work tree elsewhere. Nothing was run. Fix the cause, or run plangate with --network open to run them with the network as you have it, where they can send the work tree anywhere.`;
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

// src/cli/cli-setting-words.ts
var cliSettingWords = {
  key: () => "PLANGATE_API_KEY",
  url: () => "--base-url (or PLANGATE_BASE_URL)",
  model: (role) => `--${role}-model (or --model, PLANGATE_${role.toUpperCase()}_MODEL)`,
  retries: "--model-retries",
  timeout: "--model-timeout",
  rerun: "Run plangate again",
  network: "your network"
};

// src/cli/local-session.ts
async function withSession(settings, context, doing, use) {
  const session = await openSession(settings, context, doing);
  try {
    return await use(session);
  } finally {
    await session.capabilities.close();
    await session.sandbox.close();
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
  const sandbox = localSandbox(settings, repo.root);
  const hub = createCapabilityHub(trust.allowed, { sandbox, secrets });
  return {
    settings,
    repo,
    prices: withOverrides(config.prices ?? {}),
    planner: createChatClient("planner", settings.planner, modelOptions(settings)),
    executor: createChatClient("executor", settings.executor, modelOptions(settings)),
    capabilities: withSkippedServers(hub, trust.skipped),
    sandbox,
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
    capabilities: session.capabilities,
    sandbox: session.sandbox
  };
}
function modelOptions(settings) {
  return {
    maxRetries: settings.modelRetries,
    timeoutMs: settings.modelTimeoutSeconds * 1e3,
    words: cliSettingWords
  };
}

// src/cli/text-render.ts
var indent = (text, by) => text.trim().split("\n").map((line) => line === "" ? "" : `${by}${line}`).join("\n");
function renderPlanText(plan2, parallelSteps = 1) {
  const lines = [];
  plan2.steps.forEach((step, i) => {
    const number2 = `${i + 1}. `;
    const pad = " ".repeat(2 + number2.length);
    lines.push(`  ${number2}${step.title}`);
    if (step.detail?.trim()) lines.push(indent(step.detail, pad));
    if (step.files?.length) lines.push(`${pad}Files: ${step.files.join(", ")}`);
    if (step.verify?.trim()) lines.push(`${pad}Verify: ${step.verify}`);
    const waits = waitsFor(step);
    if (waits) lines.push(`${pad}Waits for: ${waits}`);
  });
  const order = planOrder(plan2, parallelSteps);
  if (order) lines.push("", `Order: ${order.order}`, ...order.waits.map((line) => indent(line, "  ")));
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
  return history.map((entry, i) => {
    const step = stepWords(entry);
    const note = entry.note?.replace(/\s+/g, " ").trim();
    return [
      `  Cycle ${i + 1}${step ? ` \xB7 ${step}` : ""}: ${outcomeWords[entry.outcome]}`,
      ...note ? [`    Note: ${note}`] : [],
      "    Directive:",
      indent(entry.directive, "      "),
      "    Result:",
      indent(entry.result, "      ")
    ].join("\n");
  }).join("\n\n");
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
${renderPlanText(context.plan, plan2.scope?.parallelSteps)}`);
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
  const refused = await commandsRefused(session, plan2, context.plan);
  if (refused !== void 0) terminal.out(`
\u26A0\uFE0F ${refused}`);
  if (plan2.scope) terminal.out(`
${renderScopeText(plan2.scope)}`);
}
function localChecks(session, plan2, steps) {
  return checksForStagedPlan({
    plan: steps,
    // Local commands run as the user (no account switch); a network that cannot be sealed is said
    // apart (commandsRefused), in the CLI's words, not the action's.
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
async function commandsRefused(session, plan2, steps) {
  const needsCommands = plan2.allowedCommands.length > 0 || (steps?.steps.some((step) => step.verify?.trim()) ?? false);
  return needsCommands ? session.sandbox.refusal() : void 0;
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

export {
  currentHead,
  branchExists,
  checkBranchName,
  hasCommit,
  localDefaults,
  readLocalSettings,
  savePlan,
  loadLastPlan,
  startLocalTeam,
  proposedPlan,
  withSession,
  teamSetup,
  renderHistoryText,
  renderUsageText,
  planCommand,
  plan,
  showPlan,
  reportUnplanned
};
