import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removePersistedCredentials } from '../../src/repo/git-credentials.js';
import { createGit, type Git } from '../../src/repo/git.js';
import { git, makeRepo, makeTempDir, removeDir } from './tools-git-fixture.js';

/**
 * The credentials actions/checkout leaves in a workspace, in both of its layouts: the header in
 * `.git/config` (up to v5) and in a file under RUNNER_TEMP that `.git/config` includes (v6).
 */

let repo: string;
let temp: string;
let runnerGit: Git;

beforeEach(() => {
  repo = makeRepo({ 'README.md': '# widgets\n' });
  temp = makeTempDir('plangate-runner-temp-');
  runnerGit = createGit(repo);
});

afterEach(() => {
  removeDir(repo);
  removeDir(temp);
});

const localConfig = () => fs.readFileSync(path.join(repo, '.git', 'config'), 'utf8');

describe('removePersistedCredentials', () => {
  it('does nothing when no credentials are persisted', async () => {
    git(repo, 'config', '--local', 'user.name', 'Mona');
    const before = localConfig();
    expect(await removePersistedCredentials(runnerGit)).toEqual({ removed: [], kept: [] });
    expect(localConfig()).toBe(before);
  });

  it('removes every auth header in the local config and keeps the rest of it', async () => {
    git(repo, 'config', '--local', 'http.https://github.com/.extraheader', 'AUTHORIZATION: basic c2VjcmV0');
    git(repo, 'config', '--local', '--add', 'http.https://github.com/.extraheader', 'X-Second: value');
    git(repo, 'config', '--local', 'http.https://ghes.example.com/.extraheader', 'AUTHORIZATION: basic b3RoZXI=');
    git(repo, 'config', '--local', 'user.name', 'Mona');

    const cleanup = await removePersistedCredentials(runnerGit);
    expect(cleanup.removed).toEqual([
      'http.https://github.com/.extraheader',
      'http.https://ghes.example.com/.extraheader',
    ]);
    expect(localConfig()).not.toMatch(/extraheader|c2VjcmV0|b3RoZXI/);
    expect(git(repo, 'config', '--local', 'user.name').trim()).toBe('Mona');
  });

  it('removes the header from a credentials file the local config includes, leaving its other settings', async () => {
    const credentials = path.join(temp, 'git-credentials-0a1b.config');
    fs.writeFileSync(
      credentials,
      '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n[core]\n\tquotepath = false\n',
    );
    const gitDir = path.join(repo, '.git');
    git(repo, 'config', '--local', `includeIf.gitdir:${gitDir}.path`, credentials);
    expect(git(repo, 'config', '--get-regexp', 'extraheader')).toContain('c2VjcmV0');

    const cleanup = await removePersistedCredentials(runnerGit);
    expect(cleanup.removed).toEqual([`${credentials}: http.https://github.com/.extraheader`]);
    const left = fs.readFileSync(credentials, 'utf8');
    expect(left).not.toContain('c2VjcmV0');
    expect(left).toContain('quotepath = false');
    // Git no longer sees a header anywhere.
    expect(() => git(repo, 'config', '--get-regexp', 'extraheader')).toThrow();
  });

  it('reports, and leaves alone, credential helpers and remote URLs with a password', async () => {
    git(repo, 'config', '--local', 'credential.helper', 'store');
    git(repo, 'config', '--local', 'credential.https://github.com.helper', '!f() { echo password=x; }; f');
    git(repo, 'remote', 'add', 'origin', 'https://x-access-token:c2VjcmV0@github.com/octo/widgets.git');
    git(repo, 'remote', 'add', 'mirror', 'https://github.com/octo/widgets.git');
    const before = localConfig();

    const cleanup = await removePersistedCredentials(runnerGit);
    expect(cleanup).toEqual({
      removed: [],
      kept: ['credential.helper', 'credential.https://github.com.helper', 'remote.origin.url'],
    });
    expect(localConfig()).toBe(before);
  });
});
