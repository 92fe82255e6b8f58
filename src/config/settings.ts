import * as core from '@actions/core';
import { z } from 'zod';
import { defaultLines, inputDefaults, type InputName } from './defaults.js';
import {
  booleanInput,
  branchPrefixSchema,
  pullRequestModeSchema,
  commandIsolationSchema,
  scopeModeSchema,
  networkModeSchema,
  type NetworkMode,
  type ScopeMode,
  configFileSchema,
  envNameSchema,
  httpUrlSchema,
  labelList,
  limitOrNone,
  optionalPositive,
  wholeNumber,
  withDefault,
  type CommandIsolation,
} from './input-schemas.js';
import { roleSchema, type RepoRole } from './permissions.js';
import { withOverrides, type PriceTable } from './prices.js';
import { parseRepoConfig, type RepoConfig } from './repo-config.js';
import { resolveMcpServers } from './resolve-mcp-servers.js';
import { runPolicySchema, type RunPolicy } from './run-policy.js';
import { readRunner, type RunnerEnvironment } from './runner-environment.js';
import { readCommandPrefix } from './gate-inputs.js';
import { SettingsError } from './settings-error.js';
import { inputPlace, issueSentences, named } from './issue-sentences.js';
import { code } from '../text/markdown.js';
import { destinationEntrySchema, type Destination } from '../scope/network-destinations.js';
import { maxParallelSteps } from '../scope/approved-scope.js';
import type { McpServerSpec } from './mcp-servers.js';

// The parts of the settings, re-exported so that callers keep one import for all of them.
export {
  defaultPlanMaxAgeDays,
  parseRepoConfig,
  readRepoConfig,
  repoConfigSchema,
  type RepoConfig,
} from './repo-config.js';
export { commandIsolationSchema, httpUrlSchema, type CommandIsolation } from './input-schemas.js';
export { resolveMcpServers } from './resolve-mcp-servers.js';
export type { RunnerEnvironment } from './runner-environment.js';
export { SettingsError } from './settings-error.js';

/**
 * The only reader of action inputs, the runner environment and the repository config file. Every
 * value is validated here so the rest of the action can trust its types, and every secret is
 * registered with the runner before anything could log it. The config file's text is handed in, not
 * read here: the action takes it from the default branch's commit (repo/trusted-config.ts), never
 * from the work tree, which a pull request's head or an earlier command may have written. An empty
 * input means its default from the one table of defaults (defaults.ts).
 */

/** One role's model and where to reach it; the planner and the executor each have their own. */
export interface ModelEndpoint {
  model: string;
  baseURL: string;
  apiKey: string;
}

/** Everything a run is configured with, validated: the rest of the action trusts these types. */
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
  /** Retries of a model request after a transient failure (`model-retries`). */
  modelRetries: number;
  /** Seconds one model request may go without an answer (`model-timeout`). */
  modelTimeoutSeconds: number;
  triggerPermission: RepoRole;
  approvePermission: RepoRole;
  allowedCommands: string[];
  protectedPaths: string[];
  maxIterations: number;
  /**
   * Steps of a plan that orders its steps (`after`) that may run at the same time (`parallel-steps`);
   * it enters the approved scope, so the approver sees the order it gives.
   */
  parallelSteps: number;
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
  /** `/plan` on a same-repository pull request plangate did not open: a stacked pull request, or commits on its branch. */
  pullRequestMode: 'stacked' | 'same-branch';
  /** Empty means: the repository's default branch (or a pull request's head). */
  baseBranch: string;
  botLogin: string;
  /** Bot logins whose comments may command plangate. */
  allowedBots: string[];
  /** `command-prefix`: '' for none (`/plan`), else the word every command follows (`/plangate plan`). */
  commandPrefix: string;
  requireDistinctApprover: boolean;
  /**
   * Hours an `/approve` comment stays valid, from its creation on GitHub to the moment a run acts on
   * it: a re-run of an old job, or a job that started late, must not execute on a stale approval.
   */
  approvalMaxAgeHours: number;
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
  /**
   * `sealed`: commands and stdio MCP servers reach loopback and the allowed destinations only, by
   * rules the operating system holds, or nothing runs; `open`: the network as the runner has it.
   */
  network: NetworkMode;
  /** What `allowed-domains` names, bundles expanded: the destinations a sealed network lets through its proxy. */
  allowedDestinations: Destination[];
  /** `enforce`: the tools, the commit gate and the budget hold the approved scope; `report`: they only report. */
  scope: ScopeMode;
  /** Extra environment variable names commands receive. */
  commandEnv: string[];
  maxWriteBytes: number;
  /** The config file's MCP servers, with the values of the variables they name. */
  mcpServers: McpServerSpec[];
  configFile: string;
  config: RepoConfig;
  runner: RunnerEnvironment;
}

/**
 * Everything but what the config file decides: enough to tell which command an event carries, and
 * to fetch the trusted commit the config file is read from (withRepoConfig adds the rest).
 */
export type ActionInputs = Omit<Settings, 'prices' | 'mcpServers' | 'config'>;

/** Reads an input with a schema; a bad value names the input and what it accepts. */
function input<T>(name: InputName, schema: z.ZodType<T>): T {
  const raw = core.getInput(name);
  const parsed = schema.safeParse(raw, { reportInput: true });
  if (!parsed.success) throw new SettingsError(issueSentences(parsed.error.issues, inputPlace(name), schema));
  return parsed.data;
}

/** Reads an input whose empty (or blank) value means its default in the table. */
function defaulted<T>(name: InputName, schema: z.ZodType<T, string>): T {
  return input(name, withDefault(inputDefaults[name]).pipe(schema));
}

function lines(name: InputName): string[] {
  return core
    .getMultilineInput(name)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/**
 * The longest `approval-max-age-hours` may be: a year. There is no value that switches expiry off;
 * a maintainer who wants an old plan run posts `/approve` again, which costs one comment.
 */
const maxApprovalAgeHours = 8760;

const orDefault = (values: string[], fallback: string[]): string[] => (values.length > 0 ? values : fallback);

/** `allowed-domains`, one entry a line or comma-separated, as destinations (bundles expanded). */
function allowedDestinations(entries: string[]): Destination[] {
  return entries
    .flatMap((line) => line.split(','))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .flatMap((entry) => {
      const parsed = destinationEntrySchema.safeParse(entry);
      if (!parsed.success)
        throw new SettingsError(
          issueSentences(parsed.error.issues, named(`${code(entry)} in the ${code('allowed-domains')} input`)),
        );
      return parsed.data;
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
  const baseURL = defaulted('base-url', httpUrlSchema);
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
    policy: defaulted('policy', runPolicySchema),
    stallLimit: defaulted('stall-limit', wholeNumber(1, 100)),
    planner: {
      model: defaulted('planner-model', z.string()),
      baseURL: input('planner-base-url', z.string()).trim() ? input('planner-base-url', httpUrlSchema) : baseURL,
      apiKey: plannerKey,
    },
    executor: {
      model: defaulted('executor-model', z.string()),
      baseURL: input('executor-base-url', z.string()).trim() ? input('executor-base-url', httpUrlSchema) : baseURL,
      apiKey: executorKey,
    },
    modelRetries: defaulted('model-retries', wholeNumber(0, 20)),
    modelTimeoutSeconds: defaulted('model-timeout', wholeNumber(1, 3600)),
    triggerPermission: defaulted('trigger-permission', roleSchema),
    approvePermission: defaulted('approve-permission', roleSchema),
    allowedCommands: lines('allowed-commands'),
    // An empty list falls back to the default: protection is never switched off by omission.
    protectedPaths: orDefault(lines('protected-paths'), defaultLines('protected-paths')),
    maxIterations: defaulted('max-iterations', wholeNumber(1, 100)),
    parallelSteps: defaulted('parallel-steps', wholeNumber(1, maxParallelSteps)),
    timeoutMinutes: defaulted('timeout-minutes', limitOrNone),
    maxCostUsd: input('max-cost-usd', optionalPositive),
    allowBlockedPlans: defaulted('allow-blocked-plans', booleanInput),
    maxEstimatedCostUsd: input('max-estimated-cost-usd', optionalPositive),
    branchPrefix: defaulted('branch-prefix', branchPrefixSchema),
    prDraft: defaulted('pr-draft', booleanInput),
    prLabels: labelList(lines('pr-labels')),
    pullRequestMode: defaulted('pull-request-mode', pullRequestModeSchema),
    baseBranch: input('base-branch', z.string().trim()),
    botLogin: defaulted('bot-login', z.string()),
    allowedBots: lines('allowed-bots'),
    commandPrefix: readCommandPrefix(),
    requireDistinctApprover: defaulted('require-distinct-approver', booleanInput),
    approvalMaxAgeHours: defaulted('approval-max-age-hours', wholeNumber(1, maxApprovalAgeHours)),
    recordSecret,
    contextPermission: defaulted('context-permission', roleSchema),
    commandUser: input(
      'command-user',
      z
        .string()
        .trim()
        .regex(/^([a-z_][a-z0-9_-]*)?$/i, 'must be a user name'),
    ),
    commandIsolation: defaulted('command-isolation', commandIsolationSchema),
    scope: defaulted('scope', scopeModeSchema),
    network: defaulted('network', networkModeSchema),
    allowedDestinations: allowedDestinations(lines('allowed-domains')),
    commandEnv: lines('command-env').map((name) => {
      const parsed = envNameSchema.safeParse(name);
      if (!parsed.success)
        throw new SettingsError(
          issueSentences(parsed.error.issues, named(`${code(name)} in the ${code('command-env')} input`)),
        );
      return parsed.data;
    }),
    maxWriteBytes: defaulted('max-write-bytes', wholeNumber(1, 1024 * 1024 * 1024)),
    configFile,
    runner,
  };
}

/**
 * The settings, with what the config file decides (prices, MCP servers, tasks) parsed from
 * `configText`: the file's text at the trusted commit, undefined when it has none. `env` is where
 * the variables MCP servers name are looked up.
 */
export function withRepoConfig(
  inputs: ActionInputs,
  configText: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Settings {
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
