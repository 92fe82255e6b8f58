// Bundles one TypeScript entry (the demo, the benchmark, the capture of the demo's posts) into one ES
// module for Node 24 with esbuild. Packages stay imports, so the file must sit inside the project,
// where node_modules/ resolves them.
import { build } from 'esbuild';

/** Writes the bundle of `entry` to `outfile`. */
export function bundleForNode(entry, outfile) {
  return build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
}
