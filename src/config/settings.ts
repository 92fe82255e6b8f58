import * as core from '@actions/core';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { roleSchema, type RepoRole } from './permissions.js';
import { withOverrides, type PriceTable } from './prices.js';
import { runPolicySchema, type RunPolicy } from './run-policy.js';
import type { McpServerSpec } from './mcp-servers.js';

/**
 * The only reader of action inputs, the runner environment and the repository config file. Every
 * value is validated here so the rest of the action can trust its types, and every secret is
 * registered with the runner before anything could log it. The config file's text is handed in, not
 * read here: the action takes it from the default branch's commit (repo/trusted-config.ts), never
 * from the work tree, which a pull request's head or an earlier command may have written.
 */

export interface ModelEndpoint {
  model: string;
  baseURL: string;
  apiKey: string;
}

export interface RunnerEnvironment {
  eventName: string;
  eventPath: string;
  owner: string;
  repo: string;
  workspace: string;
  apiUrl: string;
  serverUrl: string;
  runId: string;
  /** GitHub's numeric id of the repository: stays the same when it is renamed. Empty when the runner does not say. */
  repositoryId: string;
}

export interface Settings {
  githubToken: string;
  /** Every secret input's value (token, keys, record secret; '' when unset): none may reach a server or a log. */
  ownSecrets: string[];
  policy: RunPolicy;
  /** Idle executor exchanges before a nudge, and again before the stage aborts. */
  stallLimit: number;
  /** Built-in prices with the config file's `prices:` on top. */
  prices: PriceTable;
  planner: ModelEndpoint;
  executor: ModelEndpoint;
  triggerPermission: RepoRole;
  approvePermission: RepoRole;
  allowedCommands: string[];
  protectedPaths: string[];
  maxIterations: number;
  /** Minutes the execution may take; undefined: no limit. */
  timeoutMinutes?: number;
  /** USD the run may cost; undefined: no limit. */
  maxCostUsd?: number;
  /** Approve plans whose checks found blocking problems; the executor's tools still refuse what they always refuse. */
  allowBlockedPlans: boolean;
  /** USD the high end of a plan's execution estimate may reach before approval needs `--over-budget`; undefined: no ceiling. */
  maxEstimatedCostUsd?: number;
  branchPrefix: string;
  /** Open the pull request as a draft even when the run finished; an aborted run's is a draft regardless. */
  prDraft: boolean;
  /** Labels added to the pull request plangate opens. */
  prLabels: string[];
  /** Empty means: the repository's default branch (or a pull request's head). */
  baseBranch: string;
  botLogin: string;
  /** Bot logins whose comments may command plangate. */
  allowedBots: string[];
  requireDistinctApprover: boolean;
  /** HMAC key for plan records; empty: records are unsigned. */
  recordSecret: string;
  /** Least permission whose thread comments reach the planner. */
  contextPermission: RepoRole;
  /** Account run_command and stdio MCP servers run as; empty: plangate's default account (see commandIsolation). */
  commandUser: string;
  /**
   * `account`: commands run under a separate unprivileged account, or are refused where no account
   * switch is possible; `none`: as the action's own user, which the workflow must name explicitly.
   */
  commandIsolation: CommandIsolation;
  /** Extra environment variable names commands receive. */
  commandEnv: string[];
  maxWriteBytes: number;
  /** The config file's MCP servers, with the values of the variables they name. */
  mcpServers: McpServerSpec[];
  configFile: string;
  config: RepoConfig;
  runner: RunnerEnvironment;
}

/** How commands are kept from the action's secrets; the action's input `command-isolation`. */
export const commandIsolationSchema = z.enum(['account', 'none'], 'must be account or none');
export type CommandIsolation = z.infer<typeof commandIsolationSchema>;

/**
 * Everything but what the config file decides: enough to tell which command an event carries, and
 * to fetch the trusted commit the config file is read from (withRepoConfig adds the rest).
 */
export type ActionInputs = Omit<Settings, 'prices' | 'mcpServers' | 'config'>;

/** A setting that is wrong in a way the user must fix; main.ts reports it as the failure. */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

const taskSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1 to 40 letters, digits, "-" or "_"')
      .describe('Names the task: its tracking issue is "plangate task: <name>" with the label "plangate:<name>", and a `workflow_dispatch` with `task: <name>` runs it. 1 to 40 letters, digits, "-" or "_".'),
    objective: z.string().min(1).describe('What the planner is asked to do, as the text of a `/plan` comment would say it.'),
    cron: z
      .string()
      .optional()
      .describe("Runs the task only when this schedule fires: it must equal one of the workflow's `on.schedule` cron strings exactly. Default: every schedule event."),
    policy: runPolicySchema
      .optional()
      .describe("When the task's plan is carried out, in the terms of the `policy` input. Default: `plan-for-approval`, whatever that input says."),
    labels: z.array(z.string()).optional().describe('Labels added to the tracking issue, besides "plangate:<name>".'),
    assignees: z.array(z.string()).optional().describe('Logins assigned to the tracking issue.'),
    'allowed-commands': z
      .array(z.string())
      .optional()
      .describe("Command patterns the executor may run in this task, in the syntax of the `allowed-commands` input, which they replace. Default: the `allowed-commands` input."),
  })
  .strict();

/** The repository config file; unknown keys are errors so a typo never silently does nothing. */
const usdPerMillion = z.number().finite().nonnegative();

/** A model's prices as users write them: USD per million tokens. */
const configPriceSchema = z
  .object({
    input: usdPerMillion.describe('USD per million prompt tokens the provider did not serve from its prompt cache.'),
    'cached-input': usdPerMillion.optional().describe('USD per million prompt tokens served from the prompt cache. Default: the `input` price.'),
    output: usdPerMillion.describe('USD per million completion tokens.'),
  })
  .strict()
  .transform((p) => ({ input: p.input, output: p.output, ...(p['cached-input'] === undefined ? {} : { cachedInput: p['cached-input'] }) }));

/**
 * A model endpoint or MCP server is reached over HTTP; "localhost:8080" parses as a URL with scheme
 * "localhost:". Exported so the CLI's --base-url and PLANGATE_BASE_URL accept exactly what the action does.
 */
export const httpUrlSchema = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

/** MCP server names appear in tool calls and comments: short, lower-case, no spaces. */
const mcpServerNameSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/).describe('server');

/** The runner's own credentials: no server may be handed them, whatever the config says. */
const mcpEnvNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
  .refine((name) => !/^(GITHUB_TOKEN$|INPUT_|ACTIONS_|RUNNER_TOKEN$)/i.test(name), "is one of the runner's own credentials, which no MCP server may receive");

const mcpStdioServerSchema = z
  .object({
    command: z
      .string()
      .trim()
      .min(1)
      .describe('Program that starts a stdio server (no shell), found on PATH or given as a path. It runs in the repository checkout.'),
    args: z.array(z.string()).optional().describe("The program's arguments."),
    env: z
      .array(mcpEnvNameSchema)
      .optional()
      .describe(
        "Names of environment variables the server receives, with their values from the action's environment (the workflow step's `env:`). The server gets these and PATH, HOME, USER, LOGNAME, SHELL and TERM, nothing else; the values are treated as secrets. A variable that is not set keeps the server from starting.",
      ),
  })
  .strict();

const mcpHttpServerSchema = z
  .object({
    url: httpUrlSchema.describe('Endpoint of a streamable HTTP server.'),
  })
  .strict();

/** Picks the branch the entry means (`url` or `command`), so an error names the key that is wrong. */
const mcpServerSchema = z.union([mcpStdioServerSchema, mcpHttpServerSchema], {
  error: (issue) => {
    if (issue.code !== 'invalid_union') return undefined;
    const entry = issue.input;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      return 'must be { command, args?, env? } for a stdio server or { url } for a streamable HTTP server';
    }
    if ('command' in entry && 'url' in entry) return 'give either command (a stdio server) or url (a streamable HTTP server), not both';
    const parsed = ('url' in entry ? mcpHttpServerSchema : mcpStdioServerSchema).safeParse(entry);
    if (parsed.success) return undefined;
    return parsed.error.issues.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
  },
});

/**
 * Days a scheduled task's plan may wait for approval when the config file sets no
 * `plan-max-age-days`. Beside the schema, whose documentation is built from it, so the documented
 * default and the one maintain.ts applies cannot drift apart.
 */
export const defaultPlanMaxAgeDays = 7;

/**
 * Each key's describe() text is its row in the README's config reference (scripts/readme-tables.mjs
 * fails on a key without one); a closing "Default: ..." sentence fills the row's Default column.
 */
export const repoConfigSchema = z
  .object({
    tasks: z
      .array(taskSchema)
      .optional()
      .describe('Maintenance tasks: `schedule` and `workflow_dispatch` events run them through the same plan gate as `/plan`.'),
    /** A scheduled task's pending plan older than this is planned afresh; younger ones are left waiting. */
    'plan-max-age-days': z
      .number()
      .positive()
      .optional()
      .describe(`Days a task's plan may wait for approval; the next run of the task after that plans it afresh. Default: ${defaultPlanMaxAgeDays}.`),
    /** Overrides or extends the built-in price table, per model name. */
    prices: z
      // The key's description is the placeholder the generated config reference shows for it.
      .record(z.string().trim().min(1).describe('model'), configPriceSchema)
      .optional()
      .describe("Prices by model name, in USD per million tokens. An entry adds a model to plangate's built-in price table or replaces that model's whole built-in entry."),
    'mcp-servers': z
      .record(mcpServerNameSchema, mcpServerSchema, {
        error: (issue) => (issue.code === 'invalid_key' ? 'server names are 1 to 40 lower-case letters, digits, "-" or "_", starting with a letter or digit' : undefined),
      })
      .optional()
      .describe(
        'MCP servers the action starts for each run, by name: a stdio server (`command`, `args`, `env`) or a streamable HTTP server (`url`). Agents reach them through the `list_capabilities` and `use_capability` tools; the planner only through tools a server marks read-only. A server that does not start is named in the plan comment (and, when the plan is carried out, in the progress comment and the pull request) and the run continues without it.',
      ),
  })
  .strict();
export type RepoConfig = z.infer<typeof repoConfigSchema>;

const runnerSchema = z.object({
  GITHUB_EVENT_NAME: z.string().min(1),
  GITHUB_EVENT_PATH: z.string().min(1),
  GITHUB_REPOSITORY: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'must be owner/name'),
  GITHUB_WORKSPACE: z.string().min(1),
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  GITHUB_SERVER_URL: z.url().default('https://github.com'),
  GITHUB_RUN_ID: z.string().default(''),
  GITHUB_REPOSITORY_ID: z.string().regex(/^\d*$/, 'must be a number').default(''),
});

const branchPrefixSchema = z
  .string()
  .regex(/^[A-Za-z0-9._/-]*$/, 'may only hold letters, digits, ".", "_", "-" and "/"')
  // git's ref rules that a prefix can break: no "..", "//", leading "/" or "-", no component that starts with "." or ends in ".lock".
  .refine((v) => !/\.\.|\/\/|^[/-]|(^|\/)\.|\.lock\//.test(v), 'is not a valid git ref prefix');

/**
 * The config file is read from a commit's tree by path, so the path must stay inside the repository:
 * relative and without "..". "." segments are dropped (git would read a leading "./" relative to its
 * working directory); backslashes are refused rather than guessed at.
 */
const configFileSchema = z
  .string()
  .trim()
  .transform((v) => (v || '.github/plangate.yml').split('/').filter((part) => part !== '.'))
  .refine(
    (parts) => parts.length > 0 && parts.every((part) => part !== '' && part !== '..' && !part.includes('\\')),
    'must be a relative path to a file inside the repository, without "..", such as .github/plangate.yml',
  )
  .transform((parts) => parts.join('/'));

/** Reads an input with a schema; a bad value names the input and what it accepts. */
function input<T>(name: string, schema: z.ZodType<T>): T {
  const raw = core.getInput(name);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => i.message).join('; ');
    throw new SettingsError(`Input "${name}" is invalid (${JSON.stringify(raw)}): ${why}.`);
  }
  return parsed.data;
}

function lines(name: string): string[] {
  return core
    .getMultilineInput(name)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** Labels come one a line or comma-separated; GitHub treats names case-insensitively, so duplicates go. */
function labelList(values: string[]): string[] {
  const names = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  const seen = new Set<string>();
  return names.filter((name) => {
    if (name.length > 50) throw new SettingsError(`Input "pr-labels" is invalid: label ${JSON.stringify(name)} is longer than GitHub's 50 characters.`);
    const key = name.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const orDefault = (values: string[], fallback: string[]): string[] => (values.length > 0 ? values : fallback);

const wholeNumber = (min: number, max: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(min).max(max));

/** An optional positive decimal: empty means no limit. */
const optionalPositive = z
  .string()
  .trim()
  .regex(/^(\d+(\.\d+)?)?$/, 'must be a positive number, or empty for no limit')
  .transform((v) => (v === '' ? undefined : Number(v)))
  .pipe(z.number().positive('must be greater than 0').optional());

/** YAML 1.2 booleans, as GitHub's own `getBooleanInput` reads them. */
const booleanInput = z.enum(['true', 'True', 'TRUE', 'false', 'False', 'FALSE'], 'must be true or false').transform((v) => v.toLowerCase() === 'true');

/** Secrets-bearing names are refused outright: naming one would hand it to every command. */
const envNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
  .refine((name) => !/^(GITHUB_TOKEN|INPUT_|ACTIONS_|ACTIONS_RUNTIME|RUNNER_TOKEN)/i.test(name) && !/(TOKEN|SECRET|KEY|PASSWORD|CREDENTIAL)/i.test(name), 'looks like a secret, which commands must never receive');

const withDefault = (fallback: string) => z.string().transform((v) => v.trim() || fallback);

function readRunner(env: NodeJS.ProcessEnv): RunnerEnvironment {
  const parsed = runnerSchema.safeParse(env);
  if (!parsed.success) {
    const what = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new SettingsError(`The runner environment is incomplete (${what}). plangate must run inside a GitHub Actions job.`);
  }
  const e = parsed.data;
  const [owner = '', repo = ''] = e.GITHUB_REPOSITORY.split('/');
  return {
    eventName: e.GITHUB_EVENT_NAME,
    eventPath: e.GITHUB_EVENT_PATH,
    owner,
    repo,
    workspace: e.GITHUB_WORKSPACE,
    apiUrl: e.GITHUB_API_URL.replace(/\/+$/, ''),
    serverUrl: e.GITHUB_SERVER_URL.replace(/\/+$/, ''),
    runId: e.GITHUB_RUN_ID,
    repositoryId: e.GITHUB_REPOSITORY_ID,
  };
}

/**
 * Parses the config file's text: undefined (no such file) and an empty file are an empty config; a
 * broken one is an error naming `file` and the key. Takes text, not a path, so the action can hand in
 * what a trusted commit holds and the local CLI what its work tree holds.
 */
export function parseRepoConfig(text: string | undefined, file: string): RepoConfig {
  if (text === undefined) return {};
  let data: unknown;
  try {
    data = parseYaml(text) ?? {};
  } catch (error) {
    throw new SettingsError(`${file} is not valid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = repoConfigSchema.safeParse(data);
  if (!parsed.success) {
    const what = parsed.error.issues
      .map((i) => {
        const where = i.path.length > 0 ? i.path.join('.') : '(top level)';
        return `${where}: ${i.message}`;
      })
      .join('; ');
    throw new SettingsError(`${file} is invalid: ${what}.`);
  }
  return parsed.data;
}

/**
 * Reads the optional config file from a directory, for the local CLI, where the work tree is the
 * user's own; the action reads it from a commit instead (see parseRepoConfig).
 */
export function readRepoConfig(workspace: string, file: string): RepoConfig {
  const full = path.resolve(workspace, file);
  if (!full.startsWith(path.resolve(workspace) + path.sep)) {
    throw new SettingsError(`Input "config-file" must name a file inside the repository, not ${JSON.stringify(file)}.`);
  }
  return parseRepoConfig(existsSync(full) ? readFileSync(full, 'utf8') : undefined, file);
}

/**
 * Looks up the variables each stdio server names, registering their values as secrets. A variable
 * that is unset, or that holds one of plangate's own credentials, keeps only that server from
 * starting: it is reported like any failed start and the run goes on without it. `setIn` says where
 * a missing variable is set: the workflow step for the action, the user's shell for the CLI.
 */
export function resolveMcpServers(
  servers: RepoConfig['mcp-servers'],
  env: NodeJS.ProcessEnv,
  ownSecrets: readonly string[],
  setIn = "the workflow step's env:",
): McpServerSpec[] {
  const own = ownSecrets.filter((secret) => secret !== '');
  // Inside a longer value too (`Bearer <token>`, a padded copy): the server would hold it all the same.
  const carriesOwn = (value: string) => own.some((secret) => value === secret || (secret.length >= 8 && value.includes(secret)));
  return Object.entries(servers ?? {}).map(([name, entry]): McpServerSpec => {
    if ('url' in entry) return { name, transport: 'http', url: entry.url };
    const values: Record<string, string> = {};
    const unset: string[] = [];
    const credentials: string[] = [];
    for (const variable of entry.env ?? []) {
      const value = env[variable];
      if (value === undefined) unset.push(variable);
      else if (carriesOwn(value)) credentials.push(variable);
      else values[variable] = value;
    }
    // Shorter values are no real secret (redact() skips them too) and masking them would garble the log.
    for (const value of Object.values(values)) if (value.length >= 8) core.setSecret(value);
    const refusal =
      credentials.length > 0
        ? `${credentials.join(', ')} ${credentials.length === 1 ? 'holds' : 'hold'} one of plangate's own credentials (the GitHub token, a model API key or the record secret), which no MCP server may receive`
        : unset.length > 0
          ? `the environment variable${unset.length === 1 ? '' : 's'} ${unset.join(', ')} ${unset.length === 1 ? 'is' : 'are'} not set; set ${unset.length === 1 ? 'it' : 'them'} in ${setIn}`
          : undefined;
    return { name, transport: 'stdio', command: entry.command, args: entry.args ?? [], env: values, ...(refusal ? { refusal } : {}) };
  });
}

/**
 * Reads and validates the action's inputs and the runner environment, registering every secret.
 * Reads no file: main.ts needs these to decide what the event asks for before it fetches the
 * commit the config file comes from.
 */
export function readInputs(env: NodeJS.ProcessEnv = process.env): ActionInputs {
  const githubToken = input('github-token', z.string());
  const apiKey = input('api-key', z.string());
  const baseURL = input('base-url', withDefault('https://api.openai.com/v1').pipe(httpUrlSchema));
  const plannerKey = input('planner-api-key', z.string()) || apiKey;
  const executorKey = input('executor-api-key', z.string()) || apiKey;
  const recordSecret = input('record-secret', z.string());
  for (const secret of [githubToken, apiKey, plannerKey, executorKey, recordSecret]) {
    if (secret) core.setSecret(secret);
  }
  const runner = readRunner(env);
  const configFile = input('config-file', configFileSchema);
  return {
    githubToken,
    ownSecrets: [githubToken, apiKey, plannerKey, executorKey, recordSecret],
    policy: input('policy', withDefault('plan-for-approval').pipe(runPolicySchema)),
    stallLimit: input('stall-limit', withDefault('8').pipe(wholeNumber(1, 100))),
    planner: {
      model: input('planner-model', withDefault('gpt-4.1')),
      baseURL: input('planner-base-url', z.string()).trim() ? input('planner-base-url', httpUrlSchema) : baseURL,
      apiKey: plannerKey,
    },
    executor: {
      model: input('executor-model', withDefault('gpt-4.1-mini')),
      baseURL: input('executor-base-url', z.string()).trim() ? input('executor-base-url', httpUrlSchema) : baseURL,
      apiKey: executorKey,
    },
    triggerPermission: input('trigger-permission', withDefault('write').pipe(roleSchema)),
    approvePermission: input('approve-permission', withDefault('write').pipe(roleSchema)),
    allowedCommands: lines('allowed-commands'),
    // An empty list falls back to the default: protection is never switched off by omission.
    protectedPaths: orDefault(lines('protected-paths'), ['.github/workflows/**']),
    maxIterations: input('max-iterations', withDefault('8').pipe(wholeNumber(1, 100))),
    timeoutMinutes: input('timeout-minutes', optionalPositive),
    maxCostUsd: input('max-cost-usd', optionalPositive),
    allowBlockedPlans: input('allow-blocked-plans', withDefault('false').pipe(booleanInput)),
    maxEstimatedCostUsd: input('max-estimated-cost-usd', optionalPositive),
    branchPrefix: input('branch-prefix', withDefault('plangate/').pipe(branchPrefixSchema)),
    prDraft: input('pr-draft', withDefault('false').pipe(booleanInput)),
    prLabels: labelList(lines('pr-labels')),
    baseBranch: input('base-branch', z.string().trim()),
    botLogin: input('bot-login', withDefault('github-actions[bot]')),
    allowedBots: lines('allowed-bots'),
    requireDistinctApprover: input('require-distinct-approver', withDefault('false').pipe(booleanInput)),
    recordSecret,
    contextPermission: input('context-permission', withDefault('triage').pipe(roleSchema)),
    commandUser: input('command-user', z.string().trim().regex(/^([a-z_][a-z0-9_-]*)?$/i, 'must be a user name')),
    commandIsolation: input('command-isolation', withDefault('account').pipe(commandIsolationSchema)),
    commandEnv: lines('command-env').map((name) => {
      const parsed = envNameSchema.safeParse(name);
      if (!parsed.success) throw new SettingsError(`Input "command-env" is invalid: ${parsed.error.issues[0]?.message ?? 'bad name'} (${JSON.stringify(name)}).`);
      return parsed.data;
    }),
    maxWriteBytes: input('max-write-bytes', withDefault('1048576').pipe(wholeNumber(1, 1024 * 1024 * 1024))),
    configFile,
    runner,
  };
}

/**
 * The settings, with what the config file decides (prices, MCP servers, tasks) parsed from
 * `configText`: the file's text at the trusted commit, undefined when it has none. `env` is where
 * the variables MCP servers name are looked up.
 */
export function withRepoConfig(inputs: ActionInputs, configText: string | undefined, env: NodeJS.ProcessEnv = process.env): Settings {
  const config = parseRepoConfig(configText, inputs.configFile);
  return {
    ...inputs,
    prices: withOverrides(config.prices ?? {}),
    mcpServers: resolveMcpServers(config['mcp-servers'], env, inputs.ownSecrets),
    config,
  };
}

/** Inputs and config in one call, for callers that hold the config text already (tests, tools). */
export function readSettings(env: NodeJS.ProcessEnv = process.env, configText?: string): Settings {
  return withRepoConfig(readInputs(env), configText, env);
}
