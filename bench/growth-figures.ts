import type { ScenarioFigures } from './aggregate.js';
import type { ScaleFigures } from './repo-scale.js';
import { growth, type Growth } from './stats.js';

/**
 * The growth series the issue asks about, each with its verdict: model tokens and /approve wall
 * time against cycles (1, 3, 6), tool latency and /plan wall time against repository size.
 */

/** Token counts are exact, so only a small allowance; timings get room for a noisy machine. */
const TOKEN_TOLERANCE = 0.1;
const TIME_TOLERANCE = 0.25;

export interface GrowthSeries extends Growth {
  label: string;
  unit: string;
  x: 'cycles' | 'files';
  /** For the size series: the tool call it times, and whether it is the raw command's series. */
  tool?: string;
  raw?: boolean;
  /** Why the verdict does not apply, for a series whose work does not depend on x. */
  notJudged?: string;
}

export interface GrowthFigures {
  cycles: GrowthSeries[];
  size: GrowthSeries[];
}

const CYCLE_SCENARIOS: Array<[number, string]> = [
  [1, 'plan + 1 cycle'],
  [3, 'plan + 3 cycles'],
  [6, 'plan + 6 cycles'],
];

export function growthFigures(scenarios: readonly ScenarioFigures[], scale: readonly ScaleFigures[]): GrowthFigures {
  const byCycles = CYCLE_SCENARIOS.map(([cycles, name]) => {
    const scenario = scenarios.find((s) => s.name === name);
    if (!scenario) throw new Error(`no scenario ${name}`);
    return { cycles, scenario };
  });
  const series = (label: string, unit: string, tolerance: number, y: (s: ScenarioFigures) => number): GrowthSeries => ({
    label,
    unit,
    x: 'cycles',
    ...growth(
      byCycles.map(({ cycles, scenario }) => ({ x: cycles, y: y(scenario) })),
      tolerance,
    ),
  });
  const approveOf = (s: ScenarioFigures) => s.commands.find((c) => c.command === '/approve');
  const cycles = [
    series('prompt tokens (whole scenario)', 'tokens', TOKEN_TOLERANCE, (s) => s.model.total.promptTokens),
    series(
      'uncached prompt tokens (prompt − cached)',
      'tokens',
      TOKEN_TOLERANCE,
      (s) => s.model.total.promptTokens - s.model.total.cachedTokens,
    ),
    series('largest single prompt', 'tokens', TOKEN_TOLERANCE, (s) => s.model.largestPromptTokens),
    series('/approve wall time', 'ms', TIME_TOLERANCE, (s) => approveOf(s)?.wallMs ?? Number.NaN),
    series('/approve CPU time', 'ms', TIME_TOLERANCE, (s) => approveOf(s)?.cpuMs ?? Number.NaN),
  ];

  const toolNames = scale[0]?.tools.map((t) => t.name) ?? [];
  const sizeSeries = (label: string, y: (s: ScaleFigures) => number): GrowthSeries => ({
    label,
    unit: 'ms',
    x: 'files',
    ...growth(
      scale.map((s) => ({ x: s.files, y: y(s) })),
      TIME_TOLERANCE,
    ),
  });
  const size = toolNames.flatMap((name): GrowthSeries[] => {
    const of = (s: ScaleFigures) => s.tools.find((t) => t.name === name);
    // read_file reads the same file at every size: nothing in its work grows with the repository.
    const notJudged = name.startsWith('read_file') ? 'the same 5 MB file at every size' : undefined;
    return [
      {
        ...sizeSeries(`${name} tool call`, (s) => of(s)?.toolMs ?? Number.NaN),
        tool: name,
        ...(notJudged ? { notJudged } : {}),
      },
      {
        ...sizeSeries(`${name}: raw command`, (s) => of(s)?.rawMs ?? Number.NaN),
        tool: name,
        raw: true,
        ...(notJudged ? { notJudged } : {}),
      },
    ];
  });
  // bench/quick.ts measures no repository sizes, so it has no size series at all.
  if (scale.length > 0)
    size.push({ ...sizeSeries('/plan wall time with these calls', (s) => s.plan.wallMs), tool: '/plan' });
  return { cycles, size };
}
