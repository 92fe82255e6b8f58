// Builds dist/index.js, the file action.yml runs. Deterministic: same sources, same bytes.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.js',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  // Bundled CommonJS dependencies call require(); ESM output has none unless we make one.
  banner: {
    js: "import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
