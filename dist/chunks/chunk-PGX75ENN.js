import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  GitError,
  createBudget,
  emptyUsage,
  hasDotGitComponent,
  inScope,
  ledgerTotals,
  matchProtected,
  plannerExecutorMachine,
  startSnapshot,
  startTeam,
  totalCost,
  totalTokens
} from "./chunk-JF4VOWI3.js";

// src/machine/executor-only.ts
var consumeAll = { kind: "consume", fields: ["directive", "result", "outcome"] };
var consumeReport = { kind: "consume", fields: ["result", "outcome"] };
var unreachable = { agent: null, requires: [], edges: [], terminal: true };
var executorOnlyMachine = {
  initial: "execute",
  // There is no planner to write an abort summary: a forced abort ends the run at once, with its reason.
  abortState: "done",
  abortActions: [consumeAll],
  states: {
    execute: {
      agent: "executor",
      requires: ["result", "outcome"],
      onExit: [{ kind: "appendHistory" }, { kind: "countIteration" }],
      // The interrupted cycle stays in history so the record shows what was being attempted.
      onForcedAbort: [{ kind: "appendAbortedCycle" }],
      edges: [
        { to: "done", guard: { field: "outcome", equals: "done" }, actions: [consumeAll] },
        { to: "execute", guard: { field: "outcome", equals: "replan" }, actions: [consumeReport], loop: true },
        { to: "done", guard: { field: "outcome", equals: "abort" }, actions: [consumeAll] }
      ]
    },
    done: { agent: null, requires: [], edges: [], terminal: true },
    plan: unreachable,
    replan: unreachable,
    finish: unreachable,
    abort: unreachable,
    ask: unreachable
  }
};
function executorOnlySnapshot(objective, policy) {
  return startSnapshot(executorOnlyMachine.initial, { objective, directive: objective, history: [] }, policy);
}

// src/repo/credential-scan.ts
var maxScannedBytes = 8 * 1024 * 1024;
var blobModes = /* @__PURE__ */ new Set(["100644", "100755", "120000"]);
var maxNamedFindings = 3;
var remembered = /* @__PURE__ */ new Map();
var maxRemembered = 2e4;
async function credentialHolds(git, head) {
  const blobs = await stagedBlobs(git, head);
  const holds = [];
  let rules;
  for (const blob of blobs) {
    const key = [blob.from ?? "", blob.srcSha, blob.path, blob.dstSha].join("\0");
    let verdict = remembered.get(key);
    if (verdict === void 0) {
      rules ??= await import("./credential-rules-OEI2FJKM.js");
      verdict = await read(git, head, blob, rules.findCredentials);
      if (verdict.kind !== "unreadable") {
        if (remembered.size >= maxRemembered) remembered.clear();
        remembered.set(key, verdict);
      }
    }
    const reason = reasonFor(verdict);
    if (reason === void 0) continue;
    holds.push({ path: blob.path, change: blob.change, reason });
    if (blob.from !== void 0)
      holds.push({ path: blob.from, change: "deleted", reason: `renamed to ${blob.path}, which is held back` });
  }
  return holds;
}
async function stagedBlobs(git, head) {
  const out = await git([
    "diff",
    "--cached",
    "--raw",
    "--no-abbrev",
    "-z",
    "-M",
    "--no-ext-diff",
    "--no-textconv",
    "--ignore-submodules=none",
    ...head ? ["HEAD"] : [],
    "--"
  ]);
  const tokens = out.split("\0");
  const blobs = [];
  for (let i = 0; i < tokens.length; ) {
    const [srcMode = "", dstMode = "", srcSha = "", dstSha = "", status = ""] = (tokens[i] ?? "").replace(/^:/, "").split(" ");
    const twoPaths = status.startsWith("R") || status.startsWith("C");
    const first = tokens[i + 1] ?? "";
    const path = twoPaths ? tokens[i + 2] ?? "" : first;
    i += twoPaths ? 3 : 2;
    if (path === "" || !blobModes.has(dstMode) || status.startsWith("D") || srcSha === dstSha) continue;
    blobs.push({
      path,
      ...status.startsWith("R") ? { from: first } : {},
      srcMode,
      srcSha,
      dstSha,
      change: changeOf(status)
    });
  }
  return blobs;
}
function changeOf(status) {
  if (status.startsWith("A") || status.startsWith("R") || status.startsWith("C")) return "added";
  if (status.startsWith("T")) return "type";
  return "modified";
}
async function read(git, head, blob, findCredentials) {
  try {
    const shas = [blob.dstSha, ...blobModes.has(blob.srcMode) ? [blob.srcSha] : []];
    for (const sha of shas) {
      if (Number(await git(["cat-file", "-s", sha])) > maxScannedBytes) return { kind: "too-large" };
    }
    const patch = await git([
      "--literal-pathspecs",
      "diff",
      "--cached",
      "--no-color",
      "--no-ext-diff",
      "--no-textconv",
      "--text",
      `--unified=${maxScannedBytes + 1}`,
      blob.from === void 0 ? "--no-renames" : "-M",
      ...head ? ["HEAD"] : [],
      "--",
      ...blob.from === void 0 ? [] : [blob.from],
      blob.path
    ]);
    const { content, added } = newSide(patch);
    const lines = lineStarts(content);
    const findings = [];
    for (const match of await findCredentials(blob.path, content)) {
      const first = lineAt(lines, match.start);
      const last = lineAt(lines, Math.max(match.start, match.end - 1));
      for (let line = first; line <= last; line += 1) {
        if (added.has(line)) {
          findings.push({ rule: match.rule, line: first });
          break;
        }
      }
    }
    return findings.length > 0 ? { kind: "found", findings } : { kind: "clean" };
  } catch {
    return { kind: "unreadable" };
  }
}
function newSide(patch) {
  const lines = [];
  const added = /* @__PURE__ */ new Set();
  let inHunk = false;
  for (const line of patch.split("\n")) {
    if (inHunk) {
      const mark = line[0];
      if (mark === " " || mark === "+") {
        lines.push(line.slice(1));
        if (mark === "+") added.add(lines.length);
        continue;
      }
      if (mark === "-" || mark === "\\") continue;
      inHunk = false;
    }
    if (line.startsWith("@@")) inHunk = true;
  }
  return { content: lines.join("\n"), added };
}
function lineStarts(text) {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}
function lineAt(starts, offset) {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}
function reasonFor(verdict) {
  switch (verdict.kind) {
    case "clean":
      return void 0;
    case "too-large":
      return `too large to check for credentials (over ${maxScannedBytes / 1024 / 1024} MiB)`;
    case "unreadable":
      return "could not be checked for credentials";
    case "found": {
      const named = verdict.findings.slice(0, maxNamedFindings).map((f) => `${f.rule} on line ${f.line}`);
      const more = verdict.findings.length - named.length;
      return `holds a credential (${named.join(", ")}${more > 0 ? `, and ${more} more` : ""})`;
    }
  }
}

// src/repo/tree-status.ts
var gitlinkMode = "160000";
var absentMode = "000000";
var maxBatchPaths = 500;
var maxBatchChars = 6e4;
async function hasHead(git) {
  try {
    await git(["rev-parse", "--quiet", "--verify", "HEAD^{commit}"]);
    return true;
  } catch (error) {
    if (error instanceof GitError && error.exitCode === 1) return false;
    throw error;
  }
}
async function changedPaths(git) {
  const out = await git([
    "status",
    "--porcelain=v2",
    "-z",
    "--untracked-files=all",
    "--ignore-submodules=dirty",
    "--no-renames"
  ]);
  const records = out.split("\0");
  const candidates = [];
  for (let i = 0; i < records.length; i += 1) {
    const record = records[i] ?? "";
    const fields = record.split(" ");
    switch (record[0]) {
      case "1": {
        const [, , , mH = absentMode, , mW = absentMode, hH = ""] = fields;
        candidates.push(tracked(fields.slice(8).join(" "), mH, mW, hH));
        break;
      }
      case "2": {
        const [, , , mH = absentMode, , mW = absentMode] = fields;
        const from = records[i + 1] ?? "";
        i += 1;
        candidates.push({
          path: fields.slice(9).join(" "),
          change: mW === absentMode ? "deleted" : "added",
          nested: false
        });
        if (from !== "" && mH !== absentMode) candidates.push({ path: from, change: "deleted", nested: false });
        break;
      }
      case "u":
        candidates.push({
          path: fields.slice(10).join(" "),
          change: fields[4] === absentMode ? "added" : "modified",
          nested: false
        });
        break;
      case "?": {
        const path = record.slice(2);
        if (path.endsWith("/")) candidates.push({ path: path.replace(/\/+$/, ""), change: "added", nested: true });
        else candidates.push({ path, change: "added", nested: false });
        break;
      }
      default:
        break;
    }
  }
  return candidates;
}
function tracked(path, headMode, treeMode, headBlob) {
  const nested = treeMode === gitlinkMode && headMode !== gitlinkMode;
  if (headMode === absentMode) return { path, change: "added", nested };
  if (treeMode === absentMode) return { path, change: "deleted", nested: false };
  if (fileType(headMode) !== fileType(treeMode)) return { path, change: "type", nested };
  if (headMode !== treeMode && fileType(headMode) === "10")
    return { path, change: "modified", nested: false, headBlob };
  return { path, change: "modified", nested: false };
}
function fileType(mode) {
  return mode.slice(0, 2);
}
async function stagedChanges(git, head) {
  const out = await git([
    "diff",
    "--cached",
    "--raw",
    "--no-abbrev",
    "-z",
    "--no-renames",
    "--no-ext-diff",
    "--no-textconv",
    "--ignore-submodules=none",
    ...head ? ["HEAD"] : [],
    "--"
  ]);
  const tokens = out.split("\0");
  const changes = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    const [srcMode = "", dstMode = "", srcSha = "", dstSha = "", status = ""] = (tokens[i] ?? "").replace(/^:/, "").split(" ");
    const path = tokens[i + 1] ?? "";
    changes.push({ path, srcMode, dstMode, change: stagedKind(status, srcMode, dstMode, srcSha === dstSha) });
  }
  return changes;
}
function stagedKind(status, srcMode, dstMode, sameContent) {
  if (status.startsWith("A") || srcMode === absentMode) return "added";
  if (status.startsWith("D") || dstMode === absentMode) return "deleted";
  if (status.startsWith("T") || fileType(srcMode) !== fileType(dstMode)) return "type";
  if (srcMode !== dstMode && sameContent) return "mode";
  return "modified";
}
function* batches(paths) {
  let batch = [];
  let chars = 0;
  for (const path of paths) {
    if (batch.length > 0 && (batch.length >= maxBatchPaths || chars + path.length > maxBatchChars)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(path);
    chars += path.length + 1;
  }
  if (batch.length > 0) yield batch;
}

// src/repo/change-gate.ts
var dotGitReason = "a .git path";
var nestedReason = "a nested git repository";
var protectedPrefix = "protected by ";
var outOfScopeReason = "outside the approved scope";
async function stageChecked(git, protectedPaths, scope) {
  const blockReason = (path) => whyKeptOut(path, protectedPaths, scope);
  const prefix = await git(["rev-parse", "--show-prefix"]);
  if (prefix !== "") throw new Error(`The commit gate must run at the top of the work tree, not in ${prefix}.`);
  const head = await hasHead(git);
  const candidates = await changedPaths(git);
  const decided = /* @__PURE__ */ new Map();
  const allowed = [];
  for (const candidate of candidates) {
    const reason = candidate.nested && !hasDotGitComponent(candidate.path) ? nestedReason : blockReason(candidate.path);
    if (reason === void 0) allowed.push(candidate);
    else remember(decided, decision(candidate.path, candidate.change, reason, candidate.change !== "added"));
  }
  const inTheWay = ancestorsOf(decided);
  const toStage = [];
  for (const candidate of allowed) {
    const blocked = decided.get(candidate.path) ?? inTheWay.get(candidate.path);
    if (blocked)
      remember(decided, {
        ...blocked,
        path: candidate.path,
        change: candidate.change,
        inHead: candidate.change !== "added"
      });
    else toStage.push(candidate);
  }
  await tellModeChanges(git, candidates, decided);
  for (const refused of await stage(
    git,
    toStage.map((c) => c.path)
  )) {
    const candidate = toStage.find((c) => c.path === refused.path);
    remember(decided, {
      path: refused.path,
      change: candidate?.change ?? "modified",
      reason: refused.reason,
      restore: false,
      inHead: candidate?.change !== "added"
    });
  }
  for (let round = 0; ; round += 1) {
    const staged = await stagedChanges(git, head);
    const blocked = /* @__PURE__ */ new Map();
    for (const entry of staged) {
      const nested = entry.dstMode === gitlinkMode && entry.srcMode !== gitlinkMode;
      const reason = nested && !hasDotGitComponent(entry.path) ? nestedReason : blockReason(entry.path);
      if (reason !== void 0)
        blocked.set(entry.path, decision(entry.path, entry.change, reason, entry.srcMode !== absentMode));
    }
    const around = ancestorsOf(blocked);
    for (const entry of staged) {
      const inner = around.get(entry.path);
      if (inner && !blocked.has(entry.path))
        blocked.set(entry.path, {
          ...inner,
          path: entry.path,
          change: entry.change,
          inHead: entry.srcMode !== absentMode
        });
    }
    if (blocked.size === 0) break;
    if (round >= 2)
      throw new Error(`plangate could not keep ${[...blocked.keys()].slice(0, 5).join(", ")} out of the commit.`);
    for (const entry of blocked.values()) remember(decided, entry);
    await unstage(git, [...blocked.keys()], head);
  }
  await holdCredentials(git, head, decided);
  await restoreProtected(
    git,
    [...decided.values()].filter((d) => d.restore),
    head
  );
  return [...decided.values()].map(({ path, change, reason, credential }) => ({ path, change, reason, ...credential ? { credential } : {} })).sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
function mergeKeptOut(...lists) {
  const seen = /* @__PURE__ */ new Map();
  for (const list of lists) {
    for (const change of list) {
      const key = `${change.change}\0${change.path}`;
      if (!seen.has(key))
        seen.set(key, {
          path: change.path,
          change: change.change,
          reason: change.reason,
          ...change.credential ? { credential: change.credential } : {}
        });
    }
  }
  return [...seen.values()].sort(
    (a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : a.change < b.change ? -1 : a.change > b.change ? 1 : 0
  );
}
async function holdCredentials(git, head, decided) {
  const held = await credentialHolds(git, head);
  for (const hold of held) remember(decided, { ...hold, credential: true, restore: false, inHead: false });
  await unstage(
    git,
    held.map((h) => h.path),
    head
  );
}
function whyKeptOut(path, protectedPaths, scope) {
  if (hasDotGitComponent(path)) return dotGitReason;
  const pattern = matchProtected(path, protectedPaths);
  if (pattern !== void 0) return `${protectedPrefix}${pattern}`;
  return scope && !inScope(path, scope) ? outOfScopeReason : void 0;
}
function decision(path, change, reason, inHead) {
  return { path, change, reason, inHead, restore: reason.startsWith(protectedPrefix) };
}
function remember(decided, entry) {
  if (!decided.has(entry.path)) decided.set(entry.path, entry);
}
function ancestorsOf(blocked) {
  const out = /* @__PURE__ */ new Map();
  for (const entry of blocked.values()) {
    const parts = entry.path.split("/");
    for (let i = 1; i < parts.length; i += 1) {
      const ancestor = parts.slice(0, i).join("/");
      if (!out.has(ancestor)) out.set(ancestor, entry);
    }
  }
  return out;
}
async function tellModeChanges(git, candidates, decided) {
  const ambiguous = candidates.filter((c) => c.headBlob !== void 0 && decided.get(c.path)?.change === "modified");
  for (const batch of batches(ambiguous.map((c) => c.path))) {
    const hashes = await git(["hash-object", "--no-filters", "--", ...batch]).catch(() => "");
    hashes.split("\n").forEach((hash, i) => {
      const path = batch[i];
      const candidate = ambiguous.find((c) => c.path === path);
      const entry = path === void 0 ? void 0 : decided.get(path);
      if (entry && candidate && hash !== "" && hash === candidate.headBlob) entry.change = "mode";
    });
  }
}
async function stage(git, paths) {
  const refused = [];
  for (const batch of batches(paths)) {
    const add = (list) => git(["--literal-pathspecs", "add", "--all", "--", ...list]);
    let failure;
    try {
      await add(batch);
      continue;
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      failure = error;
    }
    const before = refused.length;
    for (const path of batch) {
      try {
        await add([path]);
      } catch (error) {
        if (!(error instanceof GitError)) throw error;
        refused.push({ path, reason: `git refused to stage it (${firstLine(error.message)})` });
      }
    }
    if (batch.length > 1 && refused.length - before === batch.length) throw failure;
  }
  return refused;
}
function firstLine(message) {
  const line = (message.replace(/^git \S+ failed: /, "").split("\n")[0] ?? "").trim();
  return line.length > 200 ? `${line.slice(0, 199)}\u2026` : line;
}
async function unstage(git, paths, head) {
  for (const batch of batches(paths)) {
    if (head) await git(["--literal-pathspecs", "reset", "--quiet", "HEAD", "--", ...batch]);
    else await git(["--literal-pathspecs", "rm", "--cached", "--quiet", "--ignore-unmatch", "--", ...batch]);
  }
}
async function restoreProtected(git, protectedChanges, head) {
  const added = protectedChanges.filter((d) => !d.inHead || !head).map((d) => d.path);
  const changed = head ? protectedChanges.filter((d) => d.inHead).map((d) => d.path) : [];
  for (const batch of batches(added)) await git(["--literal-pathspecs", "clean", "--force", "--quiet", "--", ...batch]);
  for (const batch of batches(changed))
    await git(["--literal-pathspecs", "checkout", "--quiet", "HEAD", "--", ...batch]);
}

// src/repo/branch.ts
async function fetchBranch(git, ref) {
  await git(["fetch", "--no-tags", "--quiet", "origin", `+refs/heads/${ref}:refs/remotes/origin/${ref}`]);
  return git(["rev-parse", `refs/remotes/origin/${ref}^{commit}`]);
}
async function checkoutCommit(git, sha) {
  await git(["checkout", "--quiet", "--detach", sha]);
}
async function startBranch(git, branch, sha) {
  await git(["checkout", "--quiet", "-B", branch, sha]);
}
async function commitAll(git, message, author, protectedPaths, scope) {
  const keptOut = await stageChecked(git, protectedPaths, scope);
  if (!await hasStagedChanges(git)) return { sha: void 0, keptOut };
  await git([
    "-c",
    `user.name=${author.name}`,
    "-c",
    `user.email=${author.email}`,
    "commit",
    "--quiet",
    "--no-verify",
    // The check above decided there is something to commit; git's own check would skip a
    // submodule update when the configuration ignores submodules.
    "--allow-empty",
    "-m",
    message
  ]);
  return { sha: await git(["rev-parse", "HEAD"]), keptOut };
}
async function hasStagedChanges(git) {
  try {
    await git(["diff", "--cached", "--quiet", "--ignore-submodules=none"]);
    return false;
  } catch (error) {
    if (error instanceof GitError && error.exitCode === 1) return true;
    throw error;
  }
}
async function pushWithLease(git, branch, expected) {
  await git([
    "push",
    "--quiet",
    `--force-with-lease=refs/heads/${branch}:${expected ?? ""}`,
    "origin",
    `HEAD:refs/heads/${branch}`
  ]);
}

// src/render/commit-trailers.ts
var oneLine = (value) => value.replace(/[\r\n<>]+/g, " ").trim();
function noreplyEmail(login) {
  return `${oneLine(login)}@users.noreply.github.com`;
}
function commitTrailers(input) {
  const trailers = [`Plangate-Plan: ${oneLine(input.planId)}`, `Approved-by: ${oneLine(input.approvedBy)}`];
  const requester = oneLine(input.requestedBy);
  if (requester !== "" && requester.toLowerCase() !== oneLine(input.botLogin).toLowerCase()) {
    trailers.push(`Co-authored-by: ${requester} <${noreplyEmail(requester)}>`);
  }
  return trailers;
}
function withTrailers(message, trailers) {
  if (trailers.length === 0) return message;
  return `${message.replace(/\s+$/, "")}

${trailers.join("\n")}`;
}

// src/agents/notices.ts
function createNotices() {
  let pending = [];
  return {
    post(text) {
      pending.push(text);
    },
    take() {
      if (pending.length === 0) return void 0;
      const text = pending.join("\n");
      pending = [];
      return text;
    }
  };
}

// src/run/cycle-commit.ts
var maxTitleChars = 60;
function cycleCommitMessage(snapshot, planId, issue) {
  const cycle = snapshot.context.history.length;
  const title = (snapshot.context.history.at(-1)?.directive.split("\n")[0] ?? "").slice(0, maxTitleChars);
  const subject = `plangate: cycle ${cycle} of plan ${planId}: ${title}`;
  return issue === void 0 ? subject : `${subject}

Refs #${issue}`;
}
function createKeptOutLog(resumed = []) {
  let all = [...resumed];
  const told = /* @__PURE__ */ new Set();
  return {
    get all() {
      return all;
    },
    notices: createNotices(),
    keep(found) {
      all = mergeKeptOut(all, found);
      const fresh = found.filter((c) => !told.has(`${c.path}\0${c.change}`));
      for (const c of fresh) told.add(`${c.path}\0${c.change}`);
      return fresh.length > 0 ? keptOutNotice(fresh) : void 0;
    }
  };
}
function keptOutNotice(keptOut) {
  const byPath = keptOut.filter((c) => !c.credential);
  const held = keptOut.filter((c) => c.credential);
  const parts = [];
  if (byPath.length > 0)
    parts.push(
      [
        "plangate kept these changes out of the last commit, because nobody may change these paths through plangate; protected files were put back as they were:",
        ...listed(byPath),
        "Do not try to change them another way; if the objective needs them changed, say so in your result."
      ].join("\n")
    );
  if (held.length > 0)
    parts.push(
      [
        "plangate held these changes back from the last commit, because they add what looks like a credential (a key, token or password) or could not be checked; they are still in the work tree, uncommitted:",
        ...listed(held),
        "Never commit a real credential: take it out (use a placeholder, or read it from the environment at run time) and the change lands with the next commit."
      ].join("\n")
    );
  return parts.join("\n\n");
}
function listed(changes) {
  const lines = changes.slice(0, 20).map((c) => `- ${c.path} (${c.change}): ${c.reason}`);
  if (changes.length > 20) lines.push(`- and ${changes.length - 20} more`);
  return lines;
}

// src/run/run-team.ts
function startTeamRun(ctx, definition, snapshot, spent = emptyUsage(), instructions = "", execution = {}) {
  const { settings } = ctx;
  return startTeam({
    definition,
    snapshot,
    spent,
    planner: ctx.planner,
    executor: ctx.executor,
    sandbox: ctx.sandbox,
    reader: ctx.reader,
    ...execution,
    allowedCommands: settings.allowedCommands,
    protectedPaths: settings.protectedPaths,
    stallLimit: settings.stallLimit,
    secrets: ctx.secrets,
    prices: settings.prices,
    commandEnv: settings.commandEnv,
    maxWriteBytes: settings.maxWriteBytes,
    instructions,
    capabilities: ctx.mcp,
    ...settings.network === "sealed" ? { allowedNetwork: settings.allowedDestinations } : {}
  });
}
function usageTotals(ledger, ctx) {
  return ledgerTotals(ledger, ctx.settings.prices);
}
function machineFor(kind) {
  return kind === "executor-only" ? executorOnlyMachine : plannerExecutorMachine;
}

// src/run/run-budget.ts
function runBudget(limits, spentUsd, now = Date.now, approved) {
  const used = (ledger) => {
    const t = totalTokens(ledger);
    return t.promptTokens + t.completionTokens;
  };
  return createBudget({
    now,
    startedAt: now(),
    timeoutMinutes: shorter(limits.timeoutMinutes, approved?.budget.minutes),
    maxCostUsd: limits.maxCostUsd,
    spentUsd,
    ...approved ? {
      approved: {
        tokens: approved.budget.tokens,
        ...approved.budget.costUsd !== void 0 ? { costUsd: approved.budget.costUsd } : {},
        spentTokens: () => used(approved.ledger()) - used(approved.atApproval),
        spentUsd: () => {
          const now2 = totalCost(approved.ledger(), approved.prices);
          const then = totalCost(approved.atApproval, approved.prices);
          return now2 === null || then === null ? null : now2 - then;
        }
      }
    } : {}
  });
}
function shorter(a, b) {
  return a === void 0 ? b : b === void 0 ? a : Math.min(a, b);
}

// src/run/run-ending.ts
var abortFallbackReason = "the executor aborted";
function runEnding(final) {
  const lastCycle = final.context.history.at(-1);
  if (final.abortReason === void 0 && lastCycle?.outcome !== "abort") return { outcome: "done" };
  return { outcome: "aborted", reason: final.abortReason ?? lastCycle?.result ?? abortFallbackReason };
}

export {
  outOfScopeReason,
  stageChecked,
  fetchBranch,
  checkoutCommit,
  startBranch,
  commitAll,
  pushWithLease,
  commitTrailers,
  withTrailers,
  cycleCommitMessage,
  createKeptOutLog,
  executorOnlySnapshot,
  startTeamRun,
  usageTotals,
  machineFor,
  runBudget,
  runEnding
};
