import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createGit, type Git } from '../../src/repo/git.js';
import { readFileAtCommit, trustedBase } from '../../src/repo/trusted-config.js';
import { readInputs, SettingsError } from '../../src/config/settings.js';
import { trustedSettings } from '../../src/entry/trusted-settings.js';
import { git, makeOriginAndClone, writeFiles, type OriginAndClone } from './tools-git-fixture.js';

/**
 * Real git: a bare `origin` whose `main` a maintainer pushes to, and the runner's clone, whose work
 * tree and pull request branches say something else. Only the default branch's commit may count.
 */

const config = 'tasks:\n  - name: deps\n    objective: Update dependencies\n';

let repos: OriginAndClone;
let maintainer: string;
let workspace: string;
let runnerGit: Git;
let mainSha: string;

const rev = (dir: string, ref: string) => git(dir, 'rev-parse', ref).trim();

function push(branch: string, files: Record<string, string>): string {
  writeFiles(maintainer, files);
  git(maintainer, 'add', '-A');
  git(maintainer, 'commit', '-q', '-m', `change ${branch}`);
  git(maintainer, 'push', '-q', '--force', 'origin', `HEAD:refs/heads/${branch}`);
  return rev(maintainer, 'HEAD');
}

beforeEach(() => {
  repos = makeOriginAndClone({
    'README.md': '# widgets\n',
    '.github/plangate.yml': config,
    'docs/[a].md': 'glob\n',
    'docs/a.md': 'plain\n',
  });
  ({ maintainer, workspace } = repos);
  mainSha = rev(maintainer, 'HEAD');
  runnerGit = createGit(workspace);
});

afterEach(() => {
  repos.remove();
  vi.restoreAllMocks();
});

describe('readFileAtCommit', () => {
  it("reads the commit's bytes, not the work tree's", async () => {
    writeFiles(workspace, { '.github/plangate.yml': 'mcp-servers:\n  evil:\n    command: sh\n' });
    expect(await readFileAtCommit(runnerGit, mainSha, '.github/plangate.yml')).toBe(config.trim());
  });

  it('gives undefined for a file, or a directory on its path, the commit does not hold', async () => {
    expect(await readFileAtCommit(runnerGit, mainSha, '.github/other.yml')).toBeUndefined();
    expect(await readFileAtCommit(runnerGit, mainSha, 'ops/plangate.yml')).toBeUndefined();
    // Only in the work tree: still missing from the commit.
    writeFiles(workspace, { 'ops/plangate.yml': config });
    expect(await readFileAtCommit(runnerGit, mainSha, 'ops/plangate.yml')).toBeUndefined();
  });

  it('takes the path literally, glob characters and all', async () => {
    expect(await readFileAtCommit(runnerGit, mainSha, 'docs/[a].md')).toBe('glob');
    expect(await readFileAtCommit(runnerGit, mainSha, 'docs/*.md')).toBeUndefined();
  });

  it('reads from the root whatever directory git runs in', async () => {
    expect(await readFileAtCommit(createGit(path.join(workspace, 'docs')), mainSha, 'README.md')).toBe('# widgets');
  });

  it('refuses a directory, a symlink and a submodule rather than guess', async () => {
    fs.symlinkSync('README.md', path.join(maintainer, 'link.md'));
    git(maintainer, 'add', 'link.md');
    // A gitlink without a checkout of its own: `add -A` would drop it, so it is committed as staged.
    git(maintainer, 'update-index', '--add', '--cacheinfo', `160000,${mainSha},vendor/lib`);
    git(maintainer, 'commit', '-q', '-m', 'link and submodule');
    git(maintainer, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
    const sha = rev(maintainer, 'HEAD');
    await runnerGit(['fetch', '-q', 'origin', 'main']);
    await expect(readFileAtCommit(runnerGit, sha, '.github')).rejects.toThrow('.github is a directory');
    await expect(readFileAtCommit(runnerGit, sha, 'link.md')).rejects.toThrow('link.md is a symbolic link');
    await expect(readFileAtCommit(runnerGit, sha, 'vendor/lib')).rejects.toThrow('vendor/lib is a submodule');
  });

  it('throws when the commit is unknown, and never hands git a malformed id or path', async () => {
    await expect(readFileAtCommit(runnerGit, 'f'.repeat(40), '.github/plangate.yml')).rejects.toThrow(
      /git ls-tree failed/,
    );
    await expect(readFileAtCommit(runnerGit, '--output=x', '.github/plangate.yml')).rejects.toThrow('not a commit id');
    await expect(readFileAtCommit(runnerGit, 'main', '.github/plangate.yml')).rejects.toThrow('not a commit id');
    for (const bad of ['', '/etc/passwd', '../x.yml', 'a/../x.yml', './x.yml', 'a//b']) {
      await expect(readFileAtCommit(runnerGit, mainSha, bad), bad).rejects.toThrow('not a path inside the repository');
    }
  });
});

describe('trustedBase', () => {
  it("fetches the default branch and returns origin's commit, not the checkout's", async () => {
    git(workspace, 'checkout', '-q', '-b', 'pr-head');
    writeFiles(workspace, { '.github/plangate.yml': 'prices: {}\n' });
    git(workspace, 'add', '-A');
    git(workspace, 'commit', '-q', '-m', 'head');
    const later = push('main', { 'CHANGELOG.md': 'later\n' });
    expect(await trustedBase(runnerGit, 'main')).toEqual({ ref: 'main', sha: later });
  });

  it('throws for a branch origin does not have, or a name that is no branch', async () => {
    await expect(trustedBase(runnerGit, 'trunk')).rejects.toThrow(/git fetch failed/);
    for (const bad of ['', '-upload-pack=x', 'a:b', 'a..b', 'refs/heads/*']) {
      await expect(trustedBase(runnerGit, bad), bad).rejects.toThrow('is not a branch name');
    }
  });
});

describe('trustedSettings', () => {
  function inputs(overrides: Record<string, string> = {}) {
    // readInputs masks secrets with runner commands on stdout; keep the test output clean.
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    for (const key of Object.keys(process.env)) if (key.startsWith('INPUT_')) vi.stubEnv(key, '');
    for (const [name, value] of Object.entries(overrides)) vi.stubEnv(`INPUT_${name.toUpperCase()}`, value);
    return readInputs({
      GITHUB_EVENT_NAME: 'issue_comment',
      GITHUB_EVENT_PATH: '/tmp/event.json',
      GITHUB_REPOSITORY: 'octo/widgets',
      GITHUB_WORKSPACE: workspace,
    });
  }
  afterEach(() => vi.unstubAllEnvs());
  const noLookUp = () => Promise.reject(new Error('the API must not be asked'));

  it("reads the config at the payload's default branch, whatever the work tree holds", async () => {
    writeFiles(workspace, { '.github/plangate.yml': 'mcp-servers:\n  evil:\n    command: sh\n' });
    const { settings, trusted } = await trustedSettings(
      inputs(),
      { repository: { default_branch: 'main' } },
      runnerGit,
      noLookUp,
    );
    expect(trusted).toEqual({ ref: 'main', sha: mainSha });
    expect(settings.config).toEqual({ tasks: [{ name: 'deps', objective: 'Update dependencies' }] });
    expect(settings.mcpServers).toEqual([]);
  });

  it('asks the API for the default branch when the payload names none', async () => {
    const trunk = push('trunk', { '.github/plangate.yml': 'plan-max-age-days: 3\n' });
    const { settings, trusted } = await trustedSettings(inputs(), { repository: {} }, runnerGit, () =>
      Promise.resolve('trunk'),
    );
    expect(trusted).toEqual({ ref: 'trunk', sha: trunk });
    expect(settings.config).toEqual({ 'plan-max-age-days': 3 });
  });

  it('runs with an empty config when the default branch has no file', async () => {
    const { settings } = await trustedSettings(
      inputs({ 'config-file': 'ops/plangate.yml' }),
      { repository: { default_branch: 'main' } },
      runnerGit,
      noLookUp,
    );
    expect(settings.config).toEqual({});
  });

  it('says what could not be fetched or read, and where a broken config is', async () => {
    await expect(
      trustedSettings(inputs(), { repository: { default_branch: 'trunk' } }, runnerGit, noLookUp),
    ).rejects.toThrow(/^Could not fetch the default branch trunk to read \.github\/plangate\.yml: git fetch failed/);
    await expect(trustedSettings(inputs(), undefined, runnerGit, noLookUp)).rejects.toThrow(
      "Could not look up the repository's default branch to read .github/plangate.yml: the API must not be asked",
    );
    const broken = push('main', { '.github/plangate.yml': 'tasks: nope\n' });
    const failure = trustedSettings(inputs(), { repository: { default_branch: 'main' } }, runnerGit, noLookUp);
    await expect(failure).rejects.toBeInstanceOf(SettingsError);
    await expect(failure).rejects.toThrow(
      `On main (${broken.slice(0, 7)}): \`tasks\` in .github/plangate.yml must be a list, not \`nope\`.`,
    );
  });
});
