import { describe, expect, it } from 'vitest';
import { commandEnvironment, isRefusedCommandEnvName } from '../../src/tools/command-env.js';

/** The part of a runner's environment a command may see: paths, locale, temp dirs, the terminal. */
const passedThrough = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/runner',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  LC_CTYPE: 'en_US.UTF-8',
  TMPDIR: '/tmp/t',
  TEMP: '/tmp/t',
  TMP: '/tmp/t',
  TERM: 'xterm',
};

/** What a runner's environment looks like to the action: paths, locale, and a lot of credentials. */
const runner: NodeJS.ProcessEnv = {
  ...passedThrough,
  SHELL: '/bin/bash',
  USER: 'runner',
  GITHUB_TOKEN: 'ghs_secret',
  'INPUT_GITHUB-TOKEN': 'ghs_secret',
  'INPUT_API-KEY': 'sk-secret',
  ACTIONS_RUNTIME_TOKEN: 'runtime-secret',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-secret',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://oidc.invalid',
  RUNNER_TOKEN: 'runner-secret',
  RUNNER_TEMP: '/runner/temp',
  RUNNER_OS: 'Linux',
  RUNNER_ARCH: 'X64',
  GITHUB_REPOSITORY: 'octo/widgets',
  NODE_OPTIONS: '--max-old-space-size=4096',
  CI: 'false',
};

describe('commandEnvironment', () => {
  it('passes exactly PATH, HOME, locale, temp dirs, TERM and CI=true', () => {
    expect(commandEnvironment(runner)).toEqual({ ...passedThrough, CI: 'true' });
  });

  it('adds the named extra variables that are set, and nothing for unset ones', () => {
    const env = commandEnvironment(runner, ['NODE_OPTIONS', 'GITHUB_REPOSITORY', 'RUNNER_OS', 'NOT_SET']);
    expect(env.NODE_OPTIONS).toBe('--max-old-space-size=4096');
    expect(env.GITHUB_REPOSITORY).toBe('octo/widgets');
    expect(env.RUNNER_OS).toBe('Linux');
    expect('NOT_SET' in env).toBe(false);
  });

  it('keeps CI=true even when CI is named', () => {
    expect(commandEnvironment(runner, ['CI']).CI).toBe('true');
  });

  it('never passes a credential, and refuses to when one is named', () => {
    const values = Object.values(commandEnvironment(runner)).join('\n');
    for (const secret of [
      'ghs_secret',
      'sk-secret',
      'runtime-secret',
      'oidc-secret',
      'runner-secret',
      '/runner/temp',
    ]) {
      expect(values).not.toContain(secret);
    }
    for (const name of [
      'GITHUB_TOKEN',
      'INPUT_API-KEY',
      'ACTIONS_RUNTIME_TOKEN',
      'ACTIONS_ID_TOKEN_REQUEST_URL',
      'RUNNER_TOKEN',
      'actions_runtime_token',
    ]) {
      expect(() => commandEnvironment(runner, ['NODE_OPTIONS', name])).toThrow(new RegExp(`command-env names ${name}`));
    }
  });

  it('tells refused names from harmless look-alikes', () => {
    expect(isRefusedCommandEnvName('INPUT_X')).toBe(true);
    expect(isRefusedCommandEnvName('GITHUB_TOKEN')).toBe(true);
    expect(isRefusedCommandEnvName('GITHUB_TOKEN_PATH_HINT')).toBe(false);
    expect(isRefusedCommandEnvName('GITHUB_REPOSITORY')).toBe(false);
    expect(isRefusedCommandEnvName('MY_INPUT_DIR')).toBe(false);
  });
});
