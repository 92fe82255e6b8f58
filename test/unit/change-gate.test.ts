import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitAll } from '../../src/repo/branch.js';
import { mergeKeptOut, stageChecked, type KeptOutChange } from '../../src/repo/change-gate.js';
import { createGit, type Git } from '../../src/repo/git.js';
import { git, initRepo, makeRepo, makeTempDir, removeDir, writeFiles } from './tools-git-fixture.js';

/**
 * Real git: the executor's commands change the work tree any way they like (here: plain file
 * operations, as another account would), then the host commits through the gate. Each test reads
 * what the commit holds and what the tree looks like afterwards.
 */

const identity = { name: 'plangate-bot', email: 'bot@plangate.invalid' };
const protectedPaths = ['.github/workflows/**'];
const ci = 'on: push\njobs: {}\n';

let repo: string;
let run: Git;
let dirs: string[];

beforeEach(() => {
  repo = makeRepo({
    'README.md': '# widgets\n',
    'src/app.ts': 'export const app = 1;\n',
    'scripts/build.sh': 'echo build\n',
    '.github/workflows/ci.yml': ci,
    '.github/workflows/release.yml': 'on: release\n',
    '.github/dependabot.yml': 'version: 2\n',
  });
  run = createGit(repo);
  dirs = [repo];
});

afterEach(() => {
  for (const dir of dirs) removeDir(dir);
});

const file = (rel: string) => path.join(repo, rel);
const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');
const exists = (rel: string) => {
  try {
    fs.lstatSync(file(rel));
    return true;
  } catch {
    return false;
  }
};

/** Path → mode of every entry in HEAD's tree. */
function headTree(): Map<string, string> {
  const out = git(repo, 'ls-tree', '-r', '-z', '--full-tree', 'HEAD');
  const entries = out
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [meta = '', name = ''] = line.split('\t');
      return [name, meta.split(' ')[0] ?? ''] as const;
    });
  return new Map(entries);
}

/** `A\tpath` lines of the last commit, sorted. */
const lastCommit = () =>
  git(repo, 'show', '--no-renames', '--name-status', '--format=', 'HEAD').trim().split('\n').filter(Boolean).sort();
/** The tree as git sees it after the commit: '' when it matches HEAD (untracked files aside). */
const trackedChanges = () => git(repo, 'status', '--porcelain', '--untracked-files=no').trim();
const untracked = () =>
  git(repo, 'ls-files', '--others', '--exclude-standard', '--directory', '--no-empty-directory')
    .trim()
    .split('\n')
    .filter(Boolean)
    .sort();

const commit = () => commitAll(run, 'plangate: cycle 1', identity, protectedPaths);
/**
 * Commits through the gate and checks what it kept out, what the commit holds (`A\tpath` lines,
 * sorted), and that the tracked tree matches HEAD afterwards.
 */
async function commitExpecting(keptOut: KeptOutChange[], committed: string[]) {
  const result = await commit();
  expect(result.keptOut).toEqual(keptOut);
  expect(lastCommit()).toEqual(committed);
  expect(trackedChanges()).toBe('');
  return result;
}

const kept = (
  path: string,
  change: KeptOutChange['change'],
  reason = 'protected by .github/workflows/**',
): KeptOutChange => ({ path, change, reason });

describe('protected paths', () => {
  it('keeps a new workflow out and removes it, committing the ordinary file beside it', async () => {
    writeFiles(repo, {
      '.github/workflows/evil.yml': 'on: push\n',
      'src/new.ts': 'export {};\n',
      '.github/dependabot.yml': 'version: 3\n',
    });
    const { sha } = await commitExpecting(
      [kept('.github/workflows/evil.yml', 'added')],
      ['A\tsrc/new.ts', 'M\t.github/dependabot.yml'],
    );
    expect(sha).toBe(git(repo, 'rev-parse', 'HEAD').trim());
    expect(headTree().has('.github/workflows/evil.yml')).toBe(false);
    expect(exists('.github/workflows/evil.yml')).toBe(false);
    expect(untracked()).toEqual([]);
  });

  it('keeps out a workflow whose name differs only in case, which a case-insensitive checkout reads as protected', async () => {
    writeFiles(repo, {
      '.GitHub/Workflows/evil.yml': 'on: push\n',
      '.github/WORKFLOWS/ci.yml': 'on: pull_request_target\n',
      'src/new.ts': 'export {};\n',
    });
    await commitExpecting(
      [kept('.GitHub/Workflows/evil.yml', 'added'), kept('.github/WORKFLOWS/ci.yml', 'added')],
      ['A\tsrc/new.ts'],
    );
    expect(exists('.GitHub/Workflows/evil.yml')).toBe(false);
    expect(untracked()).toEqual([]);
  });

  it('keeps a deletion of a protected file out and restores it, committing the ordinary deletion', async () => {
    fs.rmSync(file('.github/workflows/ci.yml'));
    fs.rmSync(file('scripts/build.sh'));
    await commitExpecting([kept('.github/workflows/ci.yml', 'deleted')], ['D\tscripts/build.sh']);
    expect(headTree().get('.github/workflows/ci.yml')).toBe('100644');
    expect(read('.github/workflows/ci.yml')).toBe(ci);
  });

  it('keeps an edit of a protected file out and restores its content', async () => {
    writeFiles(repo, { '.github/workflows/ci.yml': 'on: push\njobs: { steal: {} }\n', 'README.md': '# widgets 2\n' });
    await commitExpecting([kept('.github/workflows/ci.yml', 'modified')], ['M\tREADME.md']);
    expect(git(repo, 'show', 'HEAD:.github/workflows/ci.yml')).toBe(ci);
    expect(read('.github/workflows/ci.yml')).toBe(ci);
  });

  it('treats a rename out of the protected directory as a kept-out deletion and a committed addition', async () => {
    fs.renameSync(file('.github/workflows/release.yml'), file('release.yml'));
    await commitExpecting([kept('.github/workflows/release.yml', 'deleted')], ['A\trelease.yml']);
    expect(read('.github/workflows/release.yml')).toBe('on: release\n');
  });

  it('treats a rename into the protected directory as a committed deletion and a kept-out addition', async () => {
    fs.renameSync(file('src/app.ts'), file('.github/workflows/app.yml'));
    await commitExpecting([kept('.github/workflows/app.yml', 'added')], ['D\tsrc/app.ts']);
    expect(exists('.github/workflows/app.yml')).toBe(false);
    expect(untracked()).toEqual([]);
  });

  it('keeps a chmod +x of a protected file out and puts the mode back; an ordinary one lands', async () => {
    fs.chmodSync(file('.github/workflows/ci.yml'), 0o755);
    fs.chmodSync(file('scripts/build.sh'), 0o755);
    const { keptOut } = await commit();
    expect(keptOut).toEqual([kept('.github/workflows/ci.yml', 'mode')]);
    expect(headTree().get('scripts/build.sh')).toBe('100755');
    expect(headTree().get('.github/workflows/ci.yml')).toBe('100644');
    expect(fs.statSync(file('.github/workflows/ci.yml')).mode & 0o111).toBe(0);
    expect(trackedChanges()).toBe('');
  });

  it('calls a chmod with an edit a modification', async () => {
    writeFiles(repo, { '.github/workflows/ci.yml': 'changed\n' });
    fs.chmodSync(file('.github/workflows/ci.yml'), 0o755);
    expect((await commit()).keptOut).toEqual([kept('.github/workflows/ci.yml', 'modified')]);
    expect(read('.github/workflows/ci.yml')).toBe(ci);
  });

  it('keeps symlinks at protected paths out: a new one is removed, one replacing a file is undone', async () => {
    fs.symlinkSync('../../README.md', file('.github/workflows/link.yml'));
    fs.rmSync(file('.github/workflows/ci.yml'));
    fs.symlinkSync('/etc/passwd', file('.github/workflows/ci.yml'));
    fs.symlinkSync('app.ts', file('src/alias.ts'));
    await commitExpecting(
      [kept('.github/workflows/ci.yml', 'type'), kept('.github/workflows/link.yml', 'added')],
      ['A\tsrc/alias.ts'],
    );
    expect(headTree().get('src/alias.ts')).toBe('120000');
    expect(exists('.github/workflows/link.yml')).toBe(false);
    expect(fs.lstatSync(file('.github/workflows/ci.yml')).isFile()).toBe(true);
    expect(read('.github/workflows/ci.yml')).toBe(ci);
  });

  it('keeps out a file or symlink standing where the protected directory was', async () => {
    fs.rmSync(file('.github/workflows'), { recursive: true });
    fs.symlinkSync('/tmp', file('.github/workflows'));
    writeFiles(repo, { 'docs/x.md': 'x\n' });
    await commitExpecting(
      [
        kept('.github/workflows', 'added'),
        kept('.github/workflows/ci.yml', 'deleted'),
        kept('.github/workflows/release.yml', 'deleted'),
      ],
      ['A\tdocs/x.md'],
    );
    expect(fs.lstatSync(file('.github/workflows')).isDirectory()).toBe(true);
    expect(read('.github/workflows/ci.yml')).toBe(ci);
  });

  it('guards the contents of a directory pattern', async () => {
    writeFiles(repo, { 'config/prod/secrets.yml': 'x\n', 'configure.md': 'ok\n' });
    const { keptOut } = await commitAll(run, 'c', identity, ['config']);
    expect(keptOut).toEqual([kept('config/prod/secrets.yml', 'added', 'protected by config')]);
    expect(lastCommit()).toEqual(['A\tconfigure.md']);
  });

  it('unstages a protected change the executor put into the index itself', async () => {
    writeFiles(repo, { '.github/workflows/evil.yml': 'on: push\n', 'src/new.ts': 'export {};\n' });
    git(repo, 'add', '--', '.github/workflows/evil.yml');
    const { keptOut } = await commit();
    expect(keptOut).toEqual([kept('.github/workflows/evil.yml', 'added')]);
    expect(lastCommit()).toEqual(['A\tsrc/new.ts']);
    expect(exists('.github/workflows/evil.yml')).toBe(false);
    expect(git(repo, 'ls-files', '--', '.github/workflows').trim().split('\n').sort()).toEqual([
      '.github/workflows/ci.yml',
      '.github/workflows/release.yml',
    ]);
  });

  it('commits nothing when every change is kept out', async () => {
    const before = git(repo, 'rev-parse', 'HEAD').trim();
    writeFiles(repo, { '.github/workflows/evil.yml': 'on: push\n' });
    expect(await commit()).toEqual({ sha: undefined, keptOut: [kept('.github/workflows/evil.yml', 'added')] });
    expect(git(repo, 'rev-parse', 'HEAD').trim()).toBe(before);
  });
});

describe('.git paths and nested repositories', () => {
  it('keeps `.GIT/config` and `.git./x` out without failing the add, leaving them on disk', async () => {
    writeFiles(repo, {
      '.GIT/config': '[core]\n\thooksPath = /tmp\n',
      '.git./x': 'x\n',
      'src/.Git /hooks/post-checkout': '#!/bin/sh\n',
      'src/new.ts': 'export {};\n',
    });
    await commitExpecting(
      [
        kept('.GIT/config', 'added', 'a .git path'),
        kept('.git./x', 'added', 'a .git path'),
        kept('src/.Git /hooks/post-checkout', 'added', 'a .git path'),
      ],
      ['A\tsrc/new.ts'],
    );
    expect(read('.GIT/config')).toContain('hooksPath');
    expect(exists('.git./x')).toBe(true);
  });

  it('keeps an HFS+ spelling out, which git on Linux would index', async () => {
    writeFiles(repo, { '.g\u200cit/hooks/post-checkout': '#!/bin/sh\n', 'README.md': '# widgets 2\n' });
    await commitExpecting([kept('.g\u200cit/hooks/post-checkout', 'added', 'a .git path')], ['M\tREADME.md']);
  });

  it('keeps a nested repository with commits out, as a new gitlink would be, and leaves it alone', async () => {
    const sub = file('vendor/sub');
    fs.mkdirSync(sub, { recursive: true });
    initRepo(sub, { 'lib.ts': 'export {};\n' }, 'sub');
    // An empty one too: `git add` would fail on it outright.
    git(repo, 'init', '-q', 'empty');
    writeFiles(repo, { 'src/new.ts': 'export {};\n' });
    await commitExpecting(
      [kept('empty', 'added', 'a nested git repository'), kept('vendor/sub', 'added', 'a nested git repository')],
      ['A\tsrc/new.ts'],
    );
    expect([...headTree().values()]).not.toContain('160000');
    expect(git(sub, 'log', '--format=%s').trim()).toBe('sub');
  });

  it('keeps out a nested repository standing where a tracked file was, as a type change', async () => {
    fs.rmSync(file('src/app.ts'));
    const sub = file('src/app.ts');
    fs.mkdirSync(sub);
    initRepo(sub, { 'x.ts': 'export {};\n' }, 'x');
    writeFiles(repo, { 'README.md': '# widgets 2\n' });
    // Not commitExpecting: the nested repository stays on disk where HEAD has a file, so the tree differs.
    const { keptOut } = await commit();
    expect(keptOut).toEqual([kept('src/app.ts', 'type', 'a nested git repository')]);
    expect(lastCommit()).toEqual(['M\tREADME.md']);
    expect(headTree().get('src/app.ts')).toBe('100644');
    expect(fs.existsSync(path.join(sub, 'x.ts'))).toBe(true);
  });

  it('unstages a new gitlink that got into the index another way', async () => {
    const sub = file('plugin');
    fs.mkdirSync(sub);
    initRepo(sub, { 'p.ts': 'export {};\n' }, 'p');
    git(repo, 'add', '--', 'plugin');
    writeFiles(repo, { 'README.md': '# widgets 2\n' });
    await commitExpecting([kept('plugin', 'added', 'a nested git repository')], ['M\tREADME.md']);
    expect(headTree().has('plugin')).toBe(false);
  });

  it('commits a change to an existing submodule entry that is not protected', async () => {
    const upstream = makeTempDir('plangate-sub-');
    dirs.push(upstream);
    initRepo(upstream, { 'a.txt': '1\n' }, 'one');
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', upstream, 'deps/lib');
    git(repo, 'commit', '-q', '-m', 'add submodule');
    const lib = file('deps/lib');
    writeFiles(lib, { 'a.txt': '2\n' });
    git(lib, 'commit', '-q', '-am', 'two');
    await commitExpecting([], ['M\tdeps/lib']);
    expect(git(repo, 'ls-tree', 'HEAD', 'deps/lib').split(/\s/)[2]).toBe(git(lib, 'rev-parse', 'HEAD').trim());
  });
});

describe('what git itself refuses', () => {
  it('keeps a path git will not index out alone, instead of failing the commit', async () => {
    // git refuses a symlinked .gitmodules on every platform.
    fs.symlinkSync('README.md', file('.gitmodules'));
    writeFiles(repo, { 'src/new.ts': 'export {};\n' });
    const { keptOut } = await commit();
    expect(keptOut).toEqual([
      {
        path: '.gitmodules',
        change: 'added',
        reason: expect.stringMatching(/^git refused to stage it \(.*invalid path '\.gitmodules'/) as unknown as string,
      },
    ]);
    expect(lastCommit()).toEqual(['A\tsrc/new.ts']);
  });
});

describe('stageChecked', () => {
  it('stages deletions, stages nothing blocked, and works before the first commit', async () => {
    const fresh = makeTempDir('plangate-fresh-');
    dirs.push(fresh);
    git(fresh, 'init', '-q', '-b', 'main');
    writeFiles(fresh, { 'a.txt': 'a\n', '.github/workflows/x.yml': 'x\n', '.GIT/config': 'x\n' });
    const keptOut = await stageChecked(createGit(fresh), protectedPaths);
    expect(keptOut).toEqual([kept('.GIT/config', 'added', 'a .git path'), kept('.github/workflows/x.yml', 'added')]);
    expect(git(fresh, 'diff', '--cached', '--name-status').trim()).toBe('A\ta.txt');
    expect(fs.existsSync(path.join(fresh, '.github/workflows/x.yml'))).toBe(false);
    const first = await commitAll(createGit(fresh), 'first', identity, protectedPaths);
    expect(first.sha).toBe(git(fresh, 'rev-parse', 'HEAD').trim());
    expect(git(fresh, 'ls-tree', '-r', '--name-only', 'HEAD').trim()).toBe('a.txt');
  });

  it('treats paths literally: a name that looks like a glob or pathspec magic stages only itself', async () => {
    writeFiles(repo, { '*.ts': 'star\n', ':(glob)x': 'magic\n', 'src/a.ts': 'a\n' });
    fs.rmSync(file('src/app.ts'));
    await stageChecked(run, protectedPaths);
    expect(git(repo, 'diff', '--cached', '--name-status', '--no-renames').trim().split('\n').sort()).toEqual([
      'A\t*.ts',
      'A\t:(glob)x',
      'A\tsrc/a.ts',
      'D\tsrc/app.ts',
    ]);
  });
});

describe('mergeKeptOut', () => {
  it('keeps one entry per path and change, sorted by path', () => {
    const a = kept('b.yml', 'added');
    expect(
      mergeKeptOut(
        [a, kept('a', 'deleted', 'a .git path')],
        [kept('b.yml', 'added', 'other'), kept('b.yml', 'deleted')],
      ),
    ).toEqual([kept('a', 'deleted', 'a .git path'), a, kept('b.yml', 'deleted')]);
  });
});
