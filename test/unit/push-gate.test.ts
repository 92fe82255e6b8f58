import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGit, type Git } from '../../src/repo/git.js';
import { createPushGate, pushedSources, PushRefusedError, type PushGate } from '../../src/repo/push-gate.js';
import { git, makeOriginAndClone, writeFiles, type OriginAndClone } from './tools-git-fixture.js';

/**
 * The gate before origin, on real git: a bare `origin` and the runner's clone. Every push the
 * runner's git makes goes through it, whatever the command line, so the tests push as the run's
 * paths do (a branch with a lease, a step ref, a merge) and read origin afterwards.
 */

let repos: OriginAndClone;
let gate: PushGate;
let runner: Git;
let base: string;

beforeEach(() => {
  repos = makeOriginAndClone({ 'README.md': '# widgets\n', 'package.json': '{}\n', 'notes/a.md': 'a\n' });
  gate = createPushGate();
  runner = createGit(repos.workspace, { beforePush: gate.check });
  base = git(repos.workspace, 'rev-parse', 'HEAD').trim();
});

afterEach(() => repos.remove());

/** Commits `files` in the runner's clone on top of `parent` (default HEAD) and returns the commit. */
function commit(files: Record<string, string>, message: string): string {
  writeFiles(repos.workspace, files);
  git(repos.workspace, 'add', '-A');
  git(repos.workspace, '-c', 'user.name=bot', '-c', 'user.email=bot@x', 'commit', '-q', '-m', message);
  return git(repos.workspace, 'rev-parse', 'HEAD').trim();
}

const onOrigin = (ref: string) => git(repos.origin, 'for-each-ref', '--format=%(objectname)', ref).trim();

describe('the push gate', () => {
  const rules = { protectedPaths: ['.github/workflows/**'], scope: { paths: ['notes/a.md', 'docs'] } };

  it('lets through commits that change only what the approval allows', async () => {
    gate.bind({ known: [base], ...rules });
    const sha = commit({ 'notes/a.md': 'b\n', 'docs/x.md': 'x\n' }, 'cycle 1');
    await runner(['push', '--quiet', '--force-with-lease=refs/heads/work:', 'origin', 'HEAD:refs/heads/work']);
    expect(onOrigin('refs/heads/work')).toBe(sha);
  });

  it('refuses a push whose commits change a path outside the scope, naming it, and sends nothing', async () => {
    gate.bind({ known: [base], ...rules });
    commit({ 'notes/a.md': 'b\n' }, 'cycle 1');
    const wide = commit({ 'package.json': '{"scripts":{"postinstall":"curl evil"}}\n' }, 'step 2');
    commit({ 'notes/a.md': 'c\n' }, 'cycle 2');
    const push = runner(['push', '--quiet', 'origin', `HEAD:refs/heads/work`]);
    await expect(push).rejects.toBeInstanceOf(PushRefusedError);
    await expect(push).rejects.toThrow(
      `plangate refused to push: the commits change what the approval does not allow: package.json (outside the approved scope, in ${wide.slice(0, 7)})`,
    );
    expect(onOrigin('refs/heads/work')).toBe('');
  });

  it('reads a merge as what it brings onto the branch, and the commits it brings on their own', async () => {
    gate.bind({ known: [base], ...rules });
    const main = commit({ 'notes/a.md': 'b\n' }, 'cycle 1');
    git(repos.workspace, 'checkout', '-q', '-b', 'step', base);
    const step = commit({ 'package.json': '{"wide":true}\n' }, 'step 2');
    git(repos.workspace, 'checkout', '-q', 'main');
    git(
      repos.workspace,
      '-c',
      'user.name=bot',
      '-c',
      'user.email=bot@x',
      'merge',
      '-q',
      '--no-ff',
      '-m',
      'merge step 2',
      step,
    );
    await expect(runner(['push', '--quiet', 'origin', 'HEAD:refs/heads/work'])).rejects.toThrow(
      /package\.json \(outside the approved scope, in [0-9a-f]{7}\); package\.json \(outside the approved scope/,
    );
    // A step's ref is held to the run's scope as much as the branch is.
    await expect(runner(['push', '--quiet', '--force', 'origin', `${step}:refs/plangate/steps/p1/2`])).rejects.toThrow(
      PushRefusedError,
    );
    expect(onOrigin('refs/plangate/steps/p1/2')).toBe('');
    expect(main).not.toBe('');
  });

  it('holds protected paths whatever the scope, under scope: report too', async () => {
    gate.bind({ known: [base], protectedPaths: ['.github/workflows/**'], scope: undefined });
    commit({ 'anything.md': 'fine under report\n' }, 'cycle 1');
    await runner(['push', '--quiet', 'origin', 'HEAD:refs/heads/report']);
    commit({ '.github/workflows/ci.yml': 'on: push\n' }, 'cycle 2');
    await expect(runner(['push', '--quiet', 'origin', 'HEAD:refs/heads/report'])).rejects.toThrow(
      /\.github\/workflows\/ci\.yml \(protected by \.github\/workflows\/\*\*/,
    );
  });

  it('before an approval is bound, lets through only commits that change nothing, and deletions', async () => {
    const tree = git(repos.workspace, 'rev-parse', 'HEAD^{tree}').trim();
    const empty = git(repos.workspace, 'commit-tree', tree, '-p', base, '-m', 'start').trim();
    await runner(['push', '--quiet', 'origin', `${empty}:refs/heads/started`]);
    await runner(['push', '--quiet', 'origin', ':refs/heads/started']);
    commit({ 'notes/a.md': 'b\n' }, 'cycle 1');
    await expect(runner(['push', '--quiet', 'origin', 'HEAD:refs/heads/early'])).rejects.toThrow(
      /notes\/a\.md \(no approval is bound to this push/,
    );
  });

  it('reads a path literally: a name with pattern characters allows only itself', async () => {
    gate.bind({ known: [base], protectedPaths: [], scope: { paths: ['notes/a.md/index|package.json', 'docs/*.md'] } });
    commit({ 'docs/x.md': 'x\n' }, 'cycle 1');
    await expect(runner(['push', '--quiet', 'origin', 'HEAD:refs/heads/work'])).rejects.toThrow(
      /docs\/x\.md \(outside the approved scope/,
    );
  });
});

describe('pushedSources', () => {
  it('reads the sources of a push command line, deletions sending nothing', () => {
    expect(
      pushedSources(['push', '--quiet', '--force-with-lease=refs/heads/a:', 'origin', 'HEAD:refs/heads/a']),
    ).toEqual(['HEAD']);
    expect(pushedSources(['push', '--quiet', 'origin', ':refs/plangate/x', '+abc:refs/y', 'main'])).toEqual([
      'abc',
      'main',
    ]);
    expect(pushedSources(['fetch', 'origin', 'main'])).toEqual([]);
  });
});
