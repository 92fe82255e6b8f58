import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { measureBundle, staticImports } from '../../bench/bundle-size.js';

/** How the benchmark weighs a split dist/: what an ignored event loads versus everything. */

const banner =
  "import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);\n";

describe('staticImports', () => {
  it('finds esbuild’s static imports and re-exports, and leaves dynamic imports and packages out', () => {
    const source =
      banner +
      'import {\n  triageEvent\n} from "./chunks/chunk-AAAA.js";\n' +
      'import "./chunks/side-BBBB.js";\n' +
      'export { x } from "../up-CCCC.js";\n' +
      'import { readFileSync } from "node:fs";\n' +
      'const { run } = await import("./chunks/main-DDDD.js");\n' +
      'const text = "import x from \\"./not-a-statement.js\\"";\n';
    expect(staticImports(source)).toEqual(['./chunks/chunk-AAAA.js', './chunks/side-BBBB.js', '../up-CCCC.js']);
  });
});

describe('measureBundle', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('counts the entry and its static imports, transitively and once, apart from the whole folder', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'plangate-bundle-'));
    mkdirSync(path.join(dir, 'chunks'));
    const files: Record<string, string> = {
      'index.js': `${banner}import { a } from "./chunks/chunk-A.js";\nif (a) await import("./chunks/main-M.js");\n`,
      'chunks/chunk-A.js': `${banner}import { b } from "./chunk-B.js";\nexport const a = b;\n`,
      'chunks/chunk-B.js': `${banner}import { a } from "./chunk-A.js";\nexport const b = 1;\n`,
      'chunks/main-M.js': `${banner}import { b } from "./chunk-B.js";\n${'x'.repeat(5000)}\n`,
      'cli.js': `#!/usr/bin/env node\n${banner}import "./chunks/main-M.js";\n`,
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    const bytes = (name: string) => Buffer.byteLength(files[name] ?? '');

    const figures = measureBundle(path.join(dir, 'index.js'));
    expect(figures.ignoredPathFiles).toEqual(['index.js', 'chunks/chunk-A.js', 'chunks/chunk-B.js']);
    expect(figures.entryBytes).toBe(bytes('index.js'));
    expect(figures.ignoredPathBytes).toBe(bytes('index.js') + bytes('chunks/chunk-A.js') + bytes('chunks/chunk-B.js'));
    expect(figures.totalBytes).toBe(Object.keys(files).reduce((sum, name) => sum + bytes(name), 0));
    expect(figures.fileCount).toBe(5);
  });
});
