import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import type { ActionRun, World } from '../test/e2e/harness.js';
import { actionFile, projectRoot } from './paths.js';

/**
 * Times processes the way the Actions runner starts them: the action through the e2e harness
 * (`node dist/index.js` with the runner's environment) and the `node -e 0` baseline with the same
 * spawn call. CPU time and peak RSS come from bench/probe.cjs, preloaded into both with
 * NODE_OPTIONS, because Node gives a parent neither for its children.
 */

/** What one timed process cost. */
export interface ProcessCost {
  wallMs: number;
  /** The process's own user + system CPU time. */
  selfCpuMs: number;
  /** CPU time of the children it waited for (git, commands). */
  childCpuMs: number;
  /** Peak resident set size of the process itself (getrusage ru_maxrss). */
  maxRssMiB: number;
}

const probeScript = path.join(projectRoot, 'bench/probe.cjs');
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

const probeSchema = z.object({
  userMicros: z.number(),
  systemMicros: z.number(),
  maxRssKiB: z.number(),
  childTicks: z.number().nullable(),
});

/** The environment that preloads the probe; its results land in `dir`, one file per pid. */
export function probeEnv(dir: string): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  return { NODE_OPTIONS: `--require=${probeScript}`, PLANGATE_BENCH_PROBE: dir };
}

export function readProbe(dir: string, pid: number | undefined, wallMs: number): ProcessCost {
  const file = path.join(dir, `${pid}.json`);
  if (pid === undefined || !existsSync(file)) throw new Error(`no probe result for pid ${pid} in ${dir}`);
  const figures = probeSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  return {
    wallMs,
    selfCpuMs: (figures.userMicros + figures.systemMicros) / 1000,
    childCpuMs: ((figures.childTicks ?? 0) * 1000) / clockTicks,
    maxRssMiB: figures.maxRssKiB / 1024,
  };
}

/** The environment every timed process starts with besides its own: what the harness gives the action. */
function startEnv(probeDir: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, GITHUB_ACTIONS: 'true', CI: 'true', ...probeEnv(probeDir) };
}

/** Starts node with `args` exactly as the harness starts the action: same binary, spawn options and probe. */
async function timeNode(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  probeDir: string,
): Promise<{ code: number; stdout: string; cost: ProcessCost }> {
  const start = performance.now();
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.resume();
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  const wallMs = performance.now() - start;
  return { code, stdout, cost: readProbe(probeDir, child.pid, wallMs) };
}

/** `node -e 0` started exactly as the harness starts the action. */
export async function timeNodeNoop(cwd: string, probeDir: string): Promise<ProcessCost> {
  const { code, cost } = await timeNode(['-e', '0'], cwd, startEnv(probeDir), probeDir);
  if (code !== 0) throw new Error(`node -e 0 exited ${code}`);
  return cost;
}

/**
 * The bundled action started in a job whose runner environment is broken (a /plan comment, but no
 * GITHUB_REPOSITORY): it must fail, with readRunner's words, before loading the engine.
 */
export async function timeBrokenStart(dir: string, probeDir: string): Promise<ProcessCost> {
  const eventPath = path.join(dir, 'event.json');
  const outputPath = path.join(dir, 'output');
  writeFileSync(
    eventPath,
    JSON.stringify({ action: 'created', comment: { body: '/plan x', user: { login: 'mona' } } }),
  );
  writeFileSync(outputPath, '');
  const env: NodeJS.ProcessEnv = {
    ...startEnv(probeDir),
    GITHUB_EVENT_NAME: 'issue_comment',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_WORKSPACE: dir,
    GITHUB_OUTPUT: outputPath,
  };
  const { code, stdout, cost } = await timeNode([actionFile], dir, env, probeDir);
  if (code !== 1 || !stdout.includes('::error::The runner environment is incomplete (GITHUB_REPOSITORY:'))
    throw new Error(`the action with no GITHUB_REPOSITORY exited ${code}:\n${stdout.slice(-2000)}`);
  return cost;
}

/** Runs the bundled action through the harness and returns its result with what it cost. */
export async function timeAction(
  world: World,
  event: { name: string; payload: unknown },
  inputs: Record<string, string>,
  probeDir: string,
): Promise<{ run: ActionRun; cost: ProcessCost }> {
  const start = performance.now();
  const started = world.startAction(event, inputs, probeEnv(probeDir));
  const run = await started.done;
  const wallMs = performance.now() - start;
  return { run, cost: readProbe(probeDir, started.pid, wallMs) };
}
