// Runs demo/run.ts: bundled on the fly with esbuild (dependencies stay external), then imported.
import { bundleForNode } from './bundle-for-node.mjs';
import { mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const outfile = 'node_modules/.cache/plangate/demo.mjs';
mkdirSync('node_modules/.cache/plangate', { recursive: true });
await bundleForNode('demo/run.ts', outfile);
await import(pathToFileURL(outfile).href);
