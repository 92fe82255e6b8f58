import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  triageEvent
} from "./chunks/chunk-BRPCDI3F.js";
import {
  escapeProse,
  eventIgnoreReason,
  secretInputs
} from "./chunks/chunk-L7UZGG4K.js";
import "./chunks/chunk-ORSRIQN3.js";
import {
  errorMessage,
  redact
} from "./chunks/chunk-NMFGPCOO.js";
import "./chunks/chunk-XQWL7OYR.js";

// src/entry/early-failure.ts
import { accessSync, appendFileSync, constants, existsSync } from "node:fs";
import { EOL } from "node:os";
function reportEarlyFailure(problem, env = process.env, write = (text) => void process.stdout.write(text)) {
  const output = env.GITHUB_OUTPUT;
  const summary = env.GITHUB_STEP_SUMMARY;
  if (!output || !existsSync(output) || summary && !readableAndWritable(summary)) return false;
  const secrets = secretInputs.map((name) => (env[`INPUT_${name.toUpperCase()}`] ?? "").trim()).filter(Boolean);
  const message = redact(problem.message, problem.redactInputs ? secrets : []);
  try {
    for (const secret of secrets) write(`::add-mask::${escapeData(secret)}${EOL}`);
    appendFileSync(output, `outcome=failed${EOL}`, "utf8");
    write(`::error::${escapeData(message)}${EOL}`);
    process.exitCode = 1;
    if (summary) appendFileSync(summary, `### plangate could not run

${escapeProse(message)}
${EOL}`, "utf8");
  } catch {
    return false;
  }
  return true;
}
function escapeData(text) {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
function readableAndWritable(file) {
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// src/entry/inherited-descriptors.ts
import { closeSync, readdirSync, readFileSync } from "node:fs";
var closeOnExec = 524288;
function closeInheritedDescriptors() {
  let entries;
  try {
    entries = readdirSync("/proc/self/fd");
  } catch {
    return [];
  }
  const channel = Number(process.env.NODE_CHANNEL_FD ?? -1);
  const closed = [];
  for (const entry of entries) {
    const fd = Number(entry);
    if (!Number.isInteger(fd) || fd <= 2 || fd === channel) continue;
    const flags = descriptorFlags(fd);
    if (flags === void 0 || (flags & closeOnExec) !== 0) continue;
    try {
      closeSync(fd);
      closed.push(fd);
    } catch {
    }
  }
  return closed;
}
function descriptorFlags(fd) {
  try {
    const match = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"));
    return match?.[1] === void 0 ? void 0 : parseInt(match[1], 8);
  } catch {
    return void 0;
  }
}

// src/entry/ignored-report.ts
import { appendFileSync as appendFileSync2, existsSync as existsSync2 } from "node:fs";
import { EOL as EOL2 } from "node:os";
function reportIgnored(reason, env = process.env, write = (text) => void process.stdout.write(text)) {
  const file = env.GITHUB_OUTPUT;
  if (!file || !existsSync2(file)) return false;
  try {
    appendFileSync2(file, `outcome=ignored${EOL2}`, "utf8");
  } catch {
    return false;
  }
  write(`Nothing to do: ${reason}.${EOL2}`);
  return true;
}

// src/entry/runner-check.ts
import { readFileSync as readFileSync2 } from "node:fs";
var missing = "Invalid input: expected string, received undefined";
var required = (v) => v === void 0 ? missing : v === "" ? "Too small: expected string to have >=1 characters" : void 0;
var matching = (pattern, words) => (v) => v === void 0 ? missing : pattern.test(v) ? void 0 : words;
var url = (v) => v === void 0 || URL.canParse(v.trim()) ? void 0 : "Invalid URL";
var optionalMatching = (pattern, words) => (v) => v === void 0 || pattern.test(v) ? void 0 : words;
var rules = [
  ["GITHUB_EVENT_NAME", required],
  ["GITHUB_EVENT_PATH", required],
  ["GITHUB_REPOSITORY", matching(/^[^/\s]+\/[^/\s]+$/, "must be owner/name")],
  ["GITHUB_WORKSPACE", required],
  ["GITHUB_API_URL", url],
  ["GITHUB_SERVER_URL", url],
  ["GITHUB_REPOSITORY_ID", optionalMatching(/^\d*$/, "must be a number")]
];
function runnerProblem(env) {
  const issues = [];
  for (const [name, rule] of rules) {
    const verdict = rule(env[name]);
    if (verdict !== void 0) issues.push(`${name}: ${verdict}`);
  }
  if (issues.length === 0) return void 0;
  return `The runner environment is incomplete (${issues.join("; ")}). plangate must run inside a GitHub Actions job.`;
}
function payloadProblem(env, read = readUtf8) {
  const eventName = env.GITHUB_EVENT_NAME ?? "";
  const eventPath = env.GITHUB_EVENT_PATH ?? "";
  if (eventIgnoreReason(eventName) !== void 0) return void 0;
  try {
    JSON.parse(read(eventPath));
    return void 0;
  } catch (error) {
    return `Cannot read the event payload at ${eventPath}: ${errorMessage(error)}`;
  }
}
var readUtf8 = (file) => readFileSync2(file, "utf8");

// src/entry/index.ts
closeInheritedDescriptors();
var triage = triageEvent();
var answered = () => {
  if (triage.kind === "ignore") return reportIgnored(triage.reason);
  const broken = runnerProblem(process.env);
  if (broken !== void 0) return reportEarlyFailure({ message: broken, redactInputs: false });
  const unreadable = triage.event ? void 0 : payloadProblem(process.env);
  return unreadable !== void 0 && reportEarlyFailure({ message: unreadable, redactInputs: true });
};
if (!answered()) {
  const { run } = await import("./chunks/main-ACA3HQYW.js");
  await run(triage);
}
