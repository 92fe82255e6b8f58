import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitAll, fetchBranch, pushWithLease, startBranch } from '../../src/repo/branch.js';
import { gitAuthEnv } from '../../src/repo/git-auth.js';
import { createGit, execGit, GitError, subcommand, type GitExec } from '../../src/repo/git.js';
import { gitEnvironment, HARDENING } from '../../src/repo/git-env.js';
import { git, makeTempDir, removeDir, writeFiles } from './tools-git-fixture.js';

/**
 * The token reaches git for fetch and push only, through the environment of that one process:
 * never its command line, never `.git/config`, never its error messages, never a hook.
 */

// Not shaped like a GitHub token on purpose: redaction must come from knowing it, not from its shape.
const TOKEN = 'plangate-test-token-0123456789abcdef';
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
const identity = { name: 'plangate-bot', email: 'bot@plangate.invalid' };

interface Call {
  args: readonly string[];
  env: NodeJS.ProcessEnv;
}

/** execGit, recording every argv and environment createGit hands it. */
function spy(calls: Call[]): GitExec {
  return (args, options) => {
    calls.push({ args, env: options.env });
    return execGit(args, options);
  };
}

const configValues = (env: NodeJS.ProcessEnv) =>
  Object.entries(env)
    .filter(([name]) => name.startsWith('GIT_CONFIG_VALUE_'))
    .map(([, value]) => value);

describe('gitAuthEnv', () => {
  it('gives git one authorization header for the server, after resetting any persisted one', () => {
    expect(gitAuthEnv(TOKEN, 'https://github.com/')).toEqual({
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'http.https://github.com/.extraheader',
      GIT_CONFIG_VALUE_0: '',
      GIT_CONFIG_KEY_1: 'http.https://github.com/.extraheader',
      GIT_CONFIG_VALUE_1: `AUTHORIZATION: basic ${BASIC}`,
    });
    expect(gitAuthEnv(TOKEN, 'https://ghes.example.com').GIT_CONFIG_KEY_1).toBe(
      'http.https://ghes.example.com/.extraheader',
    );
  });

  it('refuses a server URL git could not match', () => {
    expect(() => gitAuthEnv(TOKEN, 'github.com')).toThrow(/not an http\(s\) URL/);
  });
});

describe('gitEnvironment', () => {
  it('turns hooks, fsmonitor and submodule recursion off and cuts a connection that went silent', () => {
    const env = gitEnvironment({ PATH: '/usr/bin', INPUT_GITHUB_TOKEN: 'x' }, HARDENING);
    const entries = Object.fromEntries(
      Array.from({ length: Number(env.GIT_CONFIG_COUNT) }, (_, i) => [
        env[`GIT_CONFIG_KEY_${i}`],
        env[`GIT_CONFIG_VALUE_${i}`],
      ]),
    );
    expect(entries).toEqual({
      'core.hooksPath': '/dev/null',
      'core.fsmonitor': 'false',
      'submodule.recurse': 'false',
      'diff.ignoreSubmodules': 'all',
      'status.submoduleSummary': 'false',
      'fetch.recurseSubmodules': 'false',
      'protocol.ext.allow': 'never',
      'http.lowSpeedLimit': '1',
      'http.lowSpeedTime': '300',
    });
    expect(env.INPUT_GITHUB_TOKEN).toBeUndefined();
    expect(env.GIT_TERMINAL_PROMPT).toBe('0');
  });
});

describe('subcommand', () => {
  it('finds the subcommand after global options, and gives up on options it does not know', () => {
    expect(subcommand(['push', 'origin'])).toBe('push');
    expect(subcommand(['-c', 'user.name=x', '-c', 'user.email=y', 'commit', '-m', 'm'])).toBe('commit');
    expect(subcommand(['-C', '/tmp', '--no-pager', 'fetch'])).toBe('fetch');
    expect(subcommand(['--git-dir=/x/.git', 'ls-remote'])).toBe('ls-remote');
    expect(subcommand(['--unknown-option', 'push'])).toBeUndefined();
  });
});

describe('createGit with a token', () => {
  let dirs: string[];
  let origin: string;
  let workspace: string;

  beforeEach(() => {
    origin = makeTempDir('plangate-origin-');
    git(origin, 'init', '-q', '--bare', '-b', 'main');
    const seed = makeTempDir('plangate-seed-');
    git(seed, 'init', '-q', '-b', 'main');
    writeFiles(seed, { 'README.md': '# widgets\n' });
    git(seed, 'add', '-A');
    git(seed, 'commit', '-q', '-m', 'seed');
    git(seed, 'push', '-q', origin, 'main');
    const parent = makeTempDir('plangate-runner-');
    workspace = path.join(parent, 'work');
    git(parent, 'clone', '-q', origin, workspace);
    dirs = [origin, seed, parent];
  });

  afterEach(() => {
    for (const dir of dirs) removeDir(dir);
  });

  it('sends exactly the one header to the server, even with a header actions/checkout persisted', async () => {
    const seen: Array<string[]> = [];
    const server = http.createServer((request, response) => {
      seen.push(request.rawHeaders.filter((_, i, all) => i % 2 === 1 && /^authorization$/i.test(all[i - 1] ?? '')));
      response.statusCode = 404;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      git(workspace, 'remote', 'set-url', 'origin', `${serverUrl}/octo/widgets.git`);
      git(workspace, 'config', '--local', `http.${serverUrl}/.extraheader`, 'AUTHORIZATION: basic persisted');

      const failure = fetchBranch(createGit(workspace, { auth: { token: TOKEN, serverUrl } }), 'main');
      await expect(failure).rejects.toBeInstanceOf(GitError);
      await expect(failure).rejects.not.toThrow(TOKEN);
      expect(seen.length).toBeGreaterThan(0);
      for (const headers of seen) expect(headers).toEqual([`basic ${BASIC}`]);

      // Without a token git sends what the config holds: the server really sees git's headers.
      seen.length = 0;
      await expect(fetchBranch(createGit(workspace), 'main')).rejects.toBeInstanceOf(GitError);
      expect(seen[0]).toEqual(['basic persisted']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('pushes to a local origin, with the token in the push’s environment only', async () => {
    const calls: Call[] = [];
    const env = { ...process.env, 'INPUT_GITHUB-TOKEN': TOKEN, ACTIONS_RUNTIME_TOKEN: 'runtime-secret-value' };
    const runnerGit = createGit(workspace, {
      auth: { token: TOKEN, serverUrl: 'https://github.com' },
      env,
      exec: spy(calls),
    });
    await startBranch(runnerGit, 'plangate/7-0a1b2c3d', git(workspace, 'rev-parse', 'HEAD').trim());
    writeFiles(workspace, { 'work.txt': 'work\n' });
    const { sha } = await commitAll(runnerGit, 'work', identity, []);
    await pushWithLease(runnerGit, 'plangate/7-0a1b2c3d', undefined);
    expect(git(origin, 'rev-parse', 'plangate/7-0a1b2c3d').trim()).toBe(sha);

    for (const call of calls) {
      expect(call.args.join(' ')).not.toContain(TOKEN);
      expect(call.args.join(' ')).not.toContain(BASIC);
      expect(Object.values(call.env).join('\n')).not.toContain(TOKEN);
      expect(Object.values(call.env).join('\n')).not.toContain('runtime-secret-value');
      const authorized = configValues(call.env).includes(`AUTHORIZATION: basic ${BASIC}`);
      expect([call.args[0], authorized]).toEqual([call.args[0], call.args[0] === 'push']);
    }
    expect(calls.some((call) => call.args[0] === 'push')).toBe(true);
    const config = fs.readFileSync(path.join(workspace, '.git', 'config'), 'utf8');
    expect(config).not.toContain(TOKEN);
    expect(config).not.toContain(BASIC);
  });

  it('keeps the token out of the errors it reports', async () => {
    const failing: GitExec = async () => ({
      error: Object.assign(new Error('Command failed'), { code: 128 }),
      stdout: '',
      stderr: `fatal: unable to access 'https://x-access-token:${TOKEN}@github.com/o/r/': header AUTHORIZATION: basic ${BASIC}`,
    });
    const runnerGit = createGit(workspace, { auth: { token: TOKEN, serverUrl: 'https://github.com' }, exec: failing });
    const error = await runnerGit(['push', 'origin', 'HEAD']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect((error as GitError).exitCode).toBe(128);
    expect((error as GitError).message).toMatch(/^git push failed: fatal: unable to access/);
    expect((error as GitError).message).not.toContain(TOKEN);
    expect((error as GitError).message).not.toContain(BASIC);
  });

  it('runs no hook a command could have planted in .git, wherever core.hooksPath points', async () => {
    const marks = makeTempDir('plangate-hook-marks-');
    dirs.push(marks);
    const hook = (name: string) => `#!/bin/sh\nenv > "${marks}/${name}"\n`;
    const hooksDir = path.join(workspace, '.git', 'hooks');
    for (const name of ['post-commit', 'post-checkout', 'pre-push', 'reference-transaction']) {
      fs.writeFileSync(path.join(hooksDir, name), hook(name), { mode: 0o755 });
    }
    // The hooks really run for git that is not plangate's.
    writeFiles(workspace, { 'probe.txt': 'probe\n' });
    git(workspace, 'add', 'probe.txt');
    git(workspace, 'commit', '-q', '-m', 'probe');
    expect(fs.existsSync(path.join(marks, 'post-commit'))).toBe(true);
    fs.rmSync(marks, { recursive: true, force: true });
    fs.mkdirSync(marks);
    git(workspace, 'config', '--local', 'core.hooksPath', hooksDir);

    const runnerGit = createGit(workspace, { auth: { token: TOKEN, serverUrl: 'https://github.com' } });
    await startBranch(runnerGit, 'plangate/8-0a1b2c3d', git(workspace, 'rev-parse', 'HEAD').trim());
    writeFiles(workspace, { 'work.txt': 'work\n' });
    await commitAll(runnerGit, 'work', identity, []);
    await pushWithLease(runnerGit, 'plangate/8-0a1b2c3d', undefined);
    expect(fs.readdirSync(marks)).toEqual([]);
  });
});
