import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkoutCommit,
  commitAll,
  fetchBranch,
  headCommit,
  pushWithLease,
  startBranch,
} from '../../src/repo/branch.js';
import { botIdentity, createGit, GitError, type Git } from '../../src/repo/git.js';
import { git, makeOriginAndClone, writeFiles, type OriginAndClone } from './tools-git-fixture.js';

/**
 * Real git: a bare `origin`, a maintainer's repository that pushes to it (standing in for everyone
 * else), and the runner's clone that plangate works in.
 */

let repos: OriginAndClone;
let origin: string;
let maintainer: string;
let workspace: string;
let runnerGit: Git;

const identity = { name: 'plangate-bot', email: 'bot@plangate.invalid' };

beforeEach(() => {
  repos = makeOriginAndClone({ 'README.md': '# widgets\n' });
  ({ origin, maintainer, workspace } = repos);
  runnerGit = createGit(workspace);
});

afterEach(() => repos.remove());

const rev = (dir: string, ref: string) => git(dir, 'rev-parse', ref).trim();

/** The maintainer commits a change and pushes it to a branch on origin. */
function maintainerPushes(branch: string, file: string, content: string): string {
  writeFiles(maintainer, { [file]: content });
  git(maintainer, 'add', '-A');
  git(maintainer, 'commit', '-q', '-m', `change ${file}`);
  git(maintainer, 'push', '-q', '--force', 'origin', `HEAD:refs/heads/${branch}`);
  return rev(maintainer, 'HEAD');
}

describe('createGit', () => {
  it('returns trimmed stdout', async () => {
    expect(await runnerGit(['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('main');
  });

  it('fails with git’s own words', async () => {
    const failure = runnerGit(['rev-parse', '--verify', 'no-such-ref']);
    await expect(failure).rejects.toBeInstanceOf(GitError);
    await expect(failure).rejects.toThrow(/git rev-parse failed: .*no-such-ref|fatal/);
  });
});

describe('botIdentity', () => {
  it('uses the Actions bot’s linked noreply address, and a login-based one for others', () => {
    expect(botIdentity('github-actions[bot]')).toEqual({
      name: 'github-actions[bot]',
      email: '41898282+github-actions[bot]@users.noreply.github.com',
    });
    expect(botIdentity('plangate-app[bot]')).toEqual({
      name: 'plangate-app[bot]',
      email: 'plangate-app[bot]@users.noreply.github.com',
    });
  });
});

describe('fetchBranch', () => {
  it('returns the commit origin’s branch points at, also after it moved', async () => {
    expect(await fetchBranch(runnerGit, 'main')).toBe(rev(origin, 'main'));
    const moved = maintainerPushes('main', 'a.txt', 'a\n');
    expect(await fetchBranch(runnerGit, 'main')).toBe(moved);
  });

  it('fetches a branch the clone has never seen', async () => {
    const sha = maintainerPushes('feature/x', 'b.txt', 'b\n');
    expect(await fetchBranch(runnerGit, 'feature/x')).toBe(sha);
  });

  it('fails for a branch that does not exist', async () => {
    await expect(fetchBranch(runnerGit, 'no-such-branch')).rejects.toBeInstanceOf(GitError);
  });
});

describe('checkoutCommit and startBranch', () => {
  it('detaches HEAD at a commit for reading', async () => {
    const first = rev(workspace, 'HEAD');
    maintainerPushes('main', 'a.txt', 'a\n');
    await fetchBranch(runnerGit, 'main');
    await checkoutCommit(runnerGit, first);
    expect(await headCommit(runnerGit)).toBe(first);
    expect(git(workspace, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('HEAD');
  });

  it('creates the work branch at the given commit, and resets it when it exists', async () => {
    const first = rev(workspace, 'HEAD');
    const second = maintainerPushes('main', 'a.txt', 'a\n');
    await fetchBranch(runnerGit, 'main');
    await startBranch(runnerGit, 'plangate/7-0a1b2c3d', second);
    expect(git(workspace, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('plangate/7-0a1b2c3d');
    expect(await headCommit(runnerGit)).toBe(second);
    await startBranch(runnerGit, 'plangate/7-0a1b2c3d', first);
    expect(await headCommit(runnerGit)).toBe(first);
    expect(fs.existsSync(path.join(workspace, 'a.txt'))).toBe(false);
  });
});

describe('commitAll', () => {
  it('returns undefined when nothing changed', async () => {
    const before = rev(workspace, 'HEAD');
    expect(await commitAll(runnerGit, 'nothing', identity, [])).toEqual({ sha: undefined, keptOut: [] });
    expect(rev(workspace, 'HEAD')).toBe(before);
  });

  it('commits new, changed and deleted files as the given author', async () => {
    writeFiles(workspace, { 'new/file.txt': 'new\n', 'README.md': '# widgets 2\n' });
    const { sha } = await commitAll(runnerGit, 'plangate: cycle 1\n\nRefs #7', identity, []);
    expect(sha).toBe(rev(workspace, 'HEAD'));
    expect(git(workspace, 'log', '-1', '--format=%an <%ae>|%s').trim()).toBe(
      'plangate-bot <bot@plangate.invalid>|plangate: cycle 1',
    );
    expect(git(workspace, 'show', '--name-status', '--format=', 'HEAD').trim().split('\n').sort()).toEqual([
      'A\tnew/file.txt',
      'M\tREADME.md',
    ]);
    expect(git(workspace, 'status', '--porcelain').trim()).toBe('');

    fs.rmSync(path.join(workspace, 'new/file.txt'));
    const { sha: removal } = await commitAll(runnerGit, 'remove', identity, []);
    expect(removal).toBeDefined();
    expect(git(workspace, 'show', '--name-status', '--format=', 'HEAD').trim()).toBe('D\tnew/file.txt');
  });

  it('leaves ignored files out', async () => {
    writeFiles(workspace, { '.gitignore': 'build/\n' });
    await commitAll(runnerGit, 'ignore build', identity, []);
    writeFiles(workspace, { 'build/out.js': 'x' });
    expect((await commitAll(runnerGit, 'nothing to keep', identity, [])).sha).toBeUndefined();
  });
});

describe('pushWithLease', () => {
  const branch = 'plangate/7-0a1b2c3d';

  async function commitChange(content: string): Promise<string> {
    writeFiles(workspace, { 'work.txt': content });
    const { sha } = await commitAll(runnerGit, `work ${content}`, identity, []);
    if (!sha) throw new Error('expected a commit');
    return sha;
  }

  it('creates the branch when it must not exist yet, then advances it while nobody else pushed', async () => {
    await startBranch(runnerGit, branch, rev(workspace, 'HEAD'));
    const first = await commitChange('1');
    await pushWithLease(runnerGit, branch, undefined);
    expect(rev(origin, branch)).toBe(first);
    const second = await commitChange('2');
    await pushWithLease(runnerGit, branch, first);
    expect(rev(origin, branch)).toBe(second);
  });

  it('refuses to create the branch when someone else already did', async () => {
    const theirs = maintainerPushes(branch, 'theirs.txt', 'theirs\n');
    await startBranch(runnerGit, branch, rev(workspace, 'HEAD'));
    await commitChange('1');
    await expect(pushWithLease(runnerGit, branch, undefined)).rejects.toBeInstanceOf(GitError);
    expect(rev(origin, branch)).toBe(theirs);
  });

  it('refuses when the remote branch moved since plangate pushed', async () => {
    await startBranch(runnerGit, branch, rev(workspace, 'HEAD'));
    const first = await commitChange('1');
    await pushWithLease(runnerGit, branch, undefined);
    // Someone else pushes on top of plangate's commit.
    git(maintainer, 'fetch', '-q', 'origin', branch);
    git(maintainer, 'checkout', '-q', '-B', branch, 'FETCH_HEAD');
    const theirs = maintainerPushes(branch, 'theirs.txt', 'theirs\n');
    await commitChange('2');
    await expect(pushWithLease(runnerGit, branch, first)).rejects.toThrow(/git push failed/);
    expect(rev(origin, branch)).toBe(theirs);
  });
});
