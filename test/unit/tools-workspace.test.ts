import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../src/tools/tool-error.js';
import { resolveInWorkspace, workspaceRelative } from '../../src/tools/workspace.js';
import { makeRepo, makeTempDir, removeDir } from './tools-git-fixture.js';

let repo: string;
let outside: string;

beforeEach(() => {
  repo = makeRepo({ 'src/a.ts': 'a\n', 'README.md': 'hi\n' });
  outside = makeTempDir('plangate-outside-');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
});

afterEach(() => {
  removeDir(repo);
  removeDir(outside);
});

function refusal(relPath: string): string {
  try {
    resolveInWorkspace(repo, relPath);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as Error).message;
  }
  throw new Error(`expected ${relPath} to be refused`);
}

describe('resolveInWorkspace', () => {
  it('resolves existing and not-yet-existing paths inside the workspace', () => {
    expect(resolveInWorkspace(repo, 'src/a.ts')).toBe(path.join(repo, 'src/a.ts'));
    expect(resolveInWorkspace(repo, 'new/dir/file.ts')).toBe(path.join(repo, 'new/dir/file.ts'));
    expect(resolveInWorkspace(repo, './src/../README.md')).toBe(path.join(repo, 'README.md'));
    expect(resolveInWorkspace(repo, '.')).toBe(repo);
    expect(resolveInWorkspace(repo, path.join(repo, 'src/a.ts'))).toBe(path.join(repo, 'src/a.ts'));
  });

  it('refuses .. escapes and absolute paths outside', () => {
    expect(refusal('../x')).toMatch(/outside the workspace/);
    expect(refusal('src/../../x')).toMatch(/outside the workspace/);
    expect(refusal(path.join(outside, 'secret.txt'))).toMatch(/outside the workspace/);
    expect(refusal('/etc/passwd')).toMatch(/outside the workspace/);
  });

  it('refuses any path through a .git segment', () => {
    expect(refusal('.git/config')).toMatch(/inside \.git/);
    expect(refusal('.git')).toMatch(/inside \.git/);
    expect(refusal('src/.git/hooks/pre-commit')).toMatch(/inside \.git/);
    expect(refusal('.GIT/hooks/x')).toMatch(/inside \.git/);
    expect(resolveInWorkspace(repo, '.github/workflows/ci.yml')).toBe(path.join(repo, '.github/workflows/ci.yml'));
    expect(resolveInWorkspace(repo, '.gitignore')).toBe(path.join(repo, '.gitignore'));
  });

  it('refuses symlinks, as the path itself or a parent, that lead outside', () => {
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(repo, 'leak.txt'));
    fs.symlinkSync(outside, path.join(repo, 'src/out'));
    expect(refusal('leak.txt')).toMatch(/symbolic link .*outside/);
    expect(refusal('src/out/secret.txt')).toMatch(/symbolic link .*outside/);
    // Not-yet-existing files below an escaping directory link are refused too: a write would land outside.
    expect(refusal('src/out/new/file.txt')).toMatch(/symbolic link .*outside/);
  });

  it('refuses broken symlinks, whose target a write would create', () => {
    fs.symlinkSync(path.join(outside, 'missing.txt'), path.join(repo, 'dangling'));
    expect(refusal('dangling')).toMatch(/broken symbolic link/);
  });

  it('refuses a symlink inside the workspace that points into .git', () => {
    fs.symlinkSync(path.join(repo, '.git'), path.join(repo, 'gitdir'));
    expect(refusal('gitdir/config')).toMatch(/inside \.git/);
  });

  it('follows symlinks that stay inside the workspace to their real path', () => {
    fs.symlinkSync(path.join(repo, 'src'), path.join(repo, 'alias'));
    expect(resolveInWorkspace(repo, 'alias/a.ts')).toBe(path.join(repo, 'src/a.ts'));
  });

  it('reports paths relative with forward slashes', () => {
    expect(workspaceRelative(repo, path.join(repo, 'src', 'a.ts'))).toBe('src/a.ts');
    expect(workspaceRelative(repo, repo)).toBe('.');
  });
});
