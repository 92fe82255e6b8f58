import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasDotGitComponent, isDotGitComponent } from '../../src/text/dot-git.js';
import { ToolError } from '../../src/tools/tool-error.js';
import { resolveInWorkspace } from '../../src/tools/workspace.js';
import { git, makeRepo, removeDir } from './tools-git-fixture.js';

/**
 * Every spelling of `.git` that some file system folds into git's own directory. The list is
 * checked against git itself: with its NTFS and HFS+ protections on, git refuses to index a file
 * under each of them.
 */
const spellings = [
  '.git',
  '.GIT',
  '.Git',
  '.git.',
  '.git ',
  '.Git. .',
  'git~1',
  'GIT~1',
  '.git::$INDEX_ALLOCATION',
  '.g\u200cit',
  '.git\u200d',
  '.\u202agit',
  '\ufeff.git',
  '.gi\u206at',
];

/** Mixes of the NTFS and HFS+ rules, which git checks one file system at a time; refused anyway. */
const combined = ['.G\u200fIT.', 'g\ufeffit~1 '];

const ordinary = [
  '.github',
  '.gitignore',
  '.gitmodules',
  'git',
  '.gi',
  '.git-blame-ignore-revs',
  'git~2',
  'x.git',
  '.git~1',
  '..git',
  '.',
  '..',
  '',
];

let repo: string;

beforeEach(() => {
  repo = makeRepo({ 'README.md': '# widgets\n' });
});

afterEach(() => {
  removeDir(repo);
});

describe('isDotGitComponent', () => {
  it.each([...spellings, ...combined])('treats %j as git’s directory', (name) => {
    expect(isDotGitComponent(name)).toBe(true);
  });

  it.each(ordinary)('leaves %j alone', (name) => {
    expect(isDotGitComponent(name)).toBe(false);
  });

  it('agrees with git, which refuses to index a file under each spelling when it protects NTFS and HFS+', () => {
    const refused = (name: string) => {
      fs.mkdirSync(path.join(repo, name), { recursive: true });
      fs.writeFileSync(path.join(repo, name, 'x'), 'x\n');
      try {
        git(repo, '-c', 'core.protectNTFS=true', '-c', 'core.protectHFS=true', 'add', '--', `${name}/x`);
        return false;
      } catch {
        return true;
      } finally {
        fs.rmSync(path.join(repo, name), { recursive: true, force: true });
      }
    };
    for (const name of spellings.filter((n) => n !== '.git')) expect([name, refused(name)]).toEqual([name, true]);
    for (const name of ['.github', 'git~2', 'x.git', '..git']) expect([name, refused(name)]).toEqual([name, false]);
    // Only the ordinary names reached the index.
    expect(git(repo, 'ls-files').trim().split('\n').sort()).toEqual([
      '..git/x',
      '.github/x',
      'README.md',
      'git~2/x',
      'x.git/x',
    ]);
  });
});

describe('hasDotGitComponent', () => {
  it('finds a .git spelling in any component, at either separator', () => {
    expect(hasDotGitComponent('.GIT/config')).toBe(true);
    expect(hasDotGitComponent('.git./x')).toBe(true);
    expect(hasDotGitComponent('src/GIT~1/hooks/post-checkout')).toBe(true);
    expect(hasDotGitComponent('vendor/lib/.g\u200cit')).toBe(true);
    expect(hasDotGitComponent('a\\.git\\config')).toBe(true);
  });

  it('leaves ordinary paths alone', () => {
    expect(hasDotGitComponent('.github/workflows/ci.yml')).toBe(false);
    expect(hasDotGitComponent('.gitignore')).toBe(false);
    expect(hasDotGitComponent('docs/git~2/x.git')).toBe(false);
  });
});

describe('the workspace guard refuses every spelling', () => {
  const refusal = (rel: string) => {
    try {
      resolveInWorkspace(repo, rel);
    } catch (error) {
      expect(error).toBeInstanceOf(ToolError);
      return (error as ToolError).message;
    }
    return 'accepted';
  };

  it.each([
    '.GIT/config',
    '.git./hooks/pre-commit',
    'git~1/config',
    '.g\u200cit/config',
    'src/.Git /x',
    'a\\.git\\config',
  ])('%j', (rel) => {
    expect(refusal(rel)).toBe(
      `Path ${JSON.stringify(rel)} is inside .git, which tools may not touch; work with the files of the repository instead.`,
    );
  });

  it('still resolves look-alikes that are ordinary files', () => {
    expect(resolveInWorkspace(repo, '.github/workflows/ci.yml')).toBe(path.join(repo, '.github/workflows/ci.yml'));
    expect(resolveInWorkspace(repo, 'docs/git~2.md')).toBe(path.join(repo, 'docs/git~2.md'));
  });
});
