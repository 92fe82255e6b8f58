/**
 * `node scripts/run-bench.mjs --quick` (in .ci/run on every change): the benchmark's deterministic
 * figures, judged against bench/targets.ts. Plays each scenario once against the bundled action, as
 * `npm run bench` does, and judges the targets bench/counted-targets.ts calls counted: GitHub API
 * calls per command and per cycle, tokens, cache hits, prefix efficiency, recovery from provider
 * faults. Times are measured along the way but not judged (one play on a shared machine says
 * nothing about them); nothing is written. Exits 1 when a counted target is missed, or a target is
 * in neither of counted-targets.ts's lists.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { aggregateScenario, timingOf } from './aggregate.js';
import { measureBundle } from './bundle-size.js';
import { targetKind, unmatchedCounted } from './counted-targets.js';
import { measureRecoveries } from './fault-recovery.js';
import { growthFigures } from './growth-figures.js';
import { machineInfo } from './machine.js';
import { actionFile } from './paths.js';
import type { BenchResults } from './results.js';
import { playScenario, scenarioSpecs } from './scenario-runs.js';
import { evaluateTargets } from './targets.js';

const out = (text: string) => process.stdout.write(`${text}\n`);
const probeDir = mkdtempSync(path.join(tmpdir(), 'plangate-bench-quick-'));

try {
  // All at once: each plays in a world of its own, and the counts do not depend on the machine's load.
  const plays = await Promise.all(
    scenarioSpecs.map(async (spec) => {
      const play = await playScenario(spec, probeDir);
      out(`  ${spec.name} played in ${(performance.now() / 1000).toFixed(1)} s`);
      return { spec, play };
    }),
  );
  const baseline = timingOf(plays.flatMap((p) => p.play.baselines));
  const scenarios = plays.map(({ spec, play }) => aggregateScenario(spec.name, [play], baseline));
  const results: BenchResults = {
    command: 'node scripts/run-bench.mjs --quick',
    date: new Date().toISOString(),
    machine: machineInfo(),
    repeat: 1,
    bundle: measureBundle(actionFile),
    baseline,
    scenarios,
    scale: [],
    growth: growthFigures(scenarios, []),
    recovery: await measureRecoveries(),
    wallSeconds: performance.now() / 1000,
    targets: [],
  };
  const targets = evaluateTargets(results);
  const unsorted = targets.filter((t) => targetKind(t) === 'unsorted');
  const lost = unmatchedCounted(targets);
  const judged = targets.filter((t) => targetKind(t) === 'counted');
  for (const t of judged)
    out(`${t.met ? 'met    ' : 'MISSED '} ${t.target}: ${t.measured}${t.met ? '' : `\n        ${t.gap}`}`);
  for (const t of unsorted)
    out(`UNSORTED ${t.target}: add it to bench/counted-targets.ts as counted or timed, so the quick check knows`);
  for (const pattern of lost) out(`LOST    no target matches ${pattern}: a counted target was renamed or dropped`);
  const missed = judged.filter((t) => !t.met).length;
  out(
    `quick benchmark in ${(performance.now() / 1000).toFixed(1)} s: ${judged.length - missed} of ${judged.length} counted targets met` +
      (unsorted.length + lost.length > 0 ? `; ${unsorted.length} unsorted, ${lost.length} lost` : ''),
  );
  if (missed + unsorted.length + lost.length > 0) process.exitCode = 1;
} finally {
  rmSync(probeDir, { recursive: true, force: true });
}
