import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { timingOf, type TimingFigures } from './aggregate.js';
import { timeBrokenStart, timeNodeNoop, type ProcessCost } from './process-timing.js';
import { ratio } from './stats.js';

/**
 * How long a job whose runner environment is broken takes to fail, against `node -e 0` timed right
 * before each start, so both share the machine's mood of the moment.
 */
export interface BrokenStartFigures {
  start: TimingFigures;
  baseline: TimingFigures;
  /** start / baseline, wall time. */
  wallRatio: number;
  cpuRatio: number;
}

export async function measureBrokenStart(repeat: number, probeDir: string): Promise<BrokenStartFigures> {
  const dir = path.join(probeDir, 'broken-start');
  mkdirSync(dir, { recursive: true });
  const starts: ProcessCost[] = [];
  const baselines: ProcessCost[] = [];
  // A first unmeasured pair warms the page cache for both.
  for (let round = 0; round <= repeat; round++) {
    const baseline = await timeNodeNoop(dir, path.join(probeDir, 'noop'));
    const start = await timeBrokenStart(dir, path.join(probeDir, 'broken'));
    if (round === 0) continue;
    baselines.push(baseline);
    starts.push(start);
  }
  const start = timingOf(starts);
  const baseline = timingOf(baselines);
  return {
    start,
    baseline,
    wallRatio: ratio(start.wallMs, baseline.wallMs),
    cpuRatio: ratio(start.cpuMs, baseline.cpuMs),
  };
}
