import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);

// src/entry/triage.ts
import { readFileSync } from "node:fs";

// src/text/comment-command.ts
var COMMAND_EVENTS = [
  "issue_comment",
  "pull_request_review_comment",
  "pull_request_review",
  "schedule",
  "workflow_dispatch"
];
var COMMENT_EVENTS = [
  "issue_comment",
  "pull_request_review_comment",
  "pull_request_review"
];
function eventIgnoreReason(eventName) {
  return COMMAND_EVENTS.includes(eventName) ? void 0 : `the ${eventName} event carries no plangate command`;
}
var planIdPattern = /^[0-9a-f]{6,40}$/;
function isBot(user) {
  return user.type === "Bot" || user.login.endsWith("[bot]");
}
var commandOptions = {
  plan: [],
  revise: [],
  answer: [],
  approve: ["--over-budget"],
  status: [],
  cancel: [],
  help: []
};
var optionWord = new RegExp("^(?:-{1,2}|[\u2014\u2013])\\p{L}", "u");
var textOptionWord = new RegExp("^(?:--|[\u2014\u2013])\\p{L}", "u");
function unknownOption(command, words, pattern = optionWord) {
  const option = words.find((w) => pattern.test(w) && !commandOptions[command].includes(w.toLowerCase()));
  return option === void 0 ? void 0 : { name: "unknown-option", command, option };
}
function parseCommentCommand(text) {
  const normalized = text.replace(/\r\n?/g, "\n").trimStart();
  const newline = normalized.indexOf("\n");
  const first = (newline === -1 ? normalized : normalized.slice(0, newline)).trim();
  const following = newline === -1 ? "" : normalized.slice(newline + 1);
  const match = /^\/([a-z-]+)(?:\s+(.*))?$/i.exec(first);
  if (!match) return void 0;
  const name = (match[1] ?? "").toLowerCase();
  const args = (match[2] ?? "").trim();
  const words = args === "" ? [] : args.split(/\s+/);
  if (name === "plan" || name === "revise" || name === "answer") {
    const wrong = unknownOption(name, words.slice(0, 1), textOptionWord);
    if (wrong) return wrong;
    return {
      name,
      rest: [args, following].filter((s) => s.trim() !== "").join("\n").trim()
    };
  }
  if (name === "approve") {
    const wrong = unknownOption(name, words.slice(0, 2));
    if (wrong) return wrong;
    const flagAt = words.slice(0, 2).findIndex((w) => w.toLowerCase() === "--over-budget");
    const flag = flagAt === -1 ? {} : { overBudget: true };
    const id = (flagAt === -1 ? words : words.filter((_, i) => i !== flagAt))[0];
    if (id === void 0) return { name: "approve", ...flag };
    return planIdPattern.test(id) ? { name: "approve", planId: id, ...flag } : { name: "approve", invalidId: id, ...flag };
  }
  if (name === "status" || name === "cancel" || name === "help")
    return unknownOption(name, words.slice(0, 1)) ?? { name };
  return { name: "unknown", command: name };
}
function commentIgnoreReason(comment, botLogin, allowedBots) {
  if (comment.action !== "created") return `comment was ${comment.action}, not created`;
  const { author } = comment;
  if (author.login === botLogin) return "the comment is plangate\u2019s own";
  if (isBot(author) && !allowedBots.includes(author.login)) {
    return `comments by bots (${author.login}) are not commands unless listed in allowed-bots`;
  }
  if (!parseCommentCommand(comment.body)) return "the comment\u2019s first line is not a plangate command";
  return void 0;
}
function commentOfEvent(eventName) {
  return eventName === "pull_request_review" ? { field: "review", created: "submitted" } : { field: "comment", created: "created" };
}

// src/entry/triage.ts
var readUtf8 = (file) => readFileSync(file, "utf8");
function commandInputs(env) {
  const raw = (name) => (env[`INPUT_${name.toUpperCase()}`] ?? "").trim();
  return {
    botLogin: raw("bot-login") || "github-actions[bot]",
    allowedBots: raw("allowed-bots").split("\n").map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"))
  };
}
var isRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
function commentFacts(eventName, payload) {
  const { field, created } = commentOfEvent(eventName);
  if (!isRecord(payload) || typeof payload.action !== "string") return void 0;
  const comment = payload[field];
  if (!isRecord(comment)) return void 0;
  const { user, body } = comment;
  if (!isRecord(user) || typeof user.login !== "string") return void 0;
  if (user.type !== void 0 && typeof user.type !== "string") return void 0;
  if (body !== void 0 && body !== null && typeof body !== "string") return void 0;
  const action = payload.action === created ? "created" : payload.action;
  return { action, author: { login: user.login, type: user.type }, body: body ?? "" };
}
function triageEvent(env = process.env, readEventFile = readUtf8) {
  const eventName = env.GITHUB_EVENT_NAME ?? "";
  if (eventName === "") return { kind: "undecided" };
  const notCarried = eventIgnoreReason(eventName);
  if (notCarried !== void 0) return { kind: "ignore", reason: notCarried };
  if (!COMMENT_EVENTS.includes(eventName) || !env.GITHUB_EVENT_PATH) return { kind: "undecided" };
  let payload;
  try {
    payload = JSON.parse(readEventFile(env.GITHUB_EVENT_PATH));
  } catch {
    return { kind: "undecided" };
  }
  const event = { path: env.GITHUB_EVENT_PATH, payload };
  const facts = commentFacts(eventName, payload);
  if (!facts) return { kind: "undecided", event };
  const { botLogin, allowedBots } = commandInputs(env);
  const reason = commentIgnoreReason(facts, botLogin, allowedBots);
  return reason === void 0 ? { kind: "undecided", event } : { kind: "ignore", reason };
}

// src/config/secret-inputs.ts
var secretInputs = [
  "github-token",
  "api-key",
  "planner-api-key",
  "executor-api-key",
  "record-secret"
];

export {
  secretInputs,
  eventIgnoreReason,
  isBot,
  commandOptions,
  parseCommentCommand,
  commentIgnoreReason,
  commentOfEvent,
  triageEvent
};
