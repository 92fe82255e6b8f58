import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  COMMENT_EVENTS,
  commandPrefixPattern,
  commentIgnoreReason,
  commentOfEvent,
  eventIgnoreReason
} from "./chunk-L7UZGG4K.js";

// src/entry/triage.ts
import { readFileSync } from "node:fs";
var readUtf8 = (file) => readFileSync(file, "utf8");
function commandInputs(env) {
  const untrimmed = (name) => env[`INPUT_${name.toUpperCase()}`] ?? "";
  const raw = (name) => untrimmed(name).trim();
  const prefix = untrimmed("command-prefix");
  return {
    commandPrefix: prefix === "" ? "" : commandPrefixPattern.test(prefix.trim()) ? prefix.trim() : void 0,
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
  const { botLogin, allowedBots, commandPrefix } = commandInputs(env);
  if (commandPrefix === void 0) return { kind: "undecided", event };
  const reason = commentIgnoreReason(facts, botLogin, allowedBots, commandPrefix);
  return reason === void 0 ? { kind: "undecided", event } : { kind: "ignore", reason };
}

export {
  triageEvent
};
