import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { targetKind, unmatchedCounted } from '../../bench/counted-targets.js';
import type { LatencyFigures, LatencySample } from '../../bench/latency.js';
import type { NpmInstallFigures } from '../../bench/npm-through-proxy.js';
import type { BenchResults } from '../../bench/results.js';
import { evaluateTargets } from '../../bench/targets.js';

// The quick benchmark judges the targets bench/counted-targets.ts calls counted. Every target the
// full benchmark judges must be sorted into counted or timed, so none is skipped unnoticed.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const committed = JSON.parse(readFileSync(path.join(root, 'bench/results.json'), 'utf8')) as BenchResults;
// Results from before a figure lack its target; these stand in for the figures added since.
const recovery = {
  failures: 5,
  kind: 'backoff',
  recovered: true,
  requests: 6,
  waitedMs: 23_000,
  overheadMs: 40,
} as const;
const brokenStart = { start: committed.baseline, baseline: committed.baseline, wallRatio: 1, cpuRatio: 1 };
const sample = { wallMs: 3000, npmCpuMs: 2500, serverCpuMs: 300 };
const install: NpmInstallFigures = {
  protocol: 'https',
  through: 'CONNECT tunnels',
  direct: [sample],
  proxied: [sample],
  directMedian: sample,
  proxiedMedian: sample,
  roundRatios: [1],
  ratio: 1,
  ratioOfMedians: 1,
  cpuRatio: 1,
  proxyCpuMs: 50,
  proxyCpuShare: 0.02,
  registryConnections: { direct: 15, proxied: 15 },
  proxyLookups: 15,
};
const npmProxy = {
  roots: ['@modelcontextprotocol/sdk'],
  packages: 98,
  tarballs: 95,
  tarballBytes: 3_400_000,
  fromCache: 95,
  npm: '11.0.0',
  rounds: 1,
  installs: [install],
  wallSeconds: 40,
};
const play: LatencySample = {
  wallMs: 20_000,
  cpuMs: 7000,
  requests: { planner: 9, executor: 20 },
  promptTokens: 95_000,
  cachedTokens: 85_000,
  billed: { 'gpt-4.1': 31_000 },
  peakExecutorInFlight: 1,
  ranTogether: [[1], [2], [3], [4], [5]],
  modelWaitMs: 14_500,
  apiCalls: 18,
  pacingFloorMs: 2000,
};
const run = {
  samples: [play],
  wallMs: 20_000,
  cpuMs: 7000,
  modelWaitMs: 14_500,
  peakExecutorInFlight: 1,
  repeatable: true,
};
const latency: LatencyFigures = {
  delayMs: 500,
  rounds: 1,
  steps: 5,
  sequential: run,
  parallel: run,
  roundRatios: [1],
  wallRatio: 1,
  billedRatios: { 'gpt-4.1': 1 },
  requestRatio: 1,
  wallSeconds: 60,
};
const targets = evaluateTargets({ recovery: [recovery], brokenStart, npmProxy, latency, ...committed });

describe('counted and timed benchmark targets', () => {
  it('sorts every target of a full run, and finds every counted one', () => {
    expect(targets.length).toBeGreaterThan(10);
    expect(targets.filter((t) => targetKind(t) === 'unsorted').map((t) => t.target)).toEqual([]);
    expect(unmatchedCounted(targets)).toEqual([]);
  });

  it('counts calls, tokens and cache hits, and times the rest', () => {
    const kind = (prefix: string) => targetKind(targets.find((t) => t.target.startsWith(prefix)) ?? { target: '' });
    expect(kind('/approve with 3 cycles')).toBe('counted');
    expect(kind('Cache-hit ratio')).toBe('counted');
    expect(kind('Prompt tokens grow')).toBe('counted');
    expect(kind('`list_files`')).toBe('timed');
    expect(kind('Peak RSS')).toBe('timed');
    expect(kind('A broken runner environment')).toBe('timed');
    expect(kind('`npm ci` through the egress proxy')).toBe('timed');
    // The latency scenario waits on a slow model, so only the full run plays it, tokens and all.
    expect(kind('Latency scenario: independent steps at once')).toBe('timed');
    expect(kind('Latency scenario: billed-equivalent prompt tokens')).toBe('timed');
    expect(targetKind({ target: 'Billed tokens per cycle flat' })).toBe('unsorted');
  });
});
