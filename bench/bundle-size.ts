import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * What the bundled action weighs, and what of it an ignored event loads. dist/ is split into chunks
 * (scripts/bundle.mjs): index.js imports a small shared chunk statically and main.ts's chunk only
 * through `import()`, once it knows the event is not ignored. So the cold start pays for the entry
 * and its static imports, not for the whole folder; both are reported.
 */
export interface BundleFigures {
  /** The entry action.yml runs, alone. */
  entryBytes: number;
  /** The entry plus every chunk it imports statically, transitively: what an ignored event loads. */
  ignoredPathBytes: number;
  /** Those files, relative to dist/, the entry first. */
  ignoredPathFiles: string[];
  /** Every file in dist/. */
  totalBytes: number;
  fileCount: number;
}

/**
 * Relative modules a bundled file imports statically: `import ... from "./x.js"`, `export ... from`
 * and bare `import "./x.js"`. A dynamic `import("./x.js")` is left out on purpose: it loads later,
 * if at all. esbuild writes these at the top of the file, one per statement.
 */
export function staticImports(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(
    /(?:^|[\n;])\s*(?:import|export)\s*(?:[\w*${}\s,]+?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/g,
  )) {
    if (match[1]) found.add(match[1]);
  }
  return [...found];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** Measures dist/ (the folder holding `entry`). */
export function measureBundle(entry: string): BundleFigures {
  const dist = path.dirname(entry);
  const seen: string[] = [];
  const visit = (file: string): void => {
    if (seen.includes(file)) return;
    seen.push(file);
    for (const specifier of staticImports(readFileSync(file, 'utf8')))
      visit(path.resolve(path.dirname(file), specifier));
  };
  visit(path.resolve(entry));
  const size = (file: string) => statSync(file).size;
  const all = filesUnder(dist);
  return {
    entryBytes: size(entry),
    ignoredPathBytes: seen.reduce((sum, file) => sum + size(file), 0),
    ignoredPathFiles: seen.map((file) => path.relative(dist, file)),
    totalBytes: all.reduce((sum, file) => sum + size(file), 0),
    fileCount: all.length,
  };
}
