import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGit, type Git } from '../../src/repo/git.js';
import { mergeSorted, sortedUnique } from '../../src/tools/file-listing.js';
import { createReadTools } from '../../src/tools/read-tools.js';
import { createRunCommandTool } from '../../src/tools/run-command.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';
import type { Tool } from '../../src/tools/tool.js';
import { createWriteTools } from '../../src/tools/write-tools.js';
import { git, makeRepo, removeDir, writeFiles } from './tools-git-fixture.js';

/**
 * list_files keeps git's walk for untracked files between calls. What it keeps must never hide a
 * file: whatever a write tool, a command or the host's git does to the tree shows in the next listing.
 */

let repo: string;
/** The git commands list_files ran, as argument lists. */
let calls: string[][];
let listFiles: Tool<Record<string, unknown>>;

beforeEach(() => {
  repo = makeRepo({ '.gitignore': '*.log\n', 'README.md': '# demo\n', 'src/a.ts': 'export {};\n' });
  calls = [];
  const real = createGit(repo, { reader: { timeoutMs: 60_000 } });
  const watched: Git = (args) => {
    calls.push(args);
    return real(args);
  };
  listFiles = toolNamed(createReadTools(repo, watched), 'list_files');
});

afterEach(() => {
  removeDir(repo);
});

function toolNamed(tools: Tool[], name: string): Tool<Record<string, unknown>> {
  const found = tools.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found as Tool<Record<string, unknown>>;
}

const list = async (args: Record<string, unknown> = {}) =>
  (await listFiles.run(listFiles.schema.parse(args))).split('\n');
const walks = () => calls.filter((args) => args.includes('--others')).length;

describe('list_files between changes', () => {
  it('walks the working tree once while nothing changes, and reads the index every time', async () => {
    writeFiles(repo, { 'notes.md': 'new\n' });
    expect(await list()).toEqual(['.gitignore', 'README.md', 'notes.md', 'src/a.ts']);
    expect(await list({ path: 'src' })).toEqual(['src/a.ts']);
    expect(await list({ glob: '*.md' })).toEqual(['README.md', 'notes.md']);
    expect(walks()).toBe(1);
    expect(calls.filter((args) => args.includes('--cached'))).toHaveLength(3);
  });

  it('shows a file write_file created after the last listing', async () => {
    const writeFile = toolNamed(createWriteTools(repo, { protectedPaths: [] }), 'write_file');
    expect(await list()).not.toContain('src/b.ts');
    await writeFile.run({ path: 'src/b.ts', content: 'export const b = 1;\n' });
    expect(await list()).toEqual(['.gitignore', 'README.md', 'src/a.ts', 'src/b.ts']);
    expect(walks()).toBe(2);
  });

  it('shows a file a command created after the last listing', async () => {
    const runCommand = createRunCommandTool({
      allowedCommands: ['node -e *'],
      timeoutMs: 60_000,
      env: { PATH: path.dirname(process.execPath) },
      sandbox: createSandbox({ isolation: 'none', workTree: repo }),
    }) as Tool<{ command: string }>;
    expect(await list()).not.toContain('made-by-command.txt');
    const out = await runCommand.run({ command: `node -e "require('fs').writeFileSync('made-by-command.txt', 'x')"` });
    expect(out).toContain('exit code: 0');
    expect(await list()).toEqual(['.gitignore', 'README.md', 'made-by-command.txt', 'src/a.ts']);
  });

  it('shows a file once after the host commits it, and a file the index dropped', async () => {
    const writeFile = toolNamed(createWriteTools(repo, { protectedPaths: [] }), 'write_file');
    await writeFile.run({ path: 'src/b.ts', content: 'export const b = 1;\n' });
    expect(await list()).toEqual(['.gitignore', 'README.md', 'src/a.ts', 'src/b.ts']);
    // The host's git, not a tool: only the index tells list_files that src/b.ts is now tracked.
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'b');
    expect(await list()).toEqual(['.gitignore', 'README.md', 'src/a.ts', 'src/b.ts']);
    git(repo, 'rm', '-q', '--cached', 'src/a.ts');
    expect(await list()).toEqual(['.gitignore', 'README.md', 'src/a.ts', 'src/b.ts']);
    expect(walks()).toBe(3);
  });

  it('leaves out an untracked file deleted since the walk', async () => {
    writeFiles(repo, { 'gone.md': 'soon deleted\n' });
    expect(await list()).toContain('gone.md');
    fs.rmSync(path.join(repo, 'gone.md'));
    expect(await list()).toEqual(['.gitignore', 'README.md', 'src/a.ts']);
    expect(walks()).toBe(1);
  });
});

describe('the order list_files shows paths in', () => {
  it('merges two sorted lists lazily, each path once', () => {
    const merged = mergeSorted(['a', 'c', 'e'], ['b', 'c', 'd', 'f']);
    expect(merged.next().value).toBe('a');
    expect([...merged]).toEqual(['b', 'c', 'd', 'e', 'f']);
    expect([...mergeSorted([], ['x'])]).toEqual(['x']);
  });

  it('sorts by code unit and drops repeats, whatever order git printed', () => {
    expect(sortedUnique(['b', 'a', 'a', 'B'])).toEqual(['B', 'a', 'b']);
    // git orders by UTF-8 bytes: U+FF5E sorts after U+1F600 there, before it in UTF-16 code units.
    expect(sortedUnique(['x\u{ff5e}', 'x\u{1f600}'])).toEqual(['x\u{1f600}', 'x\u{ff5e}']);
    expect(sortedUnique(['m', 'm', 'n'])).toEqual(['m', 'n']);
  });
});
