import type { RepoRole } from './permissions.js';
import type { RunPolicy } from './run-policy.js';

/**
 * Every action input's default, in one table: the one place a default is decided. GitHub applies
 * action.yml's defaults, but the settings reader applies this table too (a test or a workflow can
 * set an input to an empty string, which GitHub passes on as it is), the local CLI runs without
 * action.yml at all, and the CLI's help quotes the defaults. action.yml must stay a static file that
 * GitHub reads, so `node scripts/readme-tables.mjs --check` (run by CI) fails when one of its
 * defaults differs from this table, or when an input is in one and not the other.
 *
 * Values are spelled as action.yml spells them: strings, a multi-line input one entry a line; ''
 * means no default (action.yml's `default: ''` or no `default:` at all, which GitHub treats alike).
 * `github-token`'s default is an expression GitHub evaluates; nothing else reads it.
 */
export const inputDefaults = {
  'github-token': '${{ github.token }}',
  'api-key': '',
  'base-url': 'https://api.openai.com/v1',
  'planner-model': 'gpt-4.1',
  'executor-model': 'gpt-4.1-mini',
  'planner-api-key': '',
  'planner-base-url': '',
  'executor-api-key': '',
  'executor-base-url': '',
  'model-retries': '6',
  'model-timeout': '180',
  policy: 'plan-for-approval' satisfies RunPolicy,
  'stall-limit': '8',
  'trigger-permission': 'write' satisfies RepoRole,
  'approve-permission': 'write' satisfies RepoRole,
  'allowed-commands': '',
  'protected-paths': '.github/workflows/**',
  'max-iterations': '8',
  'parallel-steps': '3',
  'timeout-minutes': '45',
  'max-cost-usd': '',
  'allow-blocked-plans': 'false',
  'max-estimated-cost-usd': '',
  'branch-prefix': 'plangate/',
  'pr-draft': 'false',
  'pr-labels': '',
  'pull-request-mode': 'stacked',
  'base-branch': '',
  'allowed-bots': '',
  'command-prefix': '',
  'require-distinct-approver': 'false',
  'approval-max-age-hours': '168',
  'record-secret': '',
  'context-permission': 'triage' satisfies RepoRole,
  'command-user': '',
  'command-isolation': 'account',
  network: 'sealed',
  'allowed-domains': '',
  scope: 'enforce',
  'command-env': '',
  'max-write-bytes': '1048576',
  'bot-login': 'github-actions[bot]',
  'config-file': '.github/plangate.yml',
} as const;

/** An action input's name: the settings reader accepts no input the table does not list. */
export type InputName = keyof typeof inputDefaults;

/**
 * A multi-line input's default as the list it stands for (blank lines and `#` comments dropped, as
 * the settings reader drops them from a value): `[]` for an input without a default.
 */
export function defaultLines(name: InputName): string[] {
  return inputDefaults[name]
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** A whole-number input's default as a number, for hosts that take the table's values as they are. */
export function defaultNumber(
  name: 'stall-limit' | 'max-iterations' | 'max-write-bytes' | 'model-retries' | 'model-timeout',
): number {
  return Number(inputDefaults[name]);
}
