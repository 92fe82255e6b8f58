import { z } from 'zod';
import type { ModelEndpoint } from '../models/chat-client.js';
import { defaultLines, defaultNumber, inputDefaults } from '../config/defaults.js';
import { runPolicySchema, type RunPolicy } from '../config/run-policy.js';
import { httpUrlSchema, readRepoConfig, type RepoConfig } from '../config/settings.js';
import { networkModeSchema, wholeNumber, type NetworkMode } from '../config/input-schemas.js';
import { destinationEntrySchema, type Destination } from '../scope/network-destinations.js';
import { issueSentences, named } from '../config/issue-sentences.js';
import type { Flags } from './args.js';
import { CliError, UsageError } from './cli-error.js';
import { errorMessage } from '../text/error-message.js';

/**
 * What one CLI invocation is configured with: options first, then PLANGATE_* variables, then the
 * action's defaults. Validated here with zod, so the commands trust their types. The API key comes
 * from the environment only and is required separately (requireApiKey), after every usage check.
 */
export interface LocalSettings {
  planner: ModelEndpoint;
  executor: ModelEndpoint;
  /** Retries and per-request timeout of the model clients, as the action's model-retries and model-timeout. */
  modelRetries: number;
  modelTimeoutSeconds: number;
  /** Undefined when not given: a saved plan's own list applies, else the default. */
  allowedCommands?: string[];
  protectedPaths?: string[];
  maxIterations?: number;
  maxCostUsd?: number;
  branchPrefix: string;
  policy: RunPolicy;
  /**
   * --network: `sealed` (the default, as the action's): commands and stdio MCP servers run in a network
   * namespace of their own that reaches only the destinations below, or nothing runs; `open`: the
   * network as the user has it.
   */
  network: NetworkMode;
  /** --allowed-domains, bundles expanded: what a sealed network lets through its proxy. */
  allowedDestinations: Destination[];
  /** Approved on the command line: no prompt. */
  yes: boolean;
  /** --trust-repo-config: the config file's stdio MCP servers start without a question (see repo-trust.ts). */
  trustRepoConfig: boolean;
}

/**
 * The action's defaults, read from the one table (config/defaults.ts), so a plan behaves the same
 * here and in a workflow; typed as the CLI uses them.
 */
export const localDefaults = {
  baseUrl: inputDefaults['base-url'],
  plannerModel: inputDefaults['planner-model'],
  executorModel: inputDefaults['executor-model'],
  allowedCommands: defaultLines('allowed-commands'),
  protectedPaths: defaultLines('protected-paths'),
  maxIterations: defaultNumber('max-iterations'),
  modelRetries: defaultNumber('model-retries'),
  modelTimeoutSeconds: defaultNumber('model-timeout'),
  branchPrefix: inputDefaults['branch-prefix'],
  policy: inputDefaults.policy as RunPolicy,
  network: inputDefaults.network as NetworkMode,
  stallLimit: defaultNumber('stall-limit'),
  maxWriteBytes: defaultNumber('max-write-bytes'),
  configFile: inputDefaults['config-file'],
};

const modelName = z.string().trim().min(1, 'must not be empty');
const iterations = wholeNumber(1, 100);
const usd = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, 'must be a positive number')
  .transform(Number)
  .pipe(z.number().positive('must be greater than 0'));
const prefix = z.string().regex(/^[A-Za-z0-9._/-]*$/, 'may only hold letters, digits, ".", "_", "-" and "/"');

/** Parses one value; a bad one names where it came from and what it accepts. */
function check<T>(schema: z.ZodType<T>, value: string, where: string, fail: (message: string) => Error): T {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw fail(issueSentences(parsed.error.issues, named(where), schema));
}

/** Patterns from repeated options; blank entries and comments are dropped as the action drops them. */
function patterns(values: string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  return values
    .flatMap((v) => v.split('\n'))
    .map((v) => v.trim())
    .filter((v) => v !== '' && !v.startsWith('#'));
}

/**
 * --allowed-domains entries (repeated, or comma-separated as the action's input takes them), each
 * read by the action's own schema: the same hosts, wildcards, ports and bundles.
 */
function destinations(values: string[] | undefined, fail: (message: string) => Error): Destination[] {
  return (patterns(values) ?? [])
    .flatMap((value) => value.split(','))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .flatMap((entry) => check(destinationEntrySchema, entry, `--allowed-domains ${entry}`, fail));
}

/** `command` names the help that explains a bad option. */
export function readLocalSettings(flags: Flags, env: NodeJS.ProcessEnv, command: 'plan' | 'run'): LocalSettings {
  const usage = (message: string) => new UsageError(message, command);
  const environment = (message: string) => new CliError(message);
  const flag = <T>(schema: z.ZodType<T>, value: string | undefined, name: string): T | undefined =>
    value === undefined ? undefined : check(schema, value, `--${name}`, usage);
  const variable = <T>(schema: z.ZodType<T>, name: string): T | undefined => {
    const value = env[name]?.trim();
    return value ? check(schema, value, name, environment) : undefined;
  };

  const model = flag(modelName, flags.model, 'model');
  const planner =
    flag(modelName, flags.plannerModel, 'planner-model') ??
    model ??
    variable(modelName, 'PLANGATE_PLANNER_MODEL') ??
    localDefaults.plannerModel;
  const executor =
    flag(modelName, flags.executorModel, 'executor-model') ??
    model ??
    variable(modelName, 'PLANGATE_EXECUTOR_MODEL') ??
    localDefaults.executorModel;
  const baseURL =
    flag(httpUrlSchema, flags.baseUrl, 'base-url') ??
    variable(httpUrlSchema, 'PLANGATE_BASE_URL') ??
    localDefaults.baseUrl;
  const protectedPaths = patterns(flags.protectedPaths);
  const settings = {
    allowedCommands: patterns(flags.allowedCommands),
    // An empty list would switch protection off by omission; the default stands instead, as in the action.
    protectedPaths: protectedPaths?.length ? protectedPaths : undefined,
    maxIterations: flag(iterations, flags.maxIterations, 'max-iterations'),
    modelRetries: flag(wholeNumber(0, 20), flags.modelRetries, 'model-retries') ?? localDefaults.modelRetries,
    modelTimeoutSeconds:
      flag(wholeNumber(1, 3600), flags.modelTimeout, 'model-timeout') ?? localDefaults.modelTimeoutSeconds,
    maxCostUsd: flag(usd, flags.maxCostUsd, 'max-cost-usd'),
    branchPrefix: flag(prefix, flags.branchPrefix, 'branch-prefix') ?? localDefaults.branchPrefix,
    policy: flag(runPolicySchema, flags.policy, 'policy') ?? localDefaults.policy,
    network: flag(networkModeSchema, flags.network, 'network') ?? localDefaults.network,
    allowedDestinations: destinations(flags.allowedDomains, usage),
    yes: flags.yes,
    trustRepoConfig: flags.trustRepoConfig,
  };

  const apiKey = env.PLANGATE_API_KEY?.trim() ?? '';
  return {
    ...settings,
    planner: { model: planner, baseURL, apiKey },
    executor: { model: executor, baseURL, apiKey },
  };
}

/** Refuses to go on without a key: every command that gets past this may call a model. */
export function requireApiKey(settings: LocalSettings): void {
  if (settings.planner.apiKey === '' || settings.executor.apiKey === '') {
    throw new CliError(
      "PLANGATE_API_KEY is not set: export it with your endpoint's API key (any non-empty value for a local server without keys, such as Ollama).",
    );
  }
}

/**
 * The repository's config file as the action reads it (prices and MCP servers are what the CLI
 * uses); a broken file is an error to fix in the repository, not a crash.
 */
export function readLocalConfig(root: string): RepoConfig {
  try {
    return readRepoConfig(root, localDefaults.configFile);
  } catch (error) {
    throw new CliError(errorMessage(error));
  }
}
