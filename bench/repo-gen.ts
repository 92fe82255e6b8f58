/**
 * A repository of any size, generated the same way every time: source-like files spread over
 * packages and modules, a known share of them holding a TODO marker (a search with thousands of
 * matches), a handful holding a rare word (a search with a few), and one 5 MB log file to read.
 * Nothing is downloaded and nothing random: file i's content is a function of i alone.
 */

/** Matches in about one file in eight: a search whose output must be capped. */
export const COMMON_PATTERN = 'TODO\\(';
/** Matches in one file in 9,973: a search that finds a few needles. */
export const RARE_PATTERN = 'frobnicate';
export const RARE_EVERY = 9_973;
/** The large file read_file is timed on. */
export const BIG_FILE = 'data/requests.log';
const BIG_FILE_BYTES = 5 * 1024 * 1024;

/** A small deterministic PRNG (mulberry32): the same seed always gives the same sequence. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function generatedPath(i: number): string {
  return `src/pkg-${String(i % 50).padStart(2, '0')}/mod-${String(Math.floor(i / 50) % 40).padStart(2, '0')}/unit-${i}.ts`;
}

function sourceFile(i: number): string {
  const random = prng(i + 1);
  const lines = [`// Unit ${i}: generated for the plangate benchmark.`, `import { clamp } from '../../util.js';`, ''];
  const functions = 3 + Math.floor(random() * 5);
  for (let f = 0; f < functions; f++) {
    const k = Math.floor(random() * 1000);
    lines.push(`/** Scales input ${f} of unit ${i}. */`, `export function unit${i}Step${f}(input: number): number {`);
    if (f === 0 && i % 8 === 0) lines.push(`  // TODO(${i}): decide the upper bound for unit ${i}`);
    if (f === 0 && i % RARE_EVERY === 0) lines.push(`  // frobnicate the input before scaling (unit ${i})`);
    lines.push(`  return clamp(input * ${k} + ${f}, 0, ${k * 10 + i});`, '}', '');
  }
  return lines.join('\n');
}

function bigLog(): string {
  const random = prng(424_242);
  const lines: string[] = [];
  let bytes = 0;
  for (let n = 0; bytes < BIG_FILE_BYTES; n++) {
    const line = `2024-05-01T12:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}Z request=${n} path=/api/items/${Math.floor(random() * 10_000)} status=200 ms=${Math.floor(random() * 900)}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** `count` tracked files in all: a few project files, the 5 MB log and generated sources. */
export function generateRepo(count: number): Record<string, string> {
  const files: Record<string, string> = {
    'README.md': '# sample\n\nA generated repository for the plangate benchmark.\n',
    'package.json': '{\n  "name": "sample",\n  "version": "1.0.0",\n  "type": "module"\n}\n',
    'src/util.ts': 'export const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));\n',
    [BIG_FILE]: bigLog(),
  };
  const fixed = Object.keys(files).length;
  for (let i = 0; i < count - fixed; i++) files[generatedPath(i)] = sourceFile(i);
  return files;
}
