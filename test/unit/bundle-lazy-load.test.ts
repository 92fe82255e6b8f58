import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a /plan run loads before its first line is the files index.js imports, and what main.ts's
// chunk imports in turn. A module left out of that set costs the run nothing until it is needed:
// undici and its HTTP client only behind a proxy. scripts/bundle.mjs runs here as `npm run bundle`
// runs it, into a folder of its own (twice, to check it gives the same bytes).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];

/** Runs scripts/bundle.mjs with a fresh folder as its working directory; returns that dist/. */
function bundle(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'plangate-bundle-')));
  dirs.push(dir);
  // The script builds src/ into ./dist; the links give it the project's sources and packages.
  fs.symlinkSync(path.join(root, 'src'), path.join(dir, 'src'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  execFileSync(process.execPath, [path.join(root, 'scripts/bundle.mjs')], { cwd: dir, stdio: 'pipe' });
  return path.join(dir, 'dist');
}

/** Relative imports of an ES module file: static ones and `import()` ones apart. */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const text = fs.readFileSync(file, 'utf8');
  const resolve = (spec: string) => path.resolve(path.dirname(file), spec);
  return {
    static: [...text.matchAll(/^(?:import|} from|export \* from) "(\.{1,2}\/[^"]+)"/gm)].map((m) =>
      resolve(m[1] ?? ''),
    ),
    dynamic: [...text.matchAll(/\bimport\("(\.{1,2}\/[^"]+)"\)/g)].map((m) => resolve(m[1] ?? '')),
  };
}

/** Every file loading `entry` loads: it and its static imports, transitively. */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of importsOf(file).static) visit(next);
  };
  visit(entry);
  return seen;
}

/**
 * The packages whose code sits in these files, by esbuild's `// <path>/node_modules/<pkg>/...`
 * markers (the innermost node_modules: a package's own copy of another counts as that other).
 */
function packagesIn(files: Iterable<string>): Set<string> {
  const packages = new Set<string>();
  for (const file of files) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/^\/\/ (?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//gm))
      packages.add(m[1] ?? '');
  }
  return packages;
}

let dist: string;
beforeAll(() => {
  dist = bundle();
}, 60_000);
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the bundle a /plan run loads', () => {
  it('holds no undici, proxy tunnel or HTTP client; those load only for a proxy', () => {
    const index = path.join(dist, 'index.js');
    const [main] = importsOf(index).dynamic;
    if (main === undefined) throw new Error('index.js imports no main chunk');
    const loaded = new Set([...staticClosure(index), ...staticClosure(main)]);
    const packages = packagesIn(loaded);
    // The run's own dependencies are there, so the markers are read right.
    expect(packages).toContain('zod');
    expect(packages).toContain('@octokit/plugin-throttling');
    for (const lazy of ['undici', 'tunnel', '@actions/http-client', '@actions/github'])
      expect(packages).not.toContain(lazy);

    // They are still in the bundle, behind an import() that only a configured proxy reaches.
    const later = [...loaded].flatMap((file) => importsOf(file).dynamic).flatMap((chunk) => [...staticClosure(chunk)]);
    expect(packagesIn(later)).toContain('undici');
    expect(packagesIn(later)).toContain('@actions/github');
  });

  it('comes out the same, byte for byte, when built again', () => {
    const again = bundle();
    const listing = (dir: string) => fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
    expect(listing(again)).toEqual(listing(dist));
    for (const file of listing(dist)) {
      const a = path.join(dist, file);
      if (fs.statSync(a).isFile())
        expect(fs.readFileSync(path.join(again, file)).equals(fs.readFileSync(a)), file).toBe(true);
    }
  }, 60_000);
});
