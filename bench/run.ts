/**
 * `npm run bench`: plangate's performance benchmark (issue 7). Plays the scripted end-to-end
 * scenarios against the bundled action for model cost, GitHub API calls and overhead; times the
 * read tools on generated repositories of 1k, 10k and 50k files; judges growth and the targets;
 * writes bench/results.json and bench/RESULTS.md. Every time is also given as a ratio to a baseline
 * measured in the same run, because absolute times on a shared machine do not repeat.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { aggregateScenario, timingOf, type ScenarioFigures } from './aggregate.js';
import { measureBrokenStart } from './broken-start.js';
import { measureBundle } from './bundle-size.js';
import { measureCostPerCycle } from './cost-per-cycle.js';
import { growthFigures } from './growth-figures.js';
import { measureRecoveries } from './fault-recovery.js';
import { measureLatency } from './latency.js';
import { machineInfo } from './machine.js';
import { measureNpmThroughProxy } from './npm-through-proxy.js';
import { actionFile, projectRoot } from './paths.js';
import type { ProcessCost } from './process-timing.js';
import { renderReport } from './report.js';
import { measureScale, type ScaleFigures } from './repo-scale.js';
import type { BenchResults } from './results.js';
import { playScenario, scenarioSpecs, type ScenarioPlay } from './scenario-runs.js';
import { evaluateTargets } from './targets.js';

const out = (text: string) => process.stdout.write(`${text}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Plays per scenario: 5 for the ones the targets time, 3 for the long ones only growth uses. */
const REPEAT = Number(process.env.PLANGATE_BENCH_REPEAT ?? 5);
const playsOf: Record<string, number> = {
  'plan only': REPEAT,
  'plan + 3 cycles': REPEAT,
  'plan + 1 cycle': Math.min(3, REPEAT),
  'plan + 6 cycles': Math.min(3, REPEAT),
  'executor-only': Math.min(3, REPEAT),
};
const SIZES = [1_000, 10_000, 50_000];
/** /plan runs of the action per repository size, for its wall time and peak RSS. */
const SCALE_PLAN_RUNS = 3;
/** Rounds of `npm ci` per protocol, direct and through the egress proxy: about a minute in all. */
const NPM_ROUNDS = Math.min(3, REPEAT);
/**
 * The latency scenario: rounds of the ordered plan and the same plan one step at a time, and the
 * model's time to answer each request (why this much: bench/RESULTS.md, section 1c). About three
 * minutes in all.
 */
const LATENCY_ROUNDS = 1;
const LATENCY_DELAY_MS = 4000;

/** The sources' hash scripts/run-bench.mjs took before the run; none when run some other way. */
function recordedSource(): Pick<BenchResults, 'source'> {
  const text = process.env.PLANGATE_BENCH_SOURCE;
  if (text === undefined) return {};
  return {
    source: z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/), files: z.number().int() }).parse(JSON.parse(text)),
  };
}

const probeDir = mkdtempSync(path.join(tmpdir(), 'plangate-bench-probe-'));

try {
  out(`plangate benchmark: ${REPEAT} plays of the timed scenarios, repositories of ${SIZES.join(', ')} files`);
  const plays = new Map<string, ScenarioPlay[]>(scenarioSpecs.map((s) => [s.name, []]));
  const baselines: ProcessCost[] = [];
  // Round-robin over the scenarios, so a slow spell of the machine hits them all alike.
  for (let round = 0; round < REPEAT; round++) {
    for (const spec of scenarioSpecs) {
      if (round >= (playsOf[spec.name] ?? 1)) continue;
      const t = performance.now();
      const play = await playScenario(spec, probeDir);
      plays.get(spec.name)?.push(play);
      baselines.push(...play.baselines);
      out(`  round ${round + 1}: ${spec.name} in ${seconds(performance.now() - t)}`);
    }
  }
  const baseline = timingOf(baselines);
  const scenarios: ScenarioFigures[] = scenarioSpecs.map((spec) =>
    aggregateScenario(spec.name, plays.get(spec.name) ?? [], baseline),
  );

  const latency = await measureLatency(LATENCY_ROUNDS, LATENCY_DELAY_MS, probeDir, (round, ratio) =>
    out(
      `  round ${round}: latency scenario, independent steps at once in ${ratio.toFixed(2)}× the time of one at a time`,
    ),
  );

  const brokenStart = await measureBrokenStart(REPEAT, probeDir);
  out(`  broken runner environment: ${brokenStart.wallRatio.toFixed(2)}× node -e 0`);

  const npmProxy = await measureNpmThroughProxy(NPM_ROUNDS, probeDir);
  out(
    `  npm ci of ${npmProxy.packages} packages in ${seconds(npmProxy.wallSeconds * 1000)}: through the egress proxy ` +
      npmProxy.installs.map((i) => `${i.ratio.toFixed(2)}× direct over ${i.protocol}`).join(', '),
  );

  const scale: ScaleFigures[] = [];
  for (const files of SIZES) {
    const t = performance.now();
    scale.push(await measureScale(files, REPEAT, SCALE_PLAN_RUNS, probeDir));
    out(`  repository of ${files} files in ${seconds(performance.now() - t)}`);
  }

  const results: BenchResults = {
    command: 'npm run bench',
    ...recordedSource(),
    date: new Date().toISOString(),
    machine: machineInfo(),
    repeat: REPEAT,
    bundle: measureBundle(actionFile),
    baseline,
    scenarios,
    brokenStart,
    scale,
    growth: growthFigures(scenarios, scale),
    costPerCycle: await measureCostPerCycle(scenarios),
    recovery: await measureRecoveries(),
    npmProxy,
    latency,
    wallSeconds: 0,
    targets: [],
  };
  // Since this process started: the benchmark's own bundling included, `npm run bundle` before it not.
  results.wallSeconds = performance.now() / 1000;
  results.targets = evaluateTargets(results);
  writeFileSync(path.join(projectRoot, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(path.join(projectRoot, 'bench/RESULTS.md'), renderReport(results));
  const met = results.targets.filter((t) => t.met).length;
  out(
    `done in ${seconds(results.wallSeconds * 1000)}: ${met} of ${results.targets.length} targets met; see bench/RESULTS.md`,
  );
} finally {
  rmSync(probeDir, { recursive: true, force: true });
}
