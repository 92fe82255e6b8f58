import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  CliError,
  UsageError
} from "./chunk-6NVIIRNY.js";
import {
  createCapabilityHub
} from "./chunk-OBEXGYWC.js";
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
} from "./chunk-B2ZGCE7H.js";
import {
  defaultLines,
  defaultNumber,
  inputDefaults
} from "./chunk-5QKFIOA3.js";
import {
  SandboxError,
  createSandbox,
  destinationEntrySchema,
  emptyTally,
  external_exports,
  formatDestination,
  helperPrograms,
  locate,
  newSince,
  proxyEnvironment,
  proxyRefused,
  run,
  startEgressProxy
} from "./chunk-JWYNXQNJ.js";
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

// src/tools/namespace-seal.ts
import { randomInt } from "node:crypto";
import { chmod, mkdir, mkdtemp, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import path4 from "node:path";

// src/tools/namespace-bridge.ts
var bridgeMissingWords = "plangate network bridge: failed to execute";
var nestedUnshareArgs = ["--user", "--map-root-user", "--"];
var bridgeProgram = `'use strict';
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const [specText, file, ...args] = process.argv.slice(1);
const spec = JSON.parse(specText);
const fail = (message) => {
  process.stderr.write('plangate network bridge: ' + message + '\\n');
  process.exit(125);
};
const said = (r) => String(r.stderr || (r.error && r.error.message) || 'exit code ' + r.status).trim();
// Helpers get no variable of the command's (a server's LIBMOUNT_* say): they are started by absolute path.
const quiet = { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: {} };
const up = spawnSync(spec.ip, ['link', 'set', 'lo', 'up'], quiet);
if (up.status !== 0) fail('cannot bring up loopback: ' + said(up));
const cwd = process.cwd();
const mount = (words, what) => {
  const r = spawnSync(spec.mount, ['-n', '-i', ...words], quiet);
  if (r.status !== 0) fail('cannot hide your services from the command (' + what + '): ' + said(r));
};
const exists = (at) => { try { fs.lstatSync(at); return true; } catch { return false; } };
for (const step of spec.steps) {
  try {
    if (step.op === 'tmpfs') mount(['-t', 'tmpfs', '-o', 'mode=' + step.mode + ',nosuid,nodev', 'plangate', step.at], 'a tmpfs at ' + step.at);
    else if (step.op === 'dir') fs.mkdirSync(step.at, { recursive: true });
    else if (step.op === 'move') mount(['--move', step.from, step.at], step.at + ' replaced');
    else if (step.op === 'cover') {
      // Followed, as mount follows it: a link into a folder the view replaced leads nowhere, which is hidden enough.
      let found;
      try { found = fs.statSync(step.at); } catch { found = undefined; }
      if (found && !found.isDirectory()) mount(['--bind', '/dev/null', step.at], step.at + ' covered');
    }
    else if (step.op === 'bind') {
      // Made so that another process of the run making the same one at once is no failure.
      if (fs.statSync(step.from).isDirectory()) fs.mkdirSync(step.at, { recursive: true });
      else {
        fs.mkdirSync(path.dirname(step.at), { recursive: true });
        fs.closeSync(fs.openSync(step.at, 'a'));
      }
      mount(['--bind', step.from, step.at], step.from + ' kept');
    } else fail('unknown step ' + JSON.stringify(step));
  } catch (error) {
    fail('cannot hide your services from the command (' + step.op + ' ' + step.at + '): ' + error.message);
  }
}
try {
  process.chdir(cwd);
} catch (error) {
  fail('the working folder ' + cwd + ' is not in the command\\'s view: ' + error.message);
}
try {
  fs.writeFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', '0');
} catch {
  // Ports below 1024 stay the namespace root's: the command's own servers then use higher ones.
}
const program = (() => {
  if (file.includes('/')) return exists(file) ? file : undefined;
  for (const dir of String(process.env.PATH || '').split(':')) {
    if (!dir.startsWith('/')) continue;
    const candidate = path.join(dir, file);
    try {
      if (fs.statSync(candidate).isFile()) {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      }
    } catch {
      // Not here: the next entry, as the shell would.
    }
  }
  return undefined;
})();
if (program === undefined) {
  process.stderr.write('${bridgeMissingWords} ' + file + ': No such file or directory\\n');
  process.exit(127);
}
const server = net.createServer({ allowHalfOpen: true }, (client) => {
  const upstream = net.connect({ path: spec.socket, allowHalfOpen: true });
  for (const [a, b] of [[client, upstream], [upstream, client]]) {
    a.on('error', () => b.destroy());
    a.on('close', () => b.destroy());
    a.pipe(b);
  }
});
server.on('error', (error) => fail('cannot listen on 127.0.0.1:' + spec.port + ': ' + error.message));
server.listen(spec.port, '127.0.0.1', () => {
  const child = spawn(spec.unshare, [...${JSON.stringify(nestedUnshareArgs)}, program, ...args], { stdio: 'inherit' });
  child.on('error', (error) => fail('cannot start ' + spec.unshare + ': ' + error.message));
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code === null ? 1 : code);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
});
`;

// src/tools/namespace-mounts.ts
import { realpathSync, statSync } from "node:fs";
import path2 from "node:path";
var candidates = [
  { name: "/tmp", replacement: { own: "tmp" } },
  { name: "/var/tmp", replacement: { own: "var-tmp" } },
  { name: "/run", replacement: { tmpfs: "0755" } },
  { name: "/var/run", replacement: { tmpfs: "0755" } },
  { name: "/dev/shm", replacement: { tmpfs: "1777" } }
];
function inside(inner, outer) {
  const relative = path2.relative(outer, inner);
  return relative !== "" && !relative.startsWith("..") && !path2.isAbsolute(relative);
}
function within(file, folder2) {
  return file === folder2 || inside(file, folder2);
}
function real(file) {
  try {
    return realpathSync(file);
  } catch {
    return void 0;
  }
}
function hiddenFolders() {
  const found = [];
  for (const { name, replacement } of candidates) {
    const at = real(name);
    if (at === void 0 || !statSync(at).isDirectory()) continue;
    const same = found.find((f) => f.at === at);
    if (same) {
      if (!same.names.includes(name)) same.names.push(name);
      continue;
    }
    found.push({ at, names: [.../* @__PURE__ */ new Set([name, at])], replacement });
  }
  return found.filter((f) => !found.some((other) => other !== f && inside(f.at, other.at)));
}
function hiddenFolderAt(folders, file) {
  const named2 = path2.resolve(file);
  const realFile = real(named2);
  return folders.find((f) => f.names.includes(named2) || f.at === realFile)?.names[0];
}
function placeIn(folders, file) {
  for (const [index, folder2] of folders.entries()) {
    const name = folder2.names.find((n) => inside(file, n));
    if (name !== void 0) return { index, under: file.slice(name.length) };
  }
  return void 0;
}
function toolTrees(folders, files) {
  const trees = /* @__PURE__ */ new Set();
  for (const file of files.filter((f) => path2.isAbsolute(f)).map((f) => path2.resolve(f))) {
    for (const folder2 of folders.filter((f) => "own" in f.replacement)) {
      const name = folder2.names.find((n) => inside(file, n));
      const top = name === void 0 ? void 0 : path2.relative(name, file).split(path2.sep)[0];
      if (name !== void 0 && top) trees.add(path2.join(name, top));
    }
  }
  return [...trees];
}
function stageFolder(runFolder, index) {
  return path2.join(runFolder, "stage", String(index));
}
function mountSteps(plan2) {
  const { folders, runFolder } = plan2;
  const kept = [];
  for (const file of [...new Set(plan2.kept.filter((k) => path2.isAbsolute(k)).map((k) => path2.resolve(k)))].sort(
    (a, b) => a.length - b.length
  )) {
    if (real(file) === void 0 || kept.some((k) => within(file, k.file))) continue;
    const place = placeIn(folders, file);
    if (place) kept.push({ file, ...place });
  }
  const steps = [];
  for (const [index, folder2] of folders.entries()) {
    const stage = stageFolder(runFolder, index);
    const { replacement } = folder2;
    steps.push(
      "tmpfs" in replacement ? { op: "tmpfs", at: stage, mode: replacement.tmpfs } : { op: "bind", from: path2.join(runFolder, replacement.own), at: stage }
    );
    for (const k of kept.filter((k2) => k2.index === index))
      steps.push({ op: "bind", from: k.file, at: stage + k.under });
    for (const file of new Set(plan2.fresh.filter((f) => path2.isAbsolute(f)).map((f) => path2.resolve(f)))) {
      const place = placeIn(folders, file);
      if (place?.index === index && !kept.some((k) => within(file, k.file)))
        steps.push({ op: "dir", at: stage + place.under });
    }
  }
  const holdsRunFolder = placeIn(folders, runFolder)?.index;
  const order = [...folders.keys()].sort((a, b) => Number(a === holdsRunFolder) - Number(b === holdsRunFolder));
  for (const index of order) steps.push({ op: "move", from: stageFolder(runFolder, index), at: folders[index].at });
  for (const socket of plan2.sockets) {
    const hidden = placeIn(folders, socket) !== void 0 && !kept.some((k) => within(socket, k.file));
    if (!hidden) steps.push({ op: "cover", at: socket });
  }
  return steps;
}

// src/tools/namespace-sockets.ts
import { readdirSync, statSync as statSync2 } from "node:fs";
import path3 from "node:path";
var homeSockets = [
  ".docker/run/docker.sock",
  ".docker/desktop/docker.sock",
  ".colima/docker.sock",
  ".colima/default/docker.sock",
  ".rd/docker.sock",
  ".lima/default/sock/docker.sock",
  ".gnupg/S.gpg-agent",
  ".gnupg/S.gpg-agent.ssh",
  ".gnupg/S.gpg-agent.extra",
  ".gnupg/S.gpg-agent.browser",
  ".gnupg/S.dirmngr",
  ".gnupg/S.keyboxd",
  ".1password/agent.sock"
];
var systemSockets = [
  "/var/snap/lxd/common/lxd/unix.socket",
  "/var/lib/lxd/unix.socket",
  "/var/lib/incus/unix.socket",
  "/nix/var/nix/daemon-socket/socket",
  "/var/guix/daemon-socket/socket",
  "/dev/log"
];
var searchedFolders = [{ folder: ".ssh", depth: 2 }];
function namedPaths(value) {
  return value.split(/[;,]/).map((part) => part.replace(/^unix:\/\//, "").replace(/^unix:path=/, "")).filter((part) => path3.isAbsolute(part));
}
function isSocket(file) {
  try {
    return statSync2(file).isSocket();
  } catch {
    return false;
  }
}
function socketsUnder(folder2, depth) {
  let entries;
  try {
    entries = readdirSync(folder2, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const file = path3.join(folder2, entry.name);
    if (entry.isSocket()) return [file];
    return entry.isDirectory() && depth > 1 ? socketsUnder(file, depth - 1) : [];
  });
}
function serviceSockets(homes, environments) {
  const candidates2 = new Set(systemSockets);
  for (const home of new Set(homes.filter((h) => path3.isAbsolute(h)))) {
    for (const file of homeSockets) candidates2.add(path3.join(home, file));
    for (const { folder: folder2, depth } of searchedFolders) {
      for (const file of socketsUnder(path3.join(home, folder2), depth)) candidates2.add(file);
    }
  }
  for (const env of environments) {
    for (const value of Object.values(env)) {
      if (value !== void 0) for (const file of namedPaths(value)) candidates2.add(path3.normalize(file));
    }
  }
  return [...candidates2].filter(isSocket).sort();
}

// src/tools/namespace-seal.ts
var unshareArgs = ["--user", "--map-root-user", "--net", "--mount", "--propagation", "private", "--"];
function sealInNamespace(sandbox, options) {
  const deps = options.deps ?? {};
  const node = options.node ?? process.execPath;
  let probing;
  let sealing;
  let seal;
  let means;
  let reported = emptyTally();
  let destinations2 = options.destinations;
  const probe = () => probing ??= findMeans(options.platform ?? process.platform, deps, sandbox.workTree);
  const install = async () => {
    const found = await probe();
    if (typeof found === "string") throw new SandboxError(options.impossible(found));
    means = found;
    return openProxy(destinations2, deps, found.folders);
  };
  return {
    ...sandbox,
    async ready() {
      await sandbox.ready();
      sealing ??= install().then((s) => seal = s);
      await sealing;
    },
    async refusal() {
      const inner = await sandbox.refusal();
      if (inner !== void 0) return inner;
      const found = await probe();
      return typeof found === "string" ? options.impossible(found) : void 0;
    },
    // Steps run apart would get the inner sandbox's views, which are not sealed.
    inTree: void 0,
    plan(argv, env, options2) {
      if (!seal || !means) throw new SandboxError("The sandbox is not ready; call ready() first.");
      const proxied = { ...env, ...proxyEnvironment(`http://127.0.0.1:${seal.port}`) };
      const inner = sandbox.plan(argv, proxied, options2);
      const spec = {
        socket: seal.socket,
        port: seal.port,
        ip: means.ip,
        mount: means.mount,
        unshare: means.unshare,
        steps: viewSteps(means, seal, sandbox.workTree, inner.file, inner.env)
      };
      return {
        file: means.unshare,
        args: [...unshareArgs, node, "-e", bridgeProgram, JSON.stringify(spec), inner.file, ...inner.args],
        env: inner.env,
        wrapped: true
      };
    },
    limitNetwork(approved) {
      if (sealing !== void 0)
        throw new SandboxError("The network was sealed before the approved scope was known; nothing may widen it now.");
      destinations2 = destinations2.filter((d) => approved.includes(formatDestination(d)));
    },
    refusedSince() {
      if (!seal) return Promise.resolve([]);
      const now = { counts: /* @__PURE__ */ new Map(), proxyRefusals: proxyRefused(seal.proxy) };
      const fresh = newSince(reported, now);
      reported = now;
      return Promise.resolve(fresh);
    },
    async close() {
      await sandbox.close();
      const s = seal;
      seal = void 0;
      if (s) {
        await s.proxy.close();
        await rm(s.folder, { recursive: true, force: true }).catch(() => void 0);
      }
    }
  };
}
function viewSteps(means, seal, workTree, file, env) {
  const programs = [file, means.unshare, means.mount].filter((f) => path4.isAbsolute(f)).map((f) => path4.dirname(f));
  const pathFolders = (env.PATH ?? "").split(path4.delimiter);
  const temps = [env.TMPDIR, env.TMP, env.TEMP].filter((t) => t !== void 0);
  const homes = [homedir(), process.env.HOME, env.HOME].filter((h) => h !== void 0 && h !== "");
  return mountSteps({
    folders: means.folders,
    runFolder: seal.folder,
    kept: [
      workTree,
      seal.socket,
      ...homes,
      ...pathFolders,
      ...programs,
      ...toolTrees(means.folders, [...pathFolders, ...programs])
    ],
    fresh: temps,
    sockets: serviceSockets(homes, [process.env, env])
  });
}
async function openProxy(destinations2, deps, folders) {
  const folder2 = await mkdtemp(path4.join(deps.tmpDir ?? tmpdir(), "plangate-net-"));
  const socket = path4.join(folder2, "proxy.sock");
  try {
    for (const [index, hidden] of folders.entries()) {
      await mkdir(stageFolder(folder2, index), { recursive: true });
      if ("own" in hidden.replacement) {
        const own = path4.join(folder2, hidden.replacement.own);
        await mkdir(own);
        await chmod(own, 1023);
      }
    }
    const proxy = await startEgressProxy({ destinations: destinations2, socketPath: socket });
    return { proxy, folder: folder2, socket, port: randomInt(2e4, 6e4) };
  } catch (error) {
    await rm(folder2, { recursive: true, force: true });
    throw error;
  }
}
var networkOnlyArgs = ["--user", "--map-root-user", "--net", "--"];
function firstLine(error) {
  const detail = error.detail ?? errorMessage(error);
  return detail.split("\n")[0] ?? detail;
}
async function findMeans(platform, deps, workTree) {
  if (platform !== "linux") return `network namespaces exist only on Linux, and this is ${platform}`;
  const programs = helperPrograms(deps);
  let found;
  try {
    found = { unshare: locate(programs, "unshare"), ip: "", mount: "", folders: hiddenFolders() };
  } catch {
    return `unshare (util-linux) is not installed: there is no unshare program on PATH (${programs.path})`;
  }
  try {
    found.ip = locate(programs, "ip");
  } catch {
    return `ip (iproute2), which brings up loopback inside the namespace, is not installed: there is no ip program on PATH (${programs.path})`;
  }
  try {
    found.mount = locate(programs, "mount");
  } catch {
    return `mount (util-linux), which hides your services' sockets from commands, is not installed: there is no mount program on PATH (${programs.path})`;
  }
  const hidden = hiddenFolderAt(found.folders, workTree);
  if (hidden !== void 0)
    return `the work tree is ${hidden} itself, a folder commands get an empty replacement of (it holds other programs' sockets); clone the repository into a folder of its own`;
  try {
    await run(programs, found.unshare, [...networkOnlyArgs, found.ip, "link", "set", "lo", "up"]);
  } catch (error) {
    return `unshare cannot make a network namespace as this user (${firstLine(error)}): user namespaces are not allowed here (see the sysctls user.max_user_namespaces, kernel.unprivileged_userns_clone or kernel.apparmor_restrict_unprivileged_userns)`;
  }
  const target = found.folders[0]?.at ?? "/tmp";
  try {
    await run(programs, found.unshare, [...unshareArgs, found.mount, "-n", "-t", "tmpfs", "plangate", target]);
  } catch (error) {
    return `unshare cannot make a mount namespace that hides ${target} as this user (${firstLine(error)}), so commands would reach your services' sockets there (tmux, the systemd user manager, docker)`;
  }
  try {
    await run(programs, found.unshare, [...unshareArgs, found.unshare, ...nestedUnshareArgs, found.ip, "-V"]);
  } catch (error) {
    return `unshare cannot make a user namespace inside the command's namespace as this user (${firstLine(error)}), so a command could undo the mounts that hide your services' sockets (see the sysctl user.max_user_namespaces)`;
  }
  return found;
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
