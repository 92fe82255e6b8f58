import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { startScriptedModel, type Reply, type ScriptedModel } from '../fakes/scripted-model.js';
import type { RunnerAccount } from '../e2e/runner-accounts.js';

/**
 * A temporary git repository with the sample project, the scripted model, and the built CLI
 * (`node dist/cli.js`) run in it as a user runs it, with real git. Every run is also checked for
 * the API key in its output, which must never appear.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'dist/cli.js');
export const apiKey = 'sk-cli-test-key-0123456789abcdefXYZ';

const files: Record<string, string> = {
  'README.md': '# sample\n\nA tiny project for plangate scenarios.\n',
  'src/greet.js': "export function greet(name) {\n  return 'Hello ' + name;\n}\n",
  '.github/workflows/ci.yml': 'name: ci\non: push\njobs: {}\n',
};

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Repo {
  dir: string;
  home: string;
  model: ScriptedModel;
  git(...args: string[]): string;
  cli(args: string[], options?: { stdin?: string; env?: Record<string, string | undefined> }): Promise<CliRun>;
  /**
   * Runs the CLI on a pseudo-terminal (util-linux `script`), so stdin and stdout are TTYs, typing
   * `input`; what the terminal showed (stdout and stderr as one, with the echo) is `stdout`.
   */
  cliOnTerminal(args: string[], input: string, env?: Record<string, string | undefined>): Promise<CliRun>;
  close(): Promise<void>;
}

/**
 * `extra` files are committed with the sample project, e.g. a .github/plangate.yml. With `runAs`, the
 * CLI runs as that account (the test process must be root), which owns the checkout and its HOME.
 */
export async function createRepo(
  script: Record<string, Reply[]>,
  extra: Record<string, string> = {},
  options: { runAs?: RunnerAccount } = {},
): Promise<Repo> {
  const { runAs } = options;
  const base = mkdtempSync(path.join(tmpdir(), 'plangate-cli-'));
  const dir = path.join(base, 'repo');
  const home = path.join(base, 'home');
  mkdirSync(home);
  // A HOME of its own: no global git configuration of the machine running the tests takes part.
  const gitEnv = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
  // The test's own git, as root, may read a repository the account owns.
  const trust = runAs ? ['-c', 'safe.directory=*'] : [];
  const git = (...args: string[]) =>
    execFileSync('git', [...trust, ...args], { cwd: dir, encoding: 'utf8', env: gitEnv }).trim();
  mkdirSync(dir);
  git('init', '--quiet', '--initial-branch=main');
  git('config', 'user.name', 'Mona');
  git('config', 'user.email', 'mona@example.com');
  for (const [file, content] of Object.entries({ ...files, ...extra })) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  git('add', '--all');
  git('commit', '--quiet', '-m', 'Initial commit');
  // The account's own checkout and HOME, as a user's are.
  if (runAs) execFileSync('chown', ['-R', `${runAs.uid}:${runAs.gid}`, base]);
  const model = await startScriptedModel({ script, apiKey });
  const outputs: string[] = [];
  const cliEnv = (extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      ...gitEnv,
      PLANGATE_API_KEY: apiKey,
      PLANGATE_BASE_URL: model.url,
      PLANGATE_PLANNER_MODEL: 'planner',
      PLANGATE_EXECUTOR_MODEL: 'executor',
      ...extra,
    };
    for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
    return env;
  };

  const repo: Repo = {
    dir,
    home,
    model,
    git,
    cli(args, options = {}) {
      const env = cliEnv(options.env);
      // Asynchronous on purpose: a synchronous spawn would block the in-process model server.
      const child = spawn(process.execPath, [cli, ...args], {
        cwd: dir,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdin.end(options.stdin ?? '');
      return new Promise<CliRun>((resolve) =>
        child.on('close', (code) => {
          outputs.push(stdout, stderr);
          resolve({ code: code ?? 1, stdout, stderr });
        }),
      );
    },
    cliOnTerminal(args, input, extraEnv) {
      const line = [process.execPath, cli, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
      // -e: the CLI's exit code; /dev/null: no typescript file. Typed input waits in the terminal until read.
      const child = spawn('script', ['-qec', line, '/dev/null'], {
        cwd: dir,
        env: cliEnv(extraEnv),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stdin.write(input);
      return new Promise<CliRun>((resolve) =>
        child.on('close', (code) => {
          child.stdin.destroy();
          outputs.push(stdout);
          resolve({ code: code ?? 1, stdout: stdout.replace(/\r\n/g, '\n'), stderr: '' });
        }),
      );
    },
    async close() {
      await model.close();
      rmSync(base, { recursive: true, force: true });
      // Whatever a run printed, the key was not in it.
      for (const text of outputs) expect(text).not.toContain(apiKey);
    },
  };
  return repo;
}
