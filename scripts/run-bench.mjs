// Runs bench/run.ts (`npm run bench`, after `npm run bundle`): bundled with esbuild (dependencies
// stay external) into a folder that also holds a frozen copy of dist/ and action.yml. The
// e2e harness runs the dist/ it finds beside action.yml above it, so the whole run measures the one
// build it started with, even if someone rebuilds dist/ in the meantime. The sources' hash is taken
// first (scripts/bench-source.mjs) and recorded with the results.
// With --quick, runs bench/quick.ts instead: the deterministic figures only, judged, nothing written.
import { copyFileSync, cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchSource } from './bench-source.mjs';
import { bundleForNode } from './bundle-for-node.mjs';

const root = process.cwd();
const quick = process.argv.includes('--quick');
if (!quick) process.env.PLANGATE_BENCH_SOURCE = JSON.stringify(await benchSource(root));
const frozen = path.join(root, `node_modules/.cache/plangate/${quick ? 'bench-quick-root' : 'bench-root'}`);
rmSync(frozen, { recursive: true, force: true });
mkdirSync(frozen, { recursive: true });
// All of dist/: index.js loads its chunks (dist/chunks/) by relative path.
cpSync(path.join(root, 'dist'), path.join(frozen, 'dist'), { recursive: true });
copyFileSync(path.join(root, 'action.yml'), path.join(frozen, 'action.yml'));
const outfile = path.join(frozen, 'bench.mjs');
await bundleForNode(quick ? 'bench/quick.ts' : 'bench/run.ts', outfile);
process.env.PLANGATE_BENCH_ROOT = root;
await import(pathToFileURL(outfile).href);
