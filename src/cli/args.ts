import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './cli-error.js';
import { planHelp, runHelp, topHelp } from './help.js';
import { errorMessage } from '../text/error-message.js';
import { didYouMean } from '../text/did-you-mean.js';

/**
 * The command line, read with node's own parseArgs. Only shapes are checked here (which command,
 * which options, objective present); values are validated in settings.ts, where the environment
 * and the repository's configuration meet them.
 */

/** Option values as typed; undefined when not given, so defaults and saved values can apply. */
export interface Flags {
  baseUrl?: string;
  model?: string;
  plannerModel?: string;
  executorModel?: string;
  modelRetries?: string;
  modelTimeout?: string;
  allowedCommands?: string[];
  protectedPaths?: string[];
  maxIterations?: string;
  maxCostUsd?: string;
  branchPrefix?: string;
  policy?: string;
  /** `sealed` (the default) or `open`: the network commands and stdio MCP servers get. */
  network?: string;
  /** Destinations a sealed network lets through (hosts, `*.` wildcards, ports, bundles). */
  allowedDomains?: string[];
  yes: boolean;
  /** Start what the repository's config names (its stdio MCP servers) without asking. */
  trustRepoConfig: boolean;
}

export type Invocation =
  | { kind: 'help'; text: string }
  | { kind: 'version' }
  | { kind: 'plan'; objective: string; flags: Flags }
  | { kind: 'run'; objective?: string; flags: Flags };

type Options = NonNullable<ParseArgsConfig['options']>;

const shared: Options = {
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'planner-model': { type: 'string' },
  'executor-model': { type: 'string' },
  'model-retries': { type: 'string' },
  'model-timeout': { type: 'string' },
  'allowed-commands': { type: 'string', multiple: true },
  'protected-paths': { type: 'string', multiple: true },
  'max-iterations': { type: 'string' },
  network: { type: 'string' },
  'allowed-domains': { type: 'string', multiple: true },
  'trust-repo-config': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

const runOnly: Options = {
  'max-cost-usd': { type: 'string' },
  'branch-prefix': { type: 'string' },
  policy: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
};

const helpOf = { plan: planHelp, run: runHelp } as const;

/** Reads argv (without node and the script). Throws UsageError for anything it cannot read. */
export function parseInvocation(argv: readonly string[]): Invocation {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help') return { kind: 'help', text: topHelp };
  if (first === '-V' || first === '--version') return { kind: 'version' };
  if (first === 'help') {
    const topic = rest[0];
    if (topic === undefined) return { kind: 'help', text: topHelp };
    if (topic === 'plan' || topic === 'run') return { kind: 'help', text: helpOf[topic] };
    throw new UsageError(`there is no command "${topic}"; the commands are plan and run.`);
  }
  if (first !== 'plan' && first !== 'run') {
    const what = first.startsWith('-')
      ? `option ${optionName(first)} must follow a command`
      : `there is no command "${first}"`;
    throw new UsageError(`${what}; the commands are plan and run.`);
  }
  const command = first;
  const options = command === 'run' ? { ...shared, ...runOnly } : shared;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...rest], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(describeParseError(error, command), command);
  }
  const values = parsed.values as Record<string, string | boolean | (string | boolean)[] | undefined>;
  if (values.help === true) return { kind: 'help', text: helpOf[command] };

  const text = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);
  const list = (name: string) => {
    const value = values[name];
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
  };
  const flags: Flags = {
    baseUrl: text('base-url'),
    model: text('model'),
    plannerModel: text('planner-model'),
    executorModel: text('executor-model'),
    modelRetries: text('model-retries'),
    modelTimeout: text('model-timeout'),
    allowedCommands: list('allowed-commands'),
    protectedPaths: list('protected-paths'),
    maxIterations: text('max-iterations'),
    maxCostUsd: text('max-cost-usd'),
    branchPrefix: text('branch-prefix'),
    policy: text('policy'),
    network: text('network'),
    allowedDomains: list('allowed-domains'),
    yes: values.yes === true,
    trustRepoConfig: values['trust-repo-config'] === true,
  };
  // Unquoted words are one objective: `plangate plan add a test` means what it says.
  const objective = parsed.positionals.join(' ').trim();
  if (command === 'plan') {
    if (objective === '') throw new UsageError('plan needs an objective: plangate plan "<objective>".', 'plan');
    return { kind: 'plan', objective, flags };
  }
  return { kind: 'run', ...(objective === '' ? {} : { objective }), flags };
}

/** Only the option's name: a mistyped `--api-key=...` must not echo its value. */
function optionName(arg: string): string {
  return arg.split('=')[0] ?? arg;
}

function describeParseError(error: unknown, command: 'plan' | 'run'): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = errorMessage(error);
  const named = /'(-[^' ,]+)/.exec(message)?.[1];
  // The long form when the message names both, e.g. "'-h, --help'".
  const option = /'-\w, (--[^' ]+)/.exec(message)?.[1] ?? named ?? 'an option';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const name = optionName(option);
    if (/^--(api-?key|key|token)$/i.test(name)) {
      return `${name} is not accepted: set PLANGATE_API_KEY in the environment instead (an argument would end up in your shell history).`;
    }
    if (command === 'plan' && Object.hasOwn(runOnly, name.replace(/^--/, '')))
      return `${name} is an option of plangate run, not of plan.`;
    const known = Object.keys(command === 'run' ? { ...shared, ...runOnly } : shared).map((o) => `--${o}`);
    const guess = didYouMean(name, known);
    return `unknown option ${name}; ${guess ? `did you mean ${guess}? ` : ''}see plangate ${command} --help.`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return /does not take an argument/.test(message) ? `${option} takes no value.` : `${option} needs a value.`;
  }
  return `${message.split('\n')[0] ?? message}`;
}
