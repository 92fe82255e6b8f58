import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Tool } from '../../src/tools/tool.js';
import { createWriteTools, DEFAULT_MAX_WRITE_BYTES } from '../../src/tools/write-tools.js';
import { makeRepo, makeTempDir, removeDir } from './tools-git-fixture.js';
import { refusal } from './tool-refusal.js';

let repo: string;
let outside: string;
const protectedPaths = ['.github/**', '.plangate.yml'];

beforeEach(() => {
  repo = makeRepo({
    'src/app.ts': 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n',
    'src/dup.ts': 'x();\nx();\n',
    '.github/workflows/ci.yml': 'on: push\n',
  });
  outside = makeTempDir('plangate-outside-');
});

afterEach(() => {
  removeDir(repo);
  removeDir(outside);
});

function tool(name: 'write_file' | 'edit_file', maxWriteBytes?: number): Tool<Record<string, string>> {
  const found = createWriteTools(repo, { protectedPaths, maxWriteBytes }).find((t) => t.name === name);
  if (found === undefined) throw new Error(`no ${name}`);
  return found as Tool<Record<string, string>>;
}

const read = (rel: string) => fs.readFileSync(path.join(repo, rel), 'utf8');

describe('write_file', () => {
  it('creates files with their parent directories and overwrites existing ones', async () => {
    expect(await tool('write_file').run({ path: 'lib/deep/new.ts', content: 'one\ntwo\n' })).toBe(
      'Created lib/deep/new.ts (2 lines, 8 bytes).',
    );
    expect(read('lib/deep/new.ts')).toBe('one\ntwo\n');
    expect(await tool('write_file').run({ path: 'src/app.ts', content: 'replaced' })).toMatch(
      /^Overwrote src\/app\.ts/,
    );
    expect(read('src/app.ts')).toBe('replaced');
  });

  it('refuses protected paths, naming the pattern', async () => {
    const message = await refusal(tool('write_file').run({ path: '.github/workflows/ci.yml', content: 'pwned' }));
    expect(message).toMatch(/\.github\/workflows\/ci\.yml is protected by the pattern "\.github\/\*\*"/);
    expect(read('.github/workflows/ci.yml')).toBe('on: push\n');
    expect(await refusal(tool('write_file').run({ path: '.plangate.yml', content: 'x' }))).toContain('".plangate.yml"');
    expect(fs.existsSync(path.join(repo, '.plangate.yml'))).toBe(false);
  });

  it('refuses a protected target reached through a symlink', async () => {
    fs.symlinkSync(path.join(repo, '.github'), path.join(repo, 'gh'));
    expect(await refusal(tool('write_file').run({ path: 'gh/workflows/ci.yml', content: 'pwned' }))).toMatch(
      /protected/,
    );
    expect(read('.github/workflows/ci.yml')).toBe('on: push\n');
  });

  it('refuses traversal, .git and symlinks leaving the workspace', async () => {
    fs.symlinkSync(outside, path.join(repo, 'out'));
    expect(await refusal(tool('write_file').run({ path: '../escape.txt', content: 'x' }))).toMatch(
      /outside the workspace/,
    );
    expect(await refusal(tool('write_file').run({ path: '.git/hooks/pre-commit', content: 'x' }))).toMatch(
      /inside \.git/,
    );
    expect(await refusal(tool('write_file').run({ path: 'out/planted.txt', content: 'x' }))).toMatch(/symbolic link/);
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.existsSync(path.join(repo, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('refuses to replace a directory', async () => {
    expect(await refusal(tool('write_file').run({ path: 'src', content: 'x' }))).toMatch(/not a regular file/);
  });
});

describe('edit_file', () => {
  it('replaces the single occurrence and reports where', async () => {
    const out = await tool('edit_file').run({
      path: 'src/app.ts',
      old: 'const b = 2;',
      new: 'const b = 3;\nconst c = 4;',
    });
    expect(out).toBe('Edited src/app.ts at line 2: replaced 1 line(s) with 2.');
    expect(read('src/app.ts')).toBe('const a = 1;\nconst b = 3;\nconst c = 4;\nconst a2 = 1;\n');
  });

  it('keeps $ sequences in the new text literal', async () => {
    await tool('edit_file').run({ path: 'src/app.ts', old: 'const b = 2;', new: "const b = '$&$1$$';" });
    expect(read('src/app.ts')).toContain("const b = '$&$1$$';");
  });

  it('refuses when the old text is missing', async () => {
    expect(await refusal(tool('edit_file').run({ path: 'src/app.ts', old: 'const z', new: 'y' }))).toMatch(
      /^old text not found in src\/app\.ts/,
    );
  });

  it('refuses when the old text occurs more than once, and changes nothing', async () => {
    expect(await refusal(tool('edit_file').run({ path: 'src/dup.ts', old: 'x();', new: 'y();' }))).toBe(
      'old text occurs 2 times in src/dup.ts; include more surrounding lines so it matches once.',
    );
    // "= 1;" occurs in two different lines of app.ts.
    expect(await refusal(tool('edit_file').run({ path: 'src/app.ts', old: ' = 1;', new: ' = 9;' }))).toMatch(
      /occurs 2 times/,
    );
    expect(read('src/dup.ts')).toBe('x();\nx();\n');
  });

  it('counts overlapping occurrences as ambiguous', async () => {
    fs.writeFileSync(path.join(repo, 'src/aaa.txt'), 'aaa');
    expect(await refusal(tool('edit_file').run({ path: 'src/aaa.txt', old: 'aa', new: 'b' }))).toMatch(
      /occurs 2 times/,
    );
  });

  it('refuses protected and missing files', async () => {
    expect(
      await refusal(
        tool('edit_file').run({ path: '.github/workflows/ci.yml', old: 'push', new: 'pull_request_target' }),
      ),
    ).toMatch(/protected by the pattern/);
    expect(read('.github/workflows/ci.yml')).toBe('on: push\n');
    expect(await refusal(tool('edit_file').run({ path: 'src/none.ts', old: 'a', new: 'b' }))).toMatch(/File not found/);
  });

  it('rejects an empty old text at the schema', () => {
    expect(tool('edit_file').schema.safeParse({ path: 'src/app.ts', old: '', new: 'x' }).success).toBe(false);
  });
});

describe('write size limit', () => {
  it('refuses write_file content over the limit, counted in UTF-8 bytes, and writes nothing', async () => {
    // "é" is one character but two bytes: four bytes over a limit of three.
    expect(await refusal(tool('write_file', 3).run({ path: 'big.txt', content: 'éé' }))).toBe(
      'The content for big.txt would be 4 bytes, over the limit of 3 bytes (max-write-bytes); nothing was written. Keep files smaller, or report in your result that a larger file is needed.',
    );
    expect(fs.existsSync(path.join(repo, 'big.txt'))).toBe(false);
    expect(await refusal(tool('write_file', 3).run({ path: 'src/app.ts', content: 'long' }))).toMatch(
      /limit of 3 bytes/,
    );
    expect(read('src/app.ts')).toBe('const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
    expect(await tool('write_file', 3).run({ path: 'small.txt', content: 'ab' })).toMatch(/^Created small\.txt/);
  });

  it('refuses an edit whose result would be over the limit, leaving the file as it was', async () => {
    const before = read('src/app.ts');
    const limit = Buffer.byteLength(before, 'utf8') + 2;
    expect(
      await refusal(tool('edit_file', limit).run({ path: 'src/app.ts', old: 'const b = 2;', new: 'const b = 2222;' })),
    ).toMatch(
      new RegExp(`^After this edit src/app\\.ts would be ${limit + 1} bytes, over the limit of ${limit} bytes`),
    );
    expect(read('src/app.ts')).toBe(before);
    await tool('edit_file', limit).run({ path: 'src/app.ts', old: 'const b = 2;', new: 'const b = 222;' });
    expect(read('src/app.ts')).toContain('const b = 222;');
  });

  it('defaults to 1 MiB', async () => {
    expect(DEFAULT_MAX_WRITE_BYTES).toBe(1024 * 1024);
    expect(await tool('write_file').run({ path: 'exact.bin', content: 'x'.repeat(DEFAULT_MAX_WRITE_BYTES) })).toMatch(
      /^Created/,
    );
    expect(
      await refusal(tool('write_file').run({ path: 'over.bin', content: 'x'.repeat(DEFAULT_MAX_WRITE_BYTES + 1) })),
    ).toMatch(/over the limit of 1048576 bytes/);
    expect(fs.existsSync(path.join(repo, 'over.bin'))).toBe(false);
  });
});
