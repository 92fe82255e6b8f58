import { absolutePath } from './programs.js';

/**
 * The environment the host's own git commands run with. An allow-list, like the commands': the
 * action's inputs (`INPUT_*`, which hold the tokens) and the runner's `ACTIONS_*` tokens stay out,
 * because git starts other programs (hooks, filters, fsmonitor, credential helpers) whose
 * configuration a command in the workspace may have written.
 */

/** One configuration entry handed to git through the environment rather than its command line. */
export interface GitConfigEntry {
  key: string;
  value: string;
}

const passed = new Set([
  'PATH',
  'HOME',
  'LANG',
  'TMPDIR',
  'TEMP',
  'TMP',
  'XDG_CONFIG_HOME',
  // Self-hosted runners reach GitHub through proxies and private certificate authorities.
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
]);

/**
 * GIT_* variables set by the workflow are its own choice; these ones plangate sets itself (the
 * repository's location among them, so a workflow's GIT_DIR cannot point the host elsewhere).
 */
const OWNED =
  /^GIT_(CONFIG_(COUNT|KEY_\d+|VALUE_\d+|PARAMETERS)|DIR|WORK_TREE|INDEX_FILE|OPTIONAL_LOCKS|COMMON_DIR|NAMESPACE|(LITERAL|GLOB|NOGLOB|ICASE)_PATHSPECS)$/;

/**
 * Entries every host git command gets; they outrank every config file. The host's git dir and
 * config are out of the executor's reach, so no repository setting of the work tree's can reach
 * git; these switch off, besides, what would run a program or look into a nested repository even
 * from a trusted config: hooks (commits are made with --no-verify anyway), fsmonitor, and
 * submodules, whose own config a command could write. A dead connection is cut.
 */
export const HARDENING: readonly GitConfigEntry[] = [
  { key: 'core.hooksPath', value: '/dev/null' },
  { key: 'core.fsmonitor', value: 'false' },
  { key: 'submodule.recurse', value: 'false' },
  { key: 'diff.ignoreSubmodules', value: 'all' },
  { key: 'status.submoduleSummary', value: 'false' },
  { key: 'fetch.recurseSubmodules', value: 'false' },
  { key: 'protocol.ext.allow', value: 'never' },
  // A fetch, push or ls-remote whose connection went silent (under 1 byte/s for 5 minutes) fails
  // instead of holding the lock and the job until the job's own timeout; slow but live ones go on.
  { key: 'http.lowSpeedLimit', value: '1' },
  { key: 'http.lowSpeedTime', value: '300' },
];

/**
 * Builds git's complete environment from `env` and the given configuration entries. Its PATH keeps
 * only absolute entries (programs.ts): git looks up the programs it starts there, in the work tree.
 */
export function gitEnvironment(env: NodeJS.ProcessEnv, config: readonly GitConfigEntry[]): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (passed.has(name) || /^LC_[A-Z_]+$/.test(name) || (name.startsWith('GIT_') && !OWNED.test(name)))
      out[name] = value;
  }
  out.PATH = absolutePath(out.PATH);
  out.GIT_TERMINAL_PROMPT = '0';
  // Every path plangate hands git is a path, never a pattern: a file named `*.md` or `:!x` stands
  // for itself alone, whichever call passes it (held changes, the gate, the read tools).
  out.GIT_LITERAL_PATHSPECS = '1';
  return { ...out, ...configEnv(config) };
}

/**
 * GIT_CONFIG_COUNT/KEY_n/VALUE_n (git 2.31+): configuration for one process that outranks every
 * config file and, unlike `-c`, does not appear in the world-readable /proc/<pid>/cmdline.
 */
export function configEnv(config: readonly GitConfigEntry[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { GIT_CONFIG_COUNT: String(config.length) };
  config.forEach((entry, index) => {
    env[`GIT_CONFIG_KEY_${index}`] = entry.key;
    env[`GIT_CONFIG_VALUE_${index}`] = entry.value;
  });
  return env;
}
