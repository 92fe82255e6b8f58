import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  triageEvent
} from "./chunks/chunk-HI7T3WMB.js";
import "./chunks/chunk-XQWL7OYR.js";

// src/entry/ignored-report.ts
import { appendFileSync, existsSync } from "node:fs";
import { EOL } from "node:os";
function reportIgnored(reason, env = process.env, write = (text) => void process.stdout.write(text)) {
  const file = env.GITHUB_OUTPUT;
  if (!file || !existsSync(file)) return false;
  try {
    appendFileSync(file, `outcome=ignored${EOL}`, "utf8");
  } catch {
    return false;
  }
  write(`Nothing to do: ${reason}.${EOL}`);
  return true;
}

// src/entry/index.ts
var triage = triageEvent();
if (triage.kind !== "ignore" || !reportIgnored(triage.reason)) {
  const { run } = await import("./chunks/main-GH2ZDQYX.js");
  await run(triage);
}
