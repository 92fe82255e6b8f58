// The benchmark's source hash: a hash of the files that decide bench/results.json's figures, which
// `npm run bench` records there (and in bench/RESULTS.md) when it starts, so results can be told
// apart from an older tree's. The files are those the two programs it measures are built from,
// found by esbuild as it would bundle them (so a new import is covered without a list to keep):
// bench/run.ts with what it imports (bench/, the emulators in test/fakes/, the e2e harness, the
// tools in src/ it times in process) and src/entry/index.ts with what the action imports (all of
// src/ the action runs). Dependencies are covered by package-lock.json; the rest of the list is
// what decides figures without being imported: the action's inputs and defaults (action.yml), how
// both are built (tsconfig, the bundle and bench scripts) and the probe preloaded into every timed
// process. Docs, other tests and CI scripts change no figure and are left out, so editing them does
// not make the results stale.
//
//   node scripts/bench-source.mjs           prints {"hash", "files"} for the tree as it is
//   node scripts/bench-source.mjs --check   fails unless bench/results.json and bench/RESULTS.md
//                                           were produced from sources with that hash
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const entries = ['bench/run.ts', 'src/entry/index.ts'];
const notImported = [
  'package-lock.json',
  'action.yml',
  'tsconfig.json',
  'bench/tsconfig.json',
  'bench/probe.cjs',
  'scripts/bundle.mjs',
  'scripts/run-bench.mjs',
  'scripts/bench-source.mjs',
];

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** The hash of the benchmark's sources under `root`, and how many files it covers. */
export async function benchSource(root) {
  const files = new Set(notImported);
  for (const entry of entries) {
    const { metafile } = await build({
      absWorkingDir: root,
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    for (const input of Object.keys(metafile.inputs)) if (!input.split('/').includes('node_modules')) files.add(input);
  }
  const lines = [...files]
    .sort()
    .map((file) => `${sha256(readFileSync(path.join(root, file)))}  ${file}\n`)
    .join('');
  return { hash: sha256(lines), files: files.size };
}

/** Why the committed results are not from `source`, or undefined when they are. */
function staleness(root, source) {
  const regenerate =
    'Regenerate them with `npm run bench` (it writes bench/results.json and bench/RESULTS.md) and commit both.';
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(path.join(root, 'bench/results.json'), 'utf8')).source?.hash;
  } catch (error) {
    return `bench/results.json cannot be read (${error.message}). ${regenerate}`;
  }
  if (typeof recorded !== 'string') return `bench/results.json records no source hash. ${regenerate}`;
  if (recorded !== source.hash) {
    return `bench/results.json was measured from sources with hash ${recorded}; the sources now hash to ${source.hash}. ${regenerate}`;
  }
  const report = readFileSync(path.join(root, 'bench/RESULTS.md'), 'utf8');
  if (!report.includes(`Source hash: \`${source.hash}\``)) {
    return `bench/RESULTS.md does not name the source hash ${source.hash} that bench/results.json records: it was not rendered from it. ${regenerate}`;
  }
  return undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.cwd();
  const source = await benchSource(root);
  if (!process.argv.includes('--check')) {
    process.stdout.write(`${JSON.stringify(source)}\n`);
  } else {
    const problem = staleness(root, source);
    if (problem !== undefined) {
      process.stderr.write(`${problem}\n`);
      process.exit(1);
    }
    process.stdout.write(
      `bench/results.json and bench/RESULTS.md are from these sources (hash ${source.hash}, ${source.files} files)\n`,
    );
  }
}
