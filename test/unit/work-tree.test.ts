import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkTree, type WorkTree } from '../../src/repo/work-tree.js';
import { git, makeRepo, makeTempDir, removeDir, writeFiles } from './tools-git-fixture.js';

/**
 * The agents' work tree: a copy of the checkout with the host's git named outright, so what a
 * command does to the copy (a `.git` of its own included) never reaches the host's git.
 */

const dirs: string[] = [];
const trees: WorkTree[] = [];
afterEach(async () => {
  await Promise.all(trees.splice(0).map((t) => t.close()));
  for (const dir of dirs.splice(0)) removeDir(dir);
});

async function open(workspace: string): Promise<WorkTree> {
  const tmpDir = makeTempDir('plangate-work-tree-test-');
  dirs.push(tmpDir);
  const tree = await openWorkTree(workspace, { tmpDir });
  trees.push(tree);
  return tree;
}

describe('openWorkTree', () => {
  it('copies the checkout, untracked and local changes included, without its .git', async () => {
    const workspace = makeRepo({ 'README.md': '# r\n', 'src/a.js': 'a\n' });
    dirs.push(workspace);
    writeFiles(workspace, { 'node_modules/dep/index.js': 'dep\n', 'src/a.js': 'a changed\n' });
    fs.symlinkSync('src/a.js', path.join(workspace, 'link'));
    const tree = await open(workspace);
    expect(path.basename(tree.path)).toBe('work');
    expect(fs.readFileSync(path.join(tree.path, 'node_modules/dep/index.js'), 'utf8')).toBe('dep\n');
    expect(fs.readlinkSync(path.join(tree.path, 'link'))).toBe('src/a.js');
    expect(fs.existsSync(path.join(tree.path, '.git'))).toBe(false);
    // The folder around the copy is closed to every other account, until the sandbox opens it to its own.
    expect(tree.enclosure).toBe(path.dirname(tree.path));
    expect(fs.statSync(tree.enclosure).mode & 0o777).toBe(0o700);
    // The host's git sees the copy against HEAD: the local change, nothing else.
    expect(await tree.git(['status', '--porcelain', '--untracked-files=no'])).toBe('M src/a.js');
    expect(await tree.git(['rev-parse', 'HEAD'])).toBe(git(workspace, 'rev-parse', 'HEAD').trim());
  });

  it('commits from the copy into the checkout’s repository, and a .git a command puts in the copy changes nothing', async () => {
    const workspace = makeRepo({ 'README.md': '# r\n' });
    dirs.push(workspace);
    const tree = await open(workspace);
    // A command's own repository in the work tree, with a hook and a config that would run a program.
    const planted = path.join(tree.path, '.git');
    git(tree.path, 'init', '-q');
    const marker = path.join(dirs[0] ?? workspace, 'hook-ran');
    fs.writeFileSync(path.join(planted, 'hooks/pre-commit'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    fs.appendFileSync(path.join(planted, 'config'), `[core]\n\tfsmonitor = touch ${marker}\n`);
    fs.writeFileSync(path.join(tree.path, 'NOTES.md'), 'notes\n');
    await tree.git(['add', '--all']);
    await tree.git(['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'notes']);
    expect(git(workspace, 'show', 'HEAD:NOTES.md')).toBe('notes\n');
    expect(git(workspace, 'ls-tree', '-r', '--name-only', 'HEAD')).not.toContain('.git/');
    expect(fs.existsSync(marker)).toBe(false);
    // The checkout's own work tree and index were left alone.
    expect(fs.existsSync(path.join(workspace, 'NOTES.md'))).toBe(false);
  });

  it('gives the read tools untrimmed output and removes the copy on close', async () => {
    const workspace = makeRepo({ ' leading-space.txt': 'x\n' });
    dirs.push(workspace);
    const tree = await open(workspace);
    expect(await tree.reader(['ls-files', '-z'])).toBe(' leading-space.txt\0');
    await tree.close();
    expect(fs.existsSync(path.dirname(tree.path))).toBe(false);
  });

  it('removes the copy on close where rm(1) cannot be found too', async () => {
    const workspace = makeRepo({ 'deep/er/file.txt': 'x\n' });
    dirs.push(workspace);
    const tree = await open(workspace);
    const saved = process.env.PATH;
    process.env.PATH = makeTempDir('plangate-empty-path-');
    dirs.push(process.env.PATH);
    try {
      await tree.close();
    } finally {
      process.env.PATH = saved;
    }
    expect(fs.existsSync(path.dirname(tree.path))).toBe(false);
  });

  it('discards the copy before returning, with rm(1) and without it', async () => {
    const workspace = makeRepo({ 'deep/er/file.txt': 'x\n' });
    dirs.push(workspace);
    const withRm = await open(workspace);
    withRm.discard();
    expect(fs.existsSync(path.dirname(withRm.path))).toBe(false);
    const withoutRm = await open(workspace);
    const saved = process.env.PATH;
    process.env.PATH = makeTempDir('plangate-empty-path-');
    dirs.push(process.env.PATH);
    try {
      withoutRm.discard();
    } finally {
      process.env.PATH = saved;
    }
    expect(fs.existsSync(path.dirname(withoutRm.path))).toBe(false);
  });

  it('says what to fix when the workspace is no checkout', async () => {
    const empty = makeTempDir('plangate-not-a-checkout-');
    dirs.push(empty);
    await expect(openWorkTree(empty, { tmpDir: empty })).rejects.toThrow(/is not a git checkout .*actions\/checkout/s);
  });
});

describe('WorkTree.fork', () => {
  it('copies the work tree into a closed folder of the enclosure, with an index of its own that HEAD describes', async () => {
    const workspace = makeRepo({ 'README.md': '# r\n', 'src/a.js': 'a\n' });
    dirs.push(workspace);
    writeFiles(workspace, { 'node_modules/dep/index.js': 'dep\n' });
    const tree = await open(workspace);
    const step = await tree.fork('step-2');
    expect(path.dirname(step.path)).toBe(tree.enclosure);
    expect(fs.statSync(step.path).mode & 0o777).toBe(0o700);
    // Installed dependencies come along: a step's commands need them as the main tree's do.
    expect(fs.readFileSync(path.join(step.path, 'node_modules/dep/index.js'), 'utf8')).toBe('dep\n');
    fs.writeFileSync(path.join(step.path, 'src/a.js'), 'a by step 2\n');
    expect(await step.git(['status', '--porcelain', '--untracked-files=no'])).toBe('M src/a.js');
    // The main tree and its index saw nothing of it.
    expect(fs.readFileSync(path.join(tree.path, 'src/a.js'), 'utf8')).toBe('a\n');
    expect(await tree.git(['status', '--porcelain', '--untracked-files=no'])).toBe('');
    await step.close();
    expect(fs.existsSync(step.path)).toBe(false);
  });

  it('makes a tree afresh under a name used before, and refuses a name that is no folder name', async () => {
    const workspace = makeRepo({ 'README.md': '# r\n' });
    dirs.push(workspace);
    const tree = await open(workspace);
    const first = await tree.fork('step-1');
    fs.writeFileSync(path.join(first.path, 'left.md'), 'left behind\n');
    const again = await tree.fork('step-1');
    expect(fs.existsSync(path.join(again.path, 'left.md'))).toBe(false);
    await expect(tree.fork('../escape')).rejects.toThrow('Not a work tree name');
  });
});
