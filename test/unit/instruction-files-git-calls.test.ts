import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGit, execGit, type GitExec } from '../../src/repo/git.js';
import { readInstructionFiles } from '../../src/repo/instruction-files.js';
import { git, makeRepo, removeDir, writeFiles } from './tools-git-fixture.js';

// Every /plan reads the repository's instruction files, and every git process costs more than the
// listing it makes: the three paths are looked up in one process.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

/** Git in `dir`, recording the argv of every process it starts. */
function countingGit(dir: string): { git: ReturnType<typeof createGit>; calls: string[][] } {
  const calls: string[][] = [];
  const exec: GitExec = (args, options) => {
    calls.push([...args]);
    return execGit(args, options);
  };
  return { git: createGit(dir, { exec }), calls };
}

describe('readInstructionFiles git processes', () => {
  it('looks the three files up in one process when the commit has none', async () => {
    const dir = makeRepo({ 'README.md': '# x\n' });
    dirs.push(dir);
    const { git: counted, calls } = countingGit(dir);
    expect(await readInstructionFiles(counted, 'HEAD')).toEqual([]);
    expect(calls).toEqual([
      [
        '--literal-pathspecs',
        'ls-tree',
        '-z',
        '-l',
        'HEAD',
        '--',
        'AGENTS.md',
        '.github/copilot-instructions.md',
        'CLAUDE.md',
      ],
    ]);
  });

  it('adds one process per file it reads and per symlink hop it follows', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'Rules.\n', 'docs/claude.md': 'Claude rules.\n' });
    dirs.push(dir);
    fs.symlinkSync('docs/claude.md', path.join(dir, 'CLAUDE.md'));
    writeFiles(dir, { '.github/copilot-instructions.md': 'Copilot rules.\n' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'instructions');
    const { git: counted, calls } = countingGit(dir);
    expect(await readInstructionFiles(counted, 'HEAD')).toEqual([
      { path: 'AGENTS.md', bytes: 7, content: 'Rules.' },
      { path: '.github/copilot-instructions.md', bytes: 15, content: 'Copilot rules.' },
      { path: 'CLAUDE.md', bytes: 14, content: 'Claude rules.' },
    ]);
    // One listing, three blobs, and for CLAUDE.md its link target and that target's entry.
    expect(calls.map((argv) => argv.find((a) => !a.startsWith('-')))).toEqual([
      'ls-tree',
      'cat-file',
      'cat-file',
      'cat-file',
      'ls-tree',
      'cat-file',
    ]);
  });
});
