/**
 * `node scripts/run-bench.mjs --quick` (in .ci/run on every change): the benchmark's deterministic
 * figures, judged against bench/targets.ts. Plays each scenario once against the bundled action, as
 * `npm run bench` does, and judges the targets bench/counted-targets.ts calls counted: GitHub API
 * calls per command and per cycle, tokens, cache hits, billed tokens per cycle, prefix efficiency, recovery from provider
 * faults. Times are measured along the way but not judged (one play on a shared machine says
 * nothing about them); nothing is written. Exits 1 when a counted target is missed that the
 * committed bench/results.json meets (a regression), or a target is in neither of counted-targets.ts's
 * lists. A miss the committed results already report is printed with its gap but does not fail:
 * RESULTS.md states it, and the source-hash check keeps that statement current.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { aggregateScenario, timingOf } from './aggregate.js';
import { measureBundle } from './bundle-size.js';
import { measureCostPerCycle } from './cost-per-cycle.js';
import { targetKind, unmatchedCounted } from './counted-targets.js';
import { measureRecoveries } from './fault-recovery.js';
import { growthFigures } from './growth-figures.js';
import { machineInfo } from './machine.js';
import { actionFile, projectRoot } from './paths.js';
import type { BenchResults } from './results.js';
import { playScenario, scenarioSpecs } from './scenario-runs.js';
import { evaluateTargets } from './targets.js';

const out = (text: string) => process.stdout.write(`${text}\n`);

/** The targets the committed results miss: a miss among them is known, not a regression. */
function committedMisses(): Set<string> {
  const committed = JSON.parse(readFileSync(path.join(projectRoot, 'bench/results.json'), 'utf8')) as BenchResults;
  return new Set(committed.targets.filter((t) => !t.met).map((t) => t.target));
}
const probeDir = mkdtempSync(path.join(tmpdir(), 'plangate-bench-quick-'));

try {
  // One after another, as the full benchmark plays them: their commands run as one command account,
  // which plangate refuses to a job while another job on the machine uses it.
  const plays = [];
  for (const spec of scenarioSpecs) {
    const play = await playScenario(spec, probeDir);
    out(`  ${spec.name} played in ${(performance.now() / 1000).toFixed(1)} s`);
    plays.push({ spec, play });
  }
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
    costPerCycle: await measureCostPerCycle(scenarios),
    recovery: await measureRecoveries(),
    wallSeconds: performance.now() / 1000,
    targets: [],
  };
  const targets = evaluateTargets(results);
  const unsorted = targets.filter((t) => targetKind(t) === 'unsorted');
  const lost = unmatchedCounted(targets);
  const judged = targets.filter((t) => targetKind(t) === 'counted');
  const known = committedMisses();
  const label = (t: (typeof judged)[number]) => (t.met ? 'met    ' : known.has(t.target) ? 'missed ' : 'MISSED ');
  for (const t of judged) out(`${label(t)} ${t.target}: ${t.measured}${t.met ? '' : `\n        ${t.gap}`}`);
  for (const t of unsorted)
    out(`UNSORTED ${t.target}: add it to bench/counted-targets.ts as counted or timed, so the quick check knows`);
  for (const pattern of lost) out(`LOST    no target matches ${pattern}: a counted target was renamed or dropped`);
  const missed = judged.filter((t) => !t.met);
  const regressed = missed.filter((t) => !known.has(t.target)).length;
  out(
    `quick benchmark in ${(performance.now() / 1000).toFixed(1)} s: ${judged.length - missed.length} of ${judged.length} counted targets met` +
      (missed.length > regressed
        ? `; ${missed.length - regressed} missed as in the committed results (lower case above)`
        : '') +
      (regressed > 0 ? `; ${regressed} MISSED that the committed results meet` : '') +
      (unsorted.length + lost.length > 0 ? `; ${unsorted.length} unsorted, ${lost.length} lost` : ''),
  );
  if (regressed + unsorted.length + lost.length > 0) process.exitCode = 1;
} finally {
  rmSync(probeDir, { recursive: true, force: true });
}
