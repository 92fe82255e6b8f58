import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createWorld, git, type World } from '../test/e2e/harness.js';
import type { RecordedRequest } from '../test/fakes/scripted-model.js';
import { summarizeCalls } from './api-calls.js';
import { CACHE_DISCOUNTS, billedTokens } from './cost-per-cycle.js';
import { LATENCY_STEPS, latencyScript, sessionPoint, stepOf } from './latency-scenario.js';
import { timeAction } from './process-timing.js';
import { EXECUTOR, PLANNER, benchInputs, comment, stepModule } from './scenarios.js';
import { coveredMs, median, overlapGroups, peakOverlap, ratio, type Span } from './stats.js';

/**
 * What running independent steps together saves: the latency scenario (bench/latency-scenario.ts)
 * against the bundled action with a model that takes `delayMs` to answer each request, the plan with
 * its order (`after`) and the same plan without it, which runs one step at a time. Each round plays
 * both, back to back, the order flipped every round, so a slow spell of the shared machine does not
 * fall on one of them alone; the judged wall-time figure is the median of the rounds' ratios.
 */

/** One play of one plan: /plan, then the /approve that is measured. */
export interface LatencySample {
  wallMs: number;
  /** The action's own CPU and that of the children it waited for. */
  cpuMs: number;
  requests: { planner: number; executor: number };
  promptTokens: number;
  cachedTokens: number;
  /** Billed-equivalent prompt tokens by cache discount (bench/cost-per-cycle.ts), the /approve run's requests all told. */
  billed: Record<string, number>;
  /** The most executor requests in flight at one instant, from the scripted model's log. */
  peakExecutorInFlight: number;
  /** The steps whose executor sessions ran at the same time, group after group, from the same log. */
  ranTogether: number[][];
  /** How long at least one model request was in flight: the run's time spent waiting on the model. */
  modelWaitMs: number;
  /** GitHub API calls the /approve run made, and the least time write pacing spread them over. */
  apiCalls: number;
  pacingFloorMs: number;
}

export interface LatencyRunFigures {
  /** Each round's play, in round order. */
  samples: LatencySample[];
  wallMs: number;
  cpuMs: number;
  modelWaitMs: number;
  /** Highest over the rounds. */
  peakExecutorInFlight: number;
  /** Whether every round sent the same requests with the same tokens (the counts below are the first round's). */
  repeatable: boolean;
}

export interface LatencyFigures {
  delayMs: number;
  rounds: number;
  steps: number;
  sequential: LatencyRunFigures;
  parallel: LatencyRunFigures;
  /** Each round's parallel / sequential /approve wall time. */
  roundRatios: number[];
  /** The judged figure: the median of roundRatios. */
  wallRatio: number;
  /** Parallel / sequential billed-equivalent prompt tokens, by cache discount. */
  billedRatios: Record<string, number>;
  /** Parallel / sequential model requests. */
  requestRatio: number;
  wallSeconds: number;
}

const spanOf = (r: RecordedRequest): Span => ({ startMs: r.receivedAtMs, endMs: r.answeredAtMs ?? r.receivedAtMs });

function sampleOf(wallMs: number, cpuMs: number, requests: readonly RecordedRequest[], api: World['gh']['requests']) {
  const promptTokens = requests.reduce((sum, r) => sum + (r.usage?.prompt_tokens ?? 0), 0);
  const cachedTokens = requests.reduce((sum, r) => sum + (r.usage?.prompt_tokens_details.cached_tokens ?? 0), 0);
  const executor = requests.filter((r) => r.model === EXECUTOR);
  const calls = summarizeCalls(api);
  return {
    wallMs,
    cpuMs,
    requests: { planner: requests.filter((r) => r.model === PLANNER).length, executor: executor.length },
    promptTokens,
    cachedTokens,
    billed: Object.fromEntries(
      CACHE_DISCOUNTS.map((d) => [d.model, billedTokens(promptTokens, cachedTokens, d.cachedShare)]),
    ),
    peakExecutorInFlight: peakOverlap(executor.map(spanOf)),
    ranTogether: overlapGroups(
      executor.map((r) => ({ key: stepOf(sessionPoint(r.messages).summoning), span: spanOf(r) })),
    ),
    modelWaitMs: coveredMs(requests.map(spanOf)),
    apiCalls: calls.total,
    pacingFloorMs: calls.pacingFloorMs,
  } satisfies LatencySample;
}

/** One world, one plan: /plan, then /approve, checked to have landed every step's file on the branch. */
export async function playLatencyRun(ordered: boolean, delayMs: number, probeDir: string): Promise<LatencySample> {
  const name = ordered ? 'ordered plan' : 'plan without order';
  // /plan is the same for both plans and is not what is measured: its model answers at once.
  const world = await createWorld(latencyScript(ordered), undefined, { modelDelayMs: 0 });
  try {
    world.gh.setPermission('mona', 'maintain');
    const issue = world.gh.addIssue({
      title: 'Step helpers',
      body: 'We need small helper modules, one per step.',
      login: 'mona',
    }).number;
    let measured: LatencySample | undefined;
    let branch = '';
    for (const [body, expected] of [
      ['/plan Add the step helpers described in this issue.', 'planned'],
      ['/approve', 'done'],
    ] as const) {
      world.freshCheckout();
      if (expected === 'done') world.model.setDelay(delayMs);
      const apiBefore = world.gh.requests.length;
      const modelBefore = world.model.requests.length;
      const { run, cost } = await timeAction(
        world,
        comment(world, issue, 'mona', body),
        benchInputs,
        path.join(probeDir, 'action'),
      );
      const outcome = run.outputs.outcome ?? '(none)';
      if (outcome !== expected)
        throw new Error(
          `latency, ${name}: ${body} ended "${outcome}", not "${expected}" (exit ${run.code})\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-2000)}`,
        );
      branch = run.outputs.branch ?? '';
      measured = sampleOf(
        cost.wallMs,
        cost.selfCpuMs + cost.childCpuMs,
        world.model.requests.slice(modelBefore),
        world.gh.requests.slice(apiBefore),
      );
    }
    if (!measured) throw new Error('no /approve run');
    // Every step did its work, once: its file on the pushed branch, four executor turns each.
    for (let k = 1; k <= LATENCY_STEPS; k++) {
      const file = git(world.origin, 'show', `refs/heads/${branch}:src/step-${k}.js`);
      if (`${file}\n` !== stepModule(k))
        throw new Error(`latency, ${name}: src/step-${k}.js on ${branch} is not step ${k}'s`);
    }
    // …and its check ran in the sandbox and passed.
    const checked = new Set(
      world.model.requests
        .filter((r) => r.model === EXECUTOR)
        .map(
          (r) => /^\$ node --check src\/step-(\d+)\.js\nexit code: 0\b/.exec(String(r.messages.at(-1)?.content))?.[1],
        )
        .filter((k) => k !== undefined),
    );
    if (checked.size !== LATENCY_STEPS)
      throw new Error(`latency, ${name}: node --check passed for step ${[...checked].join(', ')} only`);
    if (measured.requests.executor !== 4 * LATENCY_STEPS)
      throw new Error(`latency, ${name}: ${measured.requests.executor} executor requests, not ${4 * LATENCY_STEPS}`);
    return measured;
  } finally {
    await world.close();
  }
}

function runFigures(samples: LatencySample[]): LatencyRunFigures {
  const [first] = samples;
  if (!first) throw new Error('no latency samples');
  const counts = (s: LatencySample) => JSON.stringify([s.requests, s.promptTokens, s.cachedTokens]);
  return {
    samples,
    wallMs: median(samples.map((s) => s.wallMs)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    modelWaitMs: median(samples.map((s) => s.modelWaitMs)),
    peakExecutorInFlight: Math.max(...samples.map((s) => s.peakExecutorInFlight)),
    repeatable: samples.every((s) => counts(s) === counts(first)),
  };
}

/** `rounds` rounds of both plans, alternating which goes first; `onRound` hears each round's ratio. */
export async function measureLatency(
  rounds: number,
  delayMs: number,
  probeDir: string,
  onRound: (round: number, ratio: number) => void = () => undefined,
): Promise<LatencyFigures> {
  const started = performance.now();
  const sequential: LatencySample[] = [];
  const parallel: LatencySample[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [false, true] : [true, false];
    for (const ordered of order) {
      const sample = await playLatencyRun(ordered, delayMs, probeDir);
      (ordered ? parallel : sequential).push(sample);
    }
    onRound(round + 1, ratio(parallel[round]?.wallMs ?? Number.NaN, sequential[round]?.wallMs ?? Number.NaN));
  }
  const seq = runFigures(sequential);
  const par = runFigures(parallel);
  const roundRatios = parallel.map((p, i) => ratio(p.wallMs, sequential[i]?.wallMs ?? Number.NaN));
  const [s0, p0] = [sequential[0] as LatencySample, parallel[0] as LatencySample];
  return {
    delayMs,
    rounds,
    steps: LATENCY_STEPS,
    sequential: seq,
    parallel: par,
    roundRatios,
    wallRatio: median(roundRatios),
    billedRatios: Object.fromEntries(
      CACHE_DISCOUNTS.map((d) => [d.model, ratio(p0.billed[d.model] ?? Number.NaN, s0.billed[d.model] ?? Number.NaN)]),
    ),
    requestRatio: ratio(p0.requests.planner + p0.requests.executor, s0.requests.planner + s0.requests.executor),
    wallSeconds: (performance.now() - started) / 1000,
  };
}
