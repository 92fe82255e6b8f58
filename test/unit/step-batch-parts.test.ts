import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGit, type Git } from '../../src/repo/git.js';
import { openWorkBranch, type WorkBranch } from '../../src/run/work-branch.js';
import { stepDirective, stepScope } from '../../src/run/step-batch.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';
import type { ApprovedScope } from '../../src/scope/approved-scope.js';
import { git, makeOriginAndClone, makeTempDir, removeDir, type OriginAndClone } from './tools-git-fixture.js';

/**
 * The parts steps that run together are made of: the work branch's merge in plan order (never with
 * conflict markers), the sandbox's views on other work trees (one loan at a time), and each step's
 * own scope and directive.
 */

const author = { name: 'plangate-bot', email: 'bot@plangate.invalid' };

describe('WorkBranch.merge', () => {
  let repos: OriginAndClone;
  let workGit: Git;
  let work: WorkBranch;
  let base: string;

  beforeEach(async () => {
    repos = makeOriginAndClone({ 'README.md': '# widgets\n', 'shared.md': 'one\n' });
    workGit = createGit(repos.workspace);
    base = git(repos.workspace, 'rev-parse', 'HEAD').trim();
    work = await openWorkBranch(workGit, {
      branch: 'plangate/1-abcdef12',
      baseSha: base,
      author,
      protectedPaths: [],
      trailers: ['Plangate-Plan: abcdef12'],
    });
  });
  afterEach(() => repos.remove());

  /** A step's commit on `parent`: `files` written over the parent's tree, HEAD and the workspace untouched. */
  function stepCommit(parent: string, files: Record<string, string>): string {
    const scratch = makeTempDir('plangate-step-');
    const inRepo = (args: string[], extra: { input?: string; index?: boolean } = {}) =>
      execFileSync('git', args, {
        cwd: repos.workspace,
        encoding: 'utf8',
        ...(extra.input !== undefined ? { input: extra.input } : {}),
        env: { ...process.env, ...(extra.index ? { GIT_INDEX_FILE: path.join(scratch, 'index') } : {}) },
      }).trim();
    try {
      inRepo(['read-tree', parent], { index: true });
      for (const [file, content] of Object.entries(files)) {
        const blob = inRepo(['hash-object', '-w', '--stdin'], { input: content });
        inRepo(['update-index', '--add', '--cacheinfo', `100644,${blob},${file}`], { index: true });
      }
      const tree = inRepo(['write-tree'], { index: true });
      return inRepo([
        '-c',
        'user.name=s',
        '-c',
        'user.email=s@x.invalid',
        'commit-tree',
        tree,
        '-p',
        parent,
        '-m',
        'step',
      ]);
    } finally {
      removeDir(scratch);
    }
  }

  it('merges steps made from the same commit in order, with merge commits, the workspace following', async () => {
    const a = stepCommit(base, { 'notes/a.md': 'A\n' });
    const b = stepCommit(base, { 'notes/b.md': 'B\n' });
    expect(await work.merge(a, 'plangate: merge step 1')).toBe(true);
    expect(await work.merge(b, 'plangate: merge step 2')).toBe(true);
    expect(fs.readFileSync(path.join(repos.workspace, 'notes/a.md'), 'utf8')).toBe('A\n');
    expect(fs.readFileSync(path.join(repos.workspace, 'notes/b.md'), 'utf8')).toBe('B\n');
    expect(git(repos.workspace, 'status', '--porcelain').trim()).toBe('');
    const head = git(repos.workspace, 'log', '-1', '--format=%P%n%B').trim();
    expect(head.split('\n')[0]?.split(' ')).toEqual([expect.any(String), b]);
    expect(head).toContain('Plangate-Plan: abcdef12');
    // Nothing is pushed until asked; then the branch carries both merges.
    expect(git(repos.origin, 'for-each-ref', 'refs/heads/plangate').trim()).toBe('');
    await work.push();
    expect(git(repos.origin, 'show', 'refs/heads/plangate/1-abcdef12:notes/b.md')).toBe('B\n');
  });

  it('refuses a merge that conflicts and changes nothing: no marker in any file, the index and HEAD as they were', async () => {
    const first = stepCommit(base, { 'shared.md': 'one\nfrom step 1\n' });
    const second = stepCommit(base, { 'shared.md': 'one\nfrom step 2\n' });
    expect(await work.merge(first, 'plangate: merge step 1')).toBe(true);
    const before = git(repos.workspace, 'rev-parse', 'HEAD').trim();
    expect(await work.merge(second, 'plangate: merge step 2')).toBe(false);
    expect(git(repos.workspace, 'rev-parse', 'HEAD').trim()).toBe(before);
    expect(fs.readFileSync(path.join(repos.workspace, 'shared.md'), 'utf8')).toBe('one\nfrom step 1\n');
    expect(git(repos.workspace, 'status', '--porcelain').trim()).toBe('');
  });
});

describe('the sandbox’s views on other work trees', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach(removeDir));

  it('lends one tree at a time, across the sandbox and all its views, each view working in its own tree', async () => {
    const main = makeTempDir('plangate-main-');
    const other = makeTempDir('plangate-other-');
    dirs.push(main, other);
    const box = createSandbox({ isolation: 'none', workTree: main });
    const view = box.inTree?.(other);
    expect(view?.workTree).toBe(other);
    const events: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = box.lend(async () => {
      events.push('main starts');
      await held;
      events.push('main ends');
    });
    const second = view!.lend(async () => {
      events.push('view starts');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The view's work waits for the loan under way, however long it takes.
    expect(events).toEqual(['main starts']);
    release();
    await Promise.all([first, second]);
    expect(events).toEqual(['main starts', 'main ends', 'view starts']);
    // A failed loan does not hold the queue.
    await expect(view!.lend(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(box.lend(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});

describe('a step’s scope and directive', () => {
  const scope: ApprovedScope = {
    paths: ['notes/a.md', 'notes/b.md', 'docs'],
    commands: ['npm test'],
    budget: { tokens: 1000, cycles: 4 },
  };

  it('keeps the run’s commands and budget, and only the paths the step lists that the run’s scope allows', () => {
    const own = stepScope(scope, { title: 'A', files: ['./notes/a.md', 'docs/guide.md', 'secrets/key.pem'] });
    expect(own.paths).toEqual(['notes/a.md', 'docs/guide.md']);
    expect(own.commands).toEqual(['npm test']);
    expect(own.budget).toBe(scope.budget);
    expect(stepScope(scope, { title: 'no files' }).paths).toEqual([]);
  });

  it('says the step as the plan does, for a step the planner wrote no directive for', () => {
    expect(stepDirective({ title: 'Write A', detail: 'One line.', files: ['notes/a.md'], verify: 'npm test' }, 2)).toBe(
      'Carry out step 2 of the approved plan: Write A\n\nOne line.\n\nFiles: notes/a.md\n\nVerify: npm test',
    );
  });
});
