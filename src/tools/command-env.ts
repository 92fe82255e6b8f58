import { absolutePath } from '../repo/programs.js';

/**
 * The environment commands run with. An allow-list, not a deny-list: the runner's tokens, API keys
 * and `INPUT_*` values never reach a command the executor starts, whatever they are called.
 *
 * RUNNER_* is not passed: RUNNER_OS and RUNNER_ARCH are mere labels a build can do without, and
 * RUNNER_TEMP points at the directory where other steps keep credential files (actions/checkout's
 * persisted token among them). A repository that needs one names it in `command-env`.
 */
const passed = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'TEMP', 'TMP', 'TERM'];

/** Locale variables: harmless, and without them tools print in the wrong encoding. */
const LOCALE = /^LC_[A-Z_]+$/;

/**
 * Names that carry the runner's credentials or the action's inputs (which hold the tokens and API
 * keys). Settings already refuses them in `command-env`; this repeats the check where the
 * environment is built, so no other caller can hand them out either.
 */
const REFUSED = /^(GITHUB_TOKEN$|INPUT_|ACTIONS_|RUNNER_TOKEN$)/i;

/** Whether a variable name must never be passed to a command, even when a user names it. */
export function isRefusedCommandEnvName(name: string): boolean {
  return REFUSED.test(name);
}

/**
 * Builds a command's complete environment from `env`: the fixed safe set, CI=true, and the
 * `extraNames` the configuration asked for. Throws for an extra name that carries credentials:
 * failing the run beats quietly handing a secret to every command.
 */
export function commandEnvironment(env: NodeJS.ProcessEnv, extraNames: readonly string[] = []): NodeJS.ProcessEnv {
  const refused = extraNames.filter(isRefusedCommandEnvName);
  if (refused.length > 0) {
    throw new Error(
      `command-env names ${refused.join(', ')}, which carry the runner's credentials or the action's inputs; commands never receive them. Remove them from command-env.`,
    );
  }
  const safe: NodeJS.ProcessEnv = {};
  const take = (name: string) => {
    const value = env[name];
    if (value !== undefined) safe[name] = value;
  };
  for (const name of passed) take(name);
  for (const name of Object.keys(env)) if (LOCALE.test(name)) take(name);
  for (const name of extraNames) take(name);
  // A command's program is looked up on PATH from the work tree: an empty or relative entry would
  // find a `./npm` an earlier command wrote there (repo/programs.ts).
  safe.PATH = absolutePath(safe.PATH);
  // Set last, so naming CI in command-env cannot switch off the non-interactive mode tools rely on.
  safe.CI = 'true';
  return safe;
}
