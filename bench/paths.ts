import path from 'node:path';
import { bundledAction } from '../test/e2e/harness.js';

/**
 * Where the benchmark reads and writes. scripts/run-bench.mjs runs it from a frozen copy of
 * dist/ and action.yml (the harness spawns whatever dist/ sits beside action.yml above it),
 * because others may rebuild dist/ in a shared checkout during a five-minute run; this names the
 * real project, where the probe lives and the results go.
 */
export const projectRoot = process.env.PLANGATE_BENCH_ROOT ?? path.dirname(path.dirname(bundledAction));

/** The action the benchmark runs: the frozen copy when run through scripts/run-bench.mjs. */
export const actionFile = bundledAction;
