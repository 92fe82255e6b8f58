import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);

// src/config/defaults.ts
var inputDefaults = {
  "github-token": "${{ github.token }}",
  "api-key": "",
  "base-url": "https://api.openai.com/v1",
  "planner-model": "gpt-4.1",
  "executor-model": "gpt-4.1-mini",
  "planner-api-key": "",
  "planner-base-url": "",
  "executor-api-key": "",
  "executor-base-url": "",
  "model-retries": "6",
  "model-timeout": "180",
  policy: "plan-for-approval",
  "stall-limit": "8",
  "trigger-permission": "write",
  "approve-permission": "write",
  "allowed-commands": "",
  "protected-paths": ".github/workflows/**",
  "max-iterations": "8",
  "parallel-steps": "3",
  "timeout-minutes": "45",
  "max-cost-usd": "",
  "allow-blocked-plans": "false",
  "max-estimated-cost-usd": "",
  "branch-prefix": "plangate/",
  "pr-draft": "false",
  "pr-labels": "",
  "pull-request-mode": "stacked",
  "base-branch": "",
  "allowed-bots": "",
  "command-prefix": "",
  "require-distinct-approver": "false",
  "approval-max-age-hours": "168",
  "record-secret": "",
  "context-permission": "triage",
  "command-user": "",
  "command-isolation": "account",
  network: "sealed",
  "allowed-domains": "",
  scope: "enforce",
  "command-env": "",
  "max-write-bytes": "1048576",
  "bot-login": "github-actions[bot]",
  "config-file": ".github/plangate.yml"
};
function defaultLines(name) {
  return inputDefaults[name].split("\n").map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"));
}
function defaultNumber(name) {
  return Number(inputDefaults[name]);
}

export {
  inputDefaults,
  defaultLines,
  defaultNumber
};
