/**
 * The environment commands run with. An allow-list, not a deny-list: the runner's tokens, API keys
 * and `INPUT_*` values never reach a command the executor starts, whatever they are called.
 */
const passed = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'TEMP', 'TMP', 'TERM', 'SHELL', 'USER', 'RUNNER_OS', 'RUNNER_ARCH', 'RUNNER_TEMP'];

export function commandEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const safe: NodeJS.ProcessEnv = { CI: 'true' };
  for (const name of passed) {
    const value = env[name];
    if (value !== undefined) safe[name] = value;
  }
  return safe;
}
