/**
 * What `--help` prints for each command. Kept beside the option definitions' names in args.ts and
 * written for someone who has never read the action's documentation: every option, its default and
 * the environment variables, since the API key can only come from one. The defaults come from the
 * one table (config/defaults.ts), so the help cannot tell of a default the action no longer has.
 */

import { defaultLines, inputDefaults } from '../config/defaults.js';
import { networkBundles } from '../scope/network-bundles.js';

const environment = `Environment:
  PLANGATE_API_KEY          API key of the endpoint (required; any non-empty value for a local
                            server without keys, e.g. Ollama). Never accepted as an argument, so it
                            stays out of your shell history; never printed.
  PLANGATE_BASE_URL         Base URL of the OpenAI-compatible endpoint (default
                            ${inputDefaults['base-url']}); --base-url wins over it.
  PLANGATE_PLANNER_MODEL    Planner model when no --planner-model or --model is given.
  PLANGATE_EXECUTOR_MODEL   Executor model when no --executor-model or --model is given.
  Variables an MCP server names in .github/plangate.yml (env:) are passed to that server only,
  from this environment; their values are never printed.`;

const modelOptions = `  --base-url <url>          OpenAI-compatible endpoint, e.g. https://api.deepseek.com/v1 or
                            http://localhost:11434/v1 (Ollama).
  --model <name>            Model for both roles.
  --planner-model <name>    Model of the read-only planner (default ${inputDefaults['planner-model']}).
  --executor-model <name>   Model of the executor (default ${inputDefaults['executor-model']}).
  --model-retries <n>       Retries of a model request after an overload, a rate limit, a provider
                            error, a timeout or a lost connection (0-20, default ${inputDefaults['model-retries']}).
  --model-timeout <s>       Seconds a model request may go without an answer (1-3600, default ${inputDefaults['model-timeout']}).`;

const workOptions = `  --allowed-commands <cmd>  A command the executor may run, e.g. "npm test" or "npm run *"
                            ("*" is one argument, a final "**" any number). Repeat the option for
                            more. Default: none, so run_command refuses everything.
  --protected-paths <glob>  A glob of files the executor may never write; repeat for more.
                            Default: ${defaultLines('protected-paths').join(', ')}
  --max-iterations <n>      Most execute cycles before the run aborts and keeps its work
                            (1-100, default ${inputDefaults['max-iterations']}).
  --network <mode>          sealed or open (default ${inputDefaults.network}). sealed: commands and stdio MCP
                            servers run in a network namespace of their own (Linux; unshare and
                            ip) that reaches only loopback and, through plangate's proxy,
                            --allowed-domains; where none can be made, no command runs and the
                            plan says so. open: the network as you have it, where a command can
                            send your code anywhere.
  --allowed-domains <host>  A destination a sealed network lets through: example.com,
                            *.example.com, example.com:8443, an IP address, or a bundle
                            (${Object.keys(networkBundles).join(', ')}). Repeat for more.
                            Default: none.
  --trust-repo-config       Start the stdio MCP servers .github/plangate.yml defines without
                            asking. Their commands are the repository's choice and run as you,
                            so without this option plangate lists them and asks on a terminal,
                            and elsewhere (a pipe, CI=true) starts none of them.`;

export const topHelp = `plangate: a plan-then-approve gate for LLM coding agents, in your local checkout.

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

export const planHelp = `Usage: plangate plan [options] "<objective>"

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

export const runHelp = `Usage: plangate run [options] ["<objective>"]

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
  --branch-prefix <prefix>  Prefix of the work branch (default ${inputDefaults['branch-prefix']}).
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
