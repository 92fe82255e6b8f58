// Runs demo/run.ts: bundled on the fly with esbuild (dependencies stay external), then imported.
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const outfile = 'node_modules/.cache/plangate/demo.mjs';
mkdirSync('node_modules/.cache/plangate', { recursive: true });
await build({
  entryPoints: ['demo/run.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
});
await import(pathToFileURL(outfile).href);
