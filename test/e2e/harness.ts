import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { GITHUB_EMULATOR_SERVER_URL, startGitHubEmulator, type GitHubEmulator } from '../fakes/github-emulator.js';
import { startScriptedModel, type Reply, type ScriptedModel } from '../fakes/scripted-model.js';
import { RUN_TAG_ENV, runTag } from '../helpers/unique-names.js';
import { defaultNetworkInput } from './network-prerequisite.js';
import type { RunnerAccount } from './runner-accounts.js';
import { seedOrigin, writeFiles } from './seeded-origin.js';

/**
 * One end-to-end world: a bare repository as origin, a fresh checkout as the workspace, the GitHub
 * emulator and the scripted model. `runAction` starts the bundled action exactly as the Actions
 * runner does: `node dist/index.js` with the event file, the runner variables and INPUT_* values.
 */

/** The project root: the nearest folder above this file holding action.yml (also when bundled for the demo). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'action.yml'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('action.yml not found above the harness');
    dir = parent;
  }
  return dir;
}
const root = projectRoot();
export const bundledAction = path.join(root, 'dist/index.js');

export const token = 'ghs_e2eTokenValue0123456789abcdef';
export const apiKey = 'sk-e2e-model-key-0123456789abcdef';
export const owner = 'octo-org';
export const repo = 'sample';
/** GitHub's numeric id of the repository, as the runner passes it (GITHUB_REPOSITORY_ID). */
export const repositoryId = '700123456';

/**
 * While a world with `runAs` is open: a system git config that trusts repositories of any owner, so
 * the harness's git (run by the test process, root) works in that world's repositories, which the
 * account owns, instead of refusing them as "dubious ownership". It has to be a file: `-c
 * safe.directory=*` and GIT_CONFIG_COUNT do not reach the upload-pack and receive-pack that a clone,
 * fetch or push over a local path starts, and those check the owner too. It includes /etc/gitconfig
 * so the system configuration still applies, lives in a folder only the test process can write, and
 * is removed when the last such world closes. Only the harness's git gets it, never the action's
 * environment. (The emulator's git names its repository with --git-dir, which git does not check.)
 */
let trustAnyOwner: { dir: string; file: string; worlds: number } | undefined;

/** Trusts repositories of any owner for the harness's git until the returned function is called. */
function holdTrustAnyOwner(): () => void {
  if (!trustAnyOwner) {
    const dir = mkdtempSync(path.join(tmpdir(), 'plangate-e2e-git-'));
    const file = path.join(dir, 'gitconfig');
    writeFileSync(file, '[include]\n\tpath = /etc/gitconfig\n[safe]\n\tdirectory = *\n');
    trustAnyOwner = { dir, file, worlds: 0 };
  }
  const held = trustAnyOwner;
  held.worlds += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.worlds -= 1;
    if (held.worlds === 0 && trustAnyOwner === held) {
      trustAnyOwner = undefined;
      rmSync(held.dir, { recursive: true, force: true });
    }
  };
}

/** The environment of the harness's git: the process's, a fixed identity, and any owner trusted while needed. */
function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...(trustAnyOwner ? { GIT_CONFIG_SYSTEM: trustAnyOwner.file } : {}),
    GIT_AUTHOR_NAME: 'Mona',
    GIT_AUTHOR_EMAIL: 'mona@example.com',
    GIT_COMMITTER_NAME: 'Mona',
    GIT_COMMITTER_EMAIL: 'mona@example.com',
  };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: gitEnv() }).trim();
}

/**
 * Leaves `authorization` in the checkout's .git/config as actions/checkout does with
 * persist-credentials (its default): `http.https://github.com/.extraheader`. Written into the file,
 * not with `git config <key> <value>`, whose command line any process on the machine can read in
 * /proc while it runs, a hostile command of another test included.
 */
export function persistCheckoutCredentials(workspace: string, authorization: string): void {
  const config = path.join(workspace, '.git/config');
  writeFileSync(
    config,
    `${readFileSync(config, 'utf8')}[http "https://github.com/"]\n\textraheader = ${authorization}\n`,
  );
}

let includedCredentials = 0;

/**
 * Leaves `authorization` as actions/checkout v6 does with persist-credentials: in a file of its own
 * (`git-credentials-<id>.config` in RUNNER_TEMP, here `folder`) that the checkout's .git/config
 * includes for this git dir. The file is readable by all, as the runner's umask leaves it. Returns
 * its path.
 */
export function persistIncludedCheckoutCredentials(workspace: string, folder: string, authorization: string): string {
  includedCredentials += 1;
  const file = path.join(folder, `git-credentials-${process.pid}-${includedCredentials}.config`);
  writeFileSync(file, `[http "https://github.com/"]\n\textraheader = ${authorization}\n`, { mode: 0o644 });
  const config = path.join(workspace, '.git/config');
  writeFileSync(
    config,
    `${readFileSync(config, 'utf8')}[includeIf "gitdir:${path.join(workspace, '.git')}"]\n\tpath = ${file}\n`,
  );
  return file;
}

/** The sample project every scenario starts from. */
const sampleFiles: Record<string, string> = {
  'README.md': '# sample\n\nA tiny project for plangate scenarios.\n',
  'package.json': '{\n  "name": "sample",\n  "version": "1.0.0",\n  "type": "module"\n}\n',
  'src/greet.js': "export function greet(name) {\n  return 'Hello ' + name;\n}\n",
  '.github/workflows/ci.yml': 'name: ci\non: push\njobs: {}\n',
};

/** Where one run's files are, as the runner lays them out for a step. */
export interface RunPaths {
  /** The per-run folder (RUNNER_TEMP), holding the files below. */
  runDir: string;
  /** The checkout it ran in (GITHUB_WORKSPACE, its cwd). */
  workspace: string;
  /** GITHUB_EVENT_PATH. */
  eventPath: string;
  /** GITHUB_OUTPUT. */
  outputPath: string;
  /** GITHUB_ENV: what a step exports for the steps after it. */
  envPath: string;
  /** GITHUB_STATE: what a step saves for its own post step. */
  statePath: string;
  /** GITHUB_STEP_SUMMARY. */
  summaryPath: string;
}

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  paths: RunPaths;
}

/** A started action: its process, its result once it exits, and a way to kill it mid-run. */
export interface StartedAction {
  pid: number | undefined;
  /** The workflow run id it was given (GITHUB_RUN_ID), registered with the emulator. */
  runId: string;
  paths: RunPaths;
  done: Promise<ActionRun>;
  kill(signal?: NodeJS.Signals): void;
}

export interface StartOptions {
  /**
   * Runs in a checkout of its own (a fresh clone of origin) instead of the shared workspace, as
   * every job on a real runner has: for actions that run at the same time.
   */
  ownCheckout?: boolean;
  /**
   * What the GITHUB_ENV and GITHUB_STATE files hold when the action starts (empty by default), to
   * play earlier steps that exported variables (secrets among them) or saved state.
   */
  runnerFiles?: { env?: string; state?: string };
  /**
   * Descriptors of the test process the action inherits, by the number it gets them as (3 and up),
   * as a runner or wrapper that leaves a descriptor open without close-on-exec hands them on.
   */
  inherit?: Record<number, number>;
}

export interface WorldOptions {
  /**
   * Runs the action as this account (see runner-accounts.ts) instead of as the test process: the
   * world's folder (origin, workspace, per-run folders) is owned by it with mode 0700, so no other
   * account can enter, and the action gets its uid, gid and HOME.
   */
  runAs?: RunnerAccount;
  /** The API key the scripted model takes (default: `apiKey`), for worlds whose action is given another. */
  modelKey?: string;
  /** Whom the workflow token acts as on GitHub (default `github-actions[bot]`), e.g. a GitHub App's bot. */
  tokenLogin?: string;
  /** How long the scripted model takes to answer each request (default 0: at once), as a provider does. */
  modelDelayMs?: number;
}

export interface World {
  dir: string;
  /** The account the action runs as; undefined when it runs as the test process. */
  runAs: RunnerAccount | undefined;
  origin: string;
  workspace: string;
  gh: GitHubEmulator;
  model: ScriptedModel;
  /** Pushes a commit with these files (`executables` among them committed as such) to a branch of origin, as a contributor would. */
  pushToOrigin(branch: string, files: Record<string, string>, message: string, executables?: string[]): string;
  /** Re-clones the workspace, as actions/checkout gives every job a fresh one. */
  freshCheckout(): void;
  /**
   * Runs the bundled action to the end; `env` adds variables to the runner environment (e.g.
   * canaries, GITHUB_RUN_ID to replay a run id as a re-run attempt does, or its PATH).
   */
  runAction(
    event: { name: string; payload: unknown },
    inputs?: Record<string, string>,
    env?: Record<string, string>,
    options?: StartOptions,
  ): Promise<ActionRun>;
  /**
   * Starts the bundled action without waiting for it. Its run id is registered with the emulator as
   * in_progress while it runs and as completed (success or failure by exit code) once it exits,
   * so plangate's lock can ask GitHub whether the run is still going.
   */
  startAction(
    event: { name: string; payload: unknown },
    inputs?: Record<string, string>,
    env?: Record<string, string>,
    options?: StartOptions,
  ): StartedAction;
  /** Process id of the action started last, while it runs. */
  actionPid: number | undefined;
  close(): Promise<void>;
}

/** Defaults the runner would fill in from action.yml, so the action sees what it sees in a workflow. */
function actionDefaults(): Record<string, string> {
  const manifest = parseYaml(readFileSync(path.join(root, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
  };
  const defaults: Record<string, string> = {};
  for (const [name, spec] of Object.entries(manifest.inputs)) {
    defaults[name] = String(spec.default ?? '').replace('${{ github.token }}', token);
  }
  return defaults;
}

/**
 * The sandbox account (command-user) of this process's action runs. After every command the action
 * ends everything its account runs, so jobs that run at the same time on one machine must each name
 * their own (docs/security.md), and test files run side by side: in a test run each worker has an
 * account of its own, named for the run (test/helpers/unique-names.ts), which the action creates on
 * first use as it would the default one and the run's teardown deletes. Outside a test run (the
 * benchmark, the demo), the default account. A test that names command-user itself gets its own.
 */
export function workerCommandUser(): string {
  return process.env[RUN_TAG_ENV] ? `pg-cmd-${runTag()}-${process.pid.toString(36)}` : '';
}

/** Reads the GITHUB_OUTPUT file format: name=value lines and name<<DELIMITER blocks. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name = '', delimiter] = heredoc;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] ?? '');
      outputs[name] = value.join('\n');
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}

/** Makes `target` (recursively, never following a symbolic link) the account's. */
function giveTo(account: RunnerAccount | undefined, target: string): void {
  if (account) execFileSync('chown', ['-R', `${account.uid}:${account.gid}`, target]);
}

/** Sets the set-group-id bit on every folder under `dir`, so what is created in them takes their group. */
function inheritGroup(dir: string): void {
  chmodSync(dir, 0o2775);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) inheritGroup(path.join(dir, entry.name));
  }
}

/** The worlds created and not closed yet. */
const openWorlds = new Set<World>();

/**
 * Closes every world still open: a test file's `afterEach(closeOpenWorlds)`, so each test opens the
 * worlds it needs and none outlives it (its emulator, model server and folder).
 */
export async function closeOpenWorlds(): Promise<void> {
  await Promise.all([...openWorlds].map((world) => world.close()));
}

export async function createWorld(
  script: Record<string, Reply[]>,
  files: Record<string, string> = sampleFiles,
  options: WorldOptions = {},
): Promise<World> {
  const { runAs } = options;
  const releaseTrust = runAs ? holdTrustAnyOwner() : undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'plangate-e2e-'));
  const workspace = path.join(dir, 'workspace');
  const { origin, seed } = seedOrigin(git, dir, files, runAs !== undefined);
  if (runAs) {
    giveTo(runAs, dir);
    inheritGroup(origin);
    chmodSync(dir, 0o700);
  }

  // GitHub's clock starts at the test's time, as a runner's and GitHub's clocks agree: the action
  // compares the times GitHub gives (an approval's) with its own clock.
  const gh = await startGitHubEmulator({
    owner,
    repo,
    token,
    originPath: origin,
    clockStartMs: Date.now(),
    ...(options.tokenLogin ? { tokenLogin: options.tokenLogin } : {}),
  });
  const model = await startScriptedModel({
    script,
    apiKey: options.modelKey ?? apiKey,
    ...(options.modelDelayMs === undefined ? {} : { delayMs: options.modelDelayMs }),
  });
  let runs = 0;

  const world: World = {
    dir,
    runAs,
    origin,
    workspace,
    gh,
    model,
    pushToOrigin(branch, files, message, executables = []) {
      git(seed, 'fetch', '--quiet', origin, `+refs/heads/*:refs/remotes/origin/*`);
      const exists = git(seed, 'for-each-ref', `refs/remotes/origin/${branch}`) !== '';
      git(seed, 'checkout', '--quiet', '-B', branch, exists ? `origin/${branch}` : 'origin/main');
      writeFiles(seed, files);
      for (const file of executables) chmodSync(path.join(seed, file), 0o755);
      git(seed, 'add', '--all');
      git(seed, 'commit', '--quiet', '-m', message);
      git(seed, 'push', '--quiet', origin, `HEAD:refs/heads/${branch}`);
      giveTo(runAs, seed);
      giveTo(runAs, origin);
      return git(seed, 'rev-parse', 'HEAD');
    },
    freshCheckout() {
      rmSync(workspace, { recursive: true, force: true });
      git(dir, 'clone', '--quiet', origin, workspace);
      giveTo(runAs, workspace);
    },
    actionPid: undefined,
    runAction: (event, inputs = {}, extraEnv = {}, options = {}) =>
      world.startAction(event, inputs, extraEnv, options).done,
    startAction(event, inputs = {}, extraEnv = {}, options = {}) {
      runs += 1;
      const runDir = path.join(dir, `run-${runs}`);
      const runId = extraEnv.GITHUB_RUN_ID ?? String(1000 + runs);
      let cwd = workspace;
      if (options.ownCheckout) {
        cwd = path.join(runDir, 'workspace');
        git(dir, 'clone', '--quiet', origin, cwd);
      }
      mkdirSync(runDir, { recursive: true });
      const paths: RunPaths = {
        runDir,
        workspace: cwd,
        eventPath: path.join(runDir, 'event.json'),
        outputPath: path.join(runDir, 'output'),
        envPath: path.join(runDir, 'env'),
        statePath: path.join(runDir, 'state'),
        summaryPath: path.join(runDir, 'summary.md'),
      };
      const { eventPath, outputPath, summaryPath } = paths;
      writeFileSync(eventPath, JSON.stringify(event.payload));
      writeFileSync(outputPath, '');
      writeFileSync(paths.envPath, options.runnerFiles?.env ?? '');
      writeFileSync(paths.statePath, options.runnerFiles?.state ?? '');
      writeFileSync(summaryPath, '');
      giveTo(runAs, runDir);
      const merged = {
        ...actionDefaults(),
        'command-user': workerCommandUser(),
        'api-key': apiKey,
        'base-url': model.url,
        'planner-model': 'planner',
        'executor-model': 'executor',
        ...defaultNetworkInput(),
        ...inputs,
      };
      const env: NodeJS.ProcessEnv = {
        ...extraEnv,
        // The runner's PATH, unless the scenario gives one (a folder of its own programs in front, or a
        // workflow's `$GITHUB_PATH` change).
        PATH: extraEnv.PATH ?? process.env.PATH,
        HOME: runAs ? runAs.home : process.env.HOME,
        GITHUB_ACTIONS: 'true',
        CI: 'true',
        GITHUB_EVENT_NAME: event.name,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: `${owner}/${repo}`,
        GITHUB_REPOSITORY_ID: repositoryId,
        GITHUB_WORKSPACE: cwd,
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: GITHUB_EMULATOR_SERVER_URL,
        GITHUB_RUN_ID: runId,
        GITHUB_OUTPUT: outputPath,
        GITHUB_ENV: paths.envPath,
        GITHUB_STATE: paths.statePath,
        GITHUB_STEP_SUMMARY: summaryPath,
        RUNNER_TEMP: runDir,
      };
      for (const [name, value] of Object.entries(merged)) env[`INPUT_${name.toUpperCase()}`] = value;
      gh.setRun(runId, 'in_progress');
      // Asynchronous on purpose: a synchronous spawn would block the in-process emulator and model.
      const inherited = Object.entries(options.inherit ?? {}).map(([at, fd]) => [Number(at), fd] as const);
      const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
      for (const [at, fd] of inherited) {
        while (stdio.length <= at) stdio.push('ignore');
        stdio[at] = fd;
      }
      const child = spawn(process.execPath, [bundledAction], {
        cwd,
        env,
        stdio,
        ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
      });
      world.actionPid = child.pid;
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const done = new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1))).then(
        (code): ActionRun => {
          // A killed job ends as a completed run too, which is what lets the next run take its lock over.
          gh.setRun(runId, 'completed', code === 0 ? 'success' : 'failure');
          return {
            code,
            stdout,
            stderr,
            outputs: parseOutputFile(readFileSync(outputPath, 'utf8')),
            summary: existsSync(summaryPath) ? readFileSync(summaryPath, 'utf8') : '',
            paths,
          };
        },
      );
      return { pid: child.pid, runId, paths, done, kill: (signal = 'SIGTERM') => void child.kill(signal) };
    },
    async close() {
      openWorlds.delete(world);
      await Promise.all([gh.close(), model.close()]);
      rmSync(dir, { recursive: true, force: true });
      releaseTrust?.();
    },
  };
  openWorlds.add(world);
  world.freshCheckout();
  return world;
}
