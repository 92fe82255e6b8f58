import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { httpUrl } from './input-schemas.js';
import { inFile, issueSentences, named } from './issue-sentences.js';
import { runPolicySchema } from './run-policy.js';
import { SettingsError } from './settings-error.js';
import { errorMessage } from '../text/error-message.js';
import { code } from '../text/markdown.js';

/**
 * The repository config file (`.github/plangate.yml` by default): its schema, which is also its
 * documentation (each key's describe() text is its README row), and its parsing. Unknown keys are
 * errors, so a typo never silently does nothing.
 */

const taskSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1 to 40 letters, digits, "-" or "_"')
      .describe(
        'Names the task: its tracking issue is "plangate task: <name>" with the label "plangate:<name>", and a `workflow_dispatch` with `task: <name>` runs it. 1 to 40 letters, digits, "-" or "_".',
      ),
    objective: z
      .string()
      .min(1)
      .describe('What the planner is asked to do, as the text of a `/plan` comment would say it.'),
    cron: z
      .string()
      .optional()
      .describe(
        "Runs the task only when this schedule fires: it must equal one of the workflow's `on.schedule` cron strings exactly. Default: every schedule event.",
      ),
    policy: runPolicySchema
      .optional()
      .describe(
        "When the task's plan is carried out, in the terms of the `policy` input. Default: `plan-for-approval`, whatever that input says.",
      ),
    labels: z.array(z.string()).optional().describe('Labels added to the tracking issue, besides "plangate:<name>".'),
    assignees: z.array(z.string()).optional().describe('Logins assigned to the tracking issue.'),
    'allowed-commands': z
      .array(z.string())
      .optional()
      .describe(
        'Command patterns the executor may run in this task, in the syntax of the `allowed-commands` input, which they replace. Default: the `allowed-commands` input.',
      ),
  })
  .strict();

/** A price: USD per million tokens, never negative. */
const usdPerMillion = z.number().finite().nonnegative();

/** A model's prices as users write them: USD per million tokens. */
const configPriceSchema = z
  .object({
    input: usdPerMillion.describe('USD per million prompt tokens the provider did not serve from its prompt cache.'),
    'cached-input': usdPerMillion
      .optional()
      .describe('USD per million prompt tokens served from the prompt cache. Default: the `input` price.'),
    output: usdPerMillion.describe('USD per million completion tokens.'),
  })
  .strict()
  .transform((p) => ({
    input: p.input,
    output: p.output,
    ...(p['cached-input'] === undefined ? {} : { cachedInput: p['cached-input'] }),
  }));

/** MCP server names appear in tool calls and comments: short, lower-case, no spaces. */
const mcpServerNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/)
  .describe('server');

/** The runner's own credentials: no server may be handed them, whatever the config says. */
const mcpEnvNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
  .refine(
    (name) => !/^(GITHUB_TOKEN$|INPUT_|ACTIONS_|RUNNER_TOKEN$)/i.test(name),
    "is one of the runner's own credentials, which no MCP server may receive",
  );

const mcpStdioServerSchema = z
  .object({
    command: z
      .string()
      .trim()
      .min(1)
      .describe(
        'Program that starts a stdio server (no shell), found on PATH or given as a path. It runs in the repository checkout.',
      ),
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
    url: httpUrl('https://mcp.example.com/mcp').describe('Endpoint of a streamable HTTP server.'),
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
    if ('command' in entry && 'url' in entry)
      return 'give either command (a stdio server) or url (a streamable HTTP server), not both';
    const branch = 'url' in entry ? mcpHttpServerSchema : mcpStdioServerSchema;
    const parsed = branch.safeParse(entry, { reportInput: true });
    if (parsed.success) return undefined;
    const why = issueSentences(parsed.error.issues, named('the entry'), branch);
    return `is not a valid server: ${why.charAt(0).toLowerCase()}${why.slice(1)}`;
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
      .describe(
        'Maintenance tasks: `schedule` and `workflow_dispatch` events run them through the same plan gate as `/plan`.',
      ),
    /** A scheduled task's pending plan older than this is planned afresh; younger ones are left waiting. */
    'plan-max-age-days': z
      .number()
      .positive()
      .optional()
      .describe(
        `Days a task's plan may wait for approval; the next run of the task after that plans it afresh. Default: ${defaultPlanMaxAgeDays}.`,
      ),
    /** Overrides or extends the built-in price table, per model name. */
    prices: z
      // The key's description is the placeholder the generated config reference shows for it.
      .record(z.string().trim().min(1).describe('model'), configPriceSchema)
      .optional()
      .describe(
        "Prices by model name, in USD per million tokens. An entry adds a model to plangate's built-in price table or replaces that model's whole built-in entry.",
      ),
    'mcp-servers': z
      .record(mcpServerNameSchema, mcpServerSchema, {
        error: (issue) =>
          issue.code === 'invalid_key'
            ? 'is not a server name: names are 1 to 40 lower-case letters, digits, "-" or "_", starting with a letter or digit'
            : undefined,
      })
      .optional()
      .describe(
        'MCP servers the action starts for each run, by name: a stdio server (`command`, `args`, `env`) or a streamable HTTP server (`url`). Agents reach them through the `list_capabilities` and `use_capability` tools; the planner only through tools a server marks read-only. A server that does not start is named in the plan comment (and, when the plan is carried out, in the progress comment and the pull request) and the run continues without it.',
      ),
  })
  .strict();
/** The config file as parsed: what the tasks, prices and MCP servers are read from. */
export type RepoConfig = z.infer<typeof repoConfigSchema>;

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
    // The parser's first line says what and where; the lines after it quote the file, which a
    // comment must not repeat unescaped.
    const what = errorMessage(error).split('\n')[0]?.replace(/:$/, '') ?? 'unreadable';
    throw new SettingsError(`${file} is not valid YAML: ${what}.`);
  }
  const parsed = repoConfigSchema.safeParse(data, { reportInput: true });
  if (!parsed.success) throw new SettingsError(issueSentences(parsed.error.issues, inFile(file), repoConfigSchema));
  return parsed.data;
}

/**
 * Reads the optional config file from a directory, for the local CLI, where the work tree is the
 * user's own; the action reads it from a commit instead (see parseRepoConfig).
 */
export function readRepoConfig(workspace: string, file: string): RepoConfig {
  const full = path.resolve(workspace, file);
  if (!full.startsWith(path.resolve(workspace) + path.sep)) {
    throw new SettingsError(
      `the ${code('config-file')} input must name a file inside the repository, not ${code(file)}.`,
    );
  }
  return parseRepoConfig(existsSync(full) ? readFileSync(full, 'utf8') : undefined, file);
}
