// Builds dist/: index.js, the file action.yml runs, and cli.js, the `plangate` command, with the code
// they share in dist/chunks/. Split into chunks so that index.js can decide an event is ignored and
// exit before main.ts and its dependencies load (a dynamic import becomes a chunk of its own).
// Deterministic: same sources, same bytes. Chunk names carry a hash of their content, so a change
// renames the chunk and dist/ never holds a stale one: the folder is emptied before writing.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const outdir = path.resolve('dist');
const shebang = '#!/usr/bin/env node\n';

/**
 * @actions/core imports @actions/http-client for one thing plangate never calls (getIDToken, OIDC),
 * and http-client imports undici and tunnel at its top, so every run compiled and evaluated a
 * bundled undici (the largest module of all) before its first line. Importing it has one effect:
 * undici makes itself the process's fetch dispatcher, which plangate does not need (Node's fetch
 * has its own undici). The package does not say it is free of effects (no `sideEffects` in its
 * package.json), so esbuild keeps it; saying so here lets esbuild leave it out while nothing uses
 * it, and keep it, evaluated as before, the day something does. Only imports from @actions/core are
 * marked: @actions/github's own copy comes, with undici, only when a proxy is configured
 * (src/github/client.ts).
 */
const httpClientWithoutSideEffects = {
  name: 'http-client-without-side-effects',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@actions\/http-client(\/|$)/ }, async (args) => {
      if (args.pluginData?.resolving || !/[\\/]node_modules[\\/]@actions[\\/]core[\\/]/.test(args.importer))
        return undefined;
      const resolved = await pluginBuild.resolve(args.path, {
        importer: args.importer,
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      return resolved.errors.length > 0 ? resolved : { ...resolved, sideEffects: false };
    });
  },
};

const result = await build({
  entryPoints: { index: 'src/entry/index.ts', cli: 'src/cli/bin.ts' },
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  target: 'node24',
  format: 'esm',
  // Bundled CommonJS dependencies call require(); ESM output has none unless we make one. esbuild
  // puts the banner at the top of every output file, chunks included, so each chunk has its own.
  banner: {
    js: "import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [httpClientWithoutSideEffects],
  // Written below, after dist/ is emptied: the folder is gone only for the moment of the write.
  write: false,
});

rmSync(outdir, { recursive: true, force: true });
for (const file of result.outputFiles) {
  const relative = path.relative(outdir, file.path);
  // The bin entry runs as a program; esbuild keeps a source's own #! line, so add one only if missing.
  const isCli = relative === 'cli.js';
  const text = isCli && !file.text.startsWith('#!') ? shebang + file.text : file.text;
  mkdirSync(path.dirname(file.path), { recursive: true });
  writeFileSync(file.path, text, isCli ? { mode: 0o755 } : {});
}
