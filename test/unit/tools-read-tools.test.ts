import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReadTools } from '../../src/tools/read-tools.js';
import type { Tool } from '../../src/tools/tool.js';
import { DEFAULT_OUTPUT_LIMIT } from '../../src/tools/truncate.js';
import { makeRepo, makeTempDir, removeDir, writeFiles } from './tools-git-fixture.js';
import { refusal as refusalOf } from './tool-refusal.js';

let repo: string;
let outside: string;

beforeEach(() => {
  repo = makeRepo({
    '.gitignore': 'node_modules/\n*.log\n',
    'README.md': '# demo\nHello world\n',
    'src/index.ts':
      "export const greeting = 'hello';\nexport function add(a: number, b: number) {\n  return a + b;\n}\n",
    'src/util/strings.ts': "export const shout = (s: string) => s.toUpperCase() + '!';\n",
    'src/util/numbers.js': 'module.exports = { two: 2 };\n',
    'docs/guide.md': 'Use add(1, 2) to add.\n',
    'data/blob.bin': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x03]),
  });
  writeFiles(repo, { 'node_modules/dep/index.js': 'export const hello = 1;\n', 'debug.log': 'hello log\n' });
  outside = makeTempDir('plangate-outside-');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'hello secret\n');
});

afterEach(() => {
  removeDir(repo);
  removeDir(outside);
});

function tools(): Record<string, Tool<Record<string, unknown>>> {
  return Object.fromEntries(createReadTools(repo).map((t) => [t.name, t as Tool<Record<string, unknown>>]));
}

async function run(name: string, args: Record<string, unknown>): Promise<string> {
  const tool = tools()[name];
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.run(tool.schema.parse(args));
}

/** The message tool `name` refuses these arguments with. */
const refusal = (name: string, args: Record<string, unknown>) => refusalOf(run(name, args));

describe('list_files', () => {
  it('lists tracked and new unignored files, sorted, without ignored ones', async () => {
    writeFiles(repo, { 'src/new-file.ts': 'export {};\n' });
    const out = (await run('list_files', {})).split('\n');
    expect(out).toEqual([
      '.gitignore',
      'README.md',
      'data/blob.bin',
      'docs/guide.md',
      'src/index.ts',
      'src/new-file.ts',
      'src/util/numbers.js',
      'src/util/strings.ts',
    ]);
  });

  it('leaves out tracked files deleted from the working tree', async () => {
    fs.rmSync(path.join(repo, 'docs/guide.md'));
    expect(await run('list_files', {})).not.toContain('docs/guide.md');
  });

  it('narrows to a directory and filters by glob', async () => {
    expect(await run('list_files', { path: 'src/util' })).toBe('src/util/numbers.js\nsrc/util/strings.ts');
    expect(await run('list_files', { glob: '*.ts' })).toBe('src/index.ts\nsrc/util/strings.ts');
    expect(await run('list_files', { glob: 'src/**/*.js' })).toBe('src/util/numbers.js');
    expect(await run('list_files', { path: 'src', glob: 'util/*.ts' })).toBe('src/util/strings.ts');
    expect(await run('list_files', { glob: '*.py' })).toBe('No files found matching "*.py".');
  });

  it('caps long listings and says how many were left out', async () => {
    // Short names: the count cap, not the size budget, is what stops this listing.
    const many: Record<string, string> = {};
    for (let i = 0; i < 2100; i += 1) many[`f${String(i).padStart(4, '0')}`] = '';
    writeFiles(repo, many);
    const out = (await run('list_files', { glob: 'f[0-9][0-9][0-9][0-9]' })).split('\n');
    expect(out).toHaveLength(2001);
    expect(out[1999]).toBe('f1999');
    expect(out[2000]).toBe('[100 more paths not shown; narrow the listing with path or glob]');
  });

  it('keeps a listing of long paths within its size budget, so the notice is never cut off', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 2100; i += 1) many[`gen/f${String(i).padStart(4, '0')}.txt`] = '';
    writeFiles(repo, many);
    const text = await run('list_files', { path: 'gen' });
    expect(text.length).toBeLessThan(DEFAULT_OUTPUT_LIMIT);
    const lines = text.split('\n');
    const notice = /^\[(\d+) more paths not shown; narrow the listing with path or glob\]$/.exec(lines.at(-1) ?? '');
    expect(notice).not.toBeNull();
    const shown = lines.slice(0, -1);
    expect(shown.length).toBeLessThan(2000);
    expect(shown).toEqual(Object.keys(many).slice(0, shown.length));
    expect(shown.length + Number(notice?.[1])).toBe(2100);
  });

  it('fills a capped listing with files that exist when tracked ones were deleted', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 2100; i += 1) many[`f${String(i).padStart(4, '0')}`] = '';
    const big = makeRepo(many);
    try {
      for (let i = 0; i < 5; i += 1) fs.rmSync(path.join(big, `f000${i}`));
      const out = (await createReadTools(big)[0]?.run({}))?.split('\n') ?? [];
      expect(out[0]).toBe('f0005');
      expect(out).toHaveLength(2001);
      expect(out[1999]).toBe('f2004');
      expect(out[2000]).toBe('[95 more paths not shown; narrow the listing with path or glob]');
    } finally {
      removeDir(big);
    }
  });

  it('refuses paths outside the workspace, into .git, or missing', async () => {
    expect(await refusal('list_files', { path: '..' })).toMatch(/outside the workspace/);
    expect(await refusal('list_files', { path: '.git' })).toMatch(/inside \.git/);
    expect(await refusal('list_files', { path: 'nope' })).toMatch(/No such file or directory: nope/);
  });
});

describe('read_file', () => {
  it('shows numbered lines and the total', async () => {
    expect(await run('read_file', { path: 'src/index.ts' })).toBe(
      [
        'src/index.ts: lines 1-4 of 4',
        "1: export const greeting = 'hello';",
        '2: export function add(a: number, b: number) {',
        '3:   return a + b;',
        '4: }',
      ].join('\n'),
    );
  });

  it('reads an inclusive 1-based range', async () => {
    expect(await run('read_file', { path: 'src/index.ts', start_line: 2, end_line: 3 })).toBe(
      'src/index.ts: lines 2-3 of 4\n2: export function add(a: number, b: number) {\n3:   return a + b;',
    );
    expect(await run('read_file', { path: 'src/index.ts', start_line: 4, end_line: 99 })).toBe(
      'src/index.ts: lines 4-4 of 4\n4: }',
    );
  });

  it('counts a last line without a newline and strips CR of CRLF files', async () => {
    writeFiles(repo, { 'crlf.txt': 'one\r\ntwo\r\nthree' });
    expect(await run('read_file', { path: 'crlf.txt' })).toBe('crlf.txt: lines 1-3 of 3\n1: one\n2: two\n3: three');
  });

  it('pages a large file instead of dumping it, and says where to continue', async () => {
    const body = Array.from({ length: 5000 }, (_, i) => `row ${i + 1}`).join('\n');
    writeFiles(repo, { 'big.txt': `${body}\n` });
    const out = await run('read_file', { path: 'big.txt' });
    const header = out.split('\n')[0] ?? '';
    const match = /^big\.txt: lines 1-(\d+) of 5000 \(output limit reached; continue with start_line=(\d+)\)$/.exec(
      header,
    );
    expect(match).not.toBeNull();
    expect(Number(match?.[2])).toBe(Number(match?.[1]) + 1);
    expect(out.length).toBeLessThan(16_000);
    const tail = await run('read_file', { path: 'big.txt', start_line: 4999, end_line: 5000 });
    expect(tail).toBe('big.txt: lines 4999-5000 of 5000\n4999: row 4999\n5000: row 5000');
  });

  it('refuses directories, binary files, missing files and bad ranges with guidance', async () => {
    expect(await refusal('read_file', { path: 'src' })).toMatch(/src is a directory; use list_files/);
    expect(await refusal('read_file', { path: 'data/blob.bin' })).toMatch(/binary file/);
    expect(await refusal('read_file', { path: 'src/missing.ts' })).toMatch(/File not found: src\/missing\.ts/);
    expect(await refusal('read_file', { path: 'src/index.ts', start_line: 10 })).toMatch(/past the end .* 4 lines/);
    expect(tools().read_file?.schema.safeParse({ path: 'a', start_line: 5, end_line: 2 }).success).toBe(false);
    expect(tools().read_file?.schema.safeParse({ path: 'a', start_line: 0 }).success).toBe(false);
  });

  it('reports an empty file', async () => {
    writeFiles(repo, { 'empty.txt': '' });
    expect(await run('read_file', { path: 'empty.txt' })).toBe('empty.txt is empty (0 lines).');
  });

  it('refuses traversal, .git and symlinks out of the workspace', async () => {
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(repo, 'leak.txt'));
    expect(await refusal('read_file', { path: '../etc/passwd' })).toMatch(/outside the workspace/);
    expect(await refusal('read_file', { path: '.git/config' })).toMatch(/inside \.git/);
    expect(await refusal('read_file', { path: 'leak.txt' })).toMatch(/symbolic link/);
  });
});

describe('search', () => {
  it('finds matches in repository files with path and line, skipping ignored and binary files', async () => {
    const out = await run('search', { pattern: 'hello' });
    expect(out).toBe("src/index.ts:1: export const greeting = 'hello';");
  });

  it('uses regular expressions (Perl-compatible where git has them)', async () => {
    expect(await run('search', { pattern: 'add\\(\\d, \\d\\)' })).toBe('docs/guide.md:1: Use add(1, 2) to add.');
    expect(await run('search', { pattern: 'export (const|function) \\w+' })).toContain('src/index.ts:2:');
  });

  it('includes new files the executor created', async () => {
    writeFiles(repo, { 'src/created.ts': 'const fresh = 1;\n' });
    expect(await run('search', { pattern: 'fresh' })).toBe('src/created.ts:1: const fresh = 1;');
  });

  it('narrows by path and glob', async () => {
    expect(await run('search', { pattern: 'export const', path: 'src/util' })).toBe(
      "src/util/strings.ts:1: export const shout = (s: string) => s.toUpperCase() + '!';",
    );
    expect(await run('search', { pattern: 'two|add', glob: '*.js' })).toBe(
      'src/util/numbers.js:1: module.exports = { two: 2 };',
    );
    expect(await run('search', { pattern: 'add', glob: 'docs/**' })).toBe('docs/guide.md:1: Use add(1, 2) to add.');
  });

  it('says "No matches." when nothing matches', async () => {
    expect(await run('search', { pattern: 'zebra-unicorn' })).toBe('No matches.');
  });

  it('reports a bad regular expression clearly', async () => {
    expect(await refusal('search', { pattern: '(unclosed' })).toMatch(
      /^Invalid search pattern "\(unclosed": .*escape literal/,
    );
  });

  it('treats a pattern starting with a dash as a pattern, not an option', async () => {
    writeFiles(repo, { 'flags.txt': 'use --force carefully\n' });
    expect(await run('search', { pattern: '--force' })).toBe('flags.txt:1: use --force carefully');
  });

  it('caps matches and says how many were cut', async () => {
    writeFiles(repo, { 'many.txt': Array.from({ length: 250 }, (_, i) => `needle ${i}`).join('\n') });
    const out = (await run('search', { pattern: 'needle' })).split('\n');
    expect(out).toHaveLength(201);
    expect(out[200]).toBe('[50 more matches not shown; narrow the search with path, glob or a more specific pattern]');
  });

  it('keeps long matching lines within its size budget, so the notice is never cut off', async () => {
    writeFiles(repo, {
      'long.txt': Array.from({ length: 100 }, (_, i) => `needle ${i} ${'x'.repeat(300)}`).join('\n'),
    });
    const text = await run('search', { pattern: 'needle' });
    expect(text.length).toBeLessThan(DEFAULT_OUTPUT_LIMIT);
    const lines = text.split('\n');
    const notice =
      /^\[(\d+) more matches not shown; narrow the search with path, glob or a more specific pattern\]$/.exec(
        lines.at(-1) ?? '',
      );
    expect(notice).not.toBeNull();
    const shown = lines.slice(0, -1);
    expect(shown.length).toBeLessThan(100);
    expect(shown.every((line, i) => line.startsWith(`long.txt:${i + 1}: needle ${i} `))).toBe(true);
    expect(shown.length + Number(notice?.[1])).toBe(100);
  });

  it('refuses search paths outside the workspace', async () => {
    expect(await refusal('search', { pattern: 'x', path: '../' })).toMatch(/outside the workspace/);
  });
});
