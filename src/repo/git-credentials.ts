import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitError, type Git } from './git.js';

/**
 * actions/checkout leaves its token in the workspace's git configuration (`persist-credentials`,
 * on by default): before v6 as `http.<server>/.extraheader` in `.git/config`, since v6 in a file
 * under RUNNER_TEMP that `.git/config` includes. Any command the executor runs could read it from
 * there and push wherever it likes, so it goes before the executor starts; the host's own fetch
 * and push authenticate per command instead (git-auth.ts).
 */

export interface CredentialCleanup {
  /** Keys removed: `<key>` in the local config, `<file>: <key>` in a file it includes. */
  removed: string[];
  /**
   * Credential-bearing settings left in place, for the log: credential helpers and remote URLs
   * with a password. They may do more than hold a token, so plangate does not guess.
   */
  kept: string[];
}

const EXTRAHEADER = '^http\\..*\\.extraheader$';

/** Removes persisted auth headers from the local config and the files it includes; no-op when none. */
export async function removePersistedCredentials(git: Git): Promise<CredentialCleanup> {
  const removed: string[] = [];
  for (const key of await configKeys(git, ['--local'], EXTRAHEADER)) {
    await git(['config', '--local', '--unset-all', key]);
    removed.push(key);
  }
  const gitDir = await git(['rev-parse', '--absolute-git-dir']);
  for (const [, value] of await configEntries(git, ['--local'], '^include(if\\..+)?\\.path$')) {
    const file = includedFile(gitDir, value);
    if (file === undefined || !existsSync(file)) continue;
    for (const key of await configKeys(git, ['--file', file], EXTRAHEADER)) {
      await git(['config', '--file', file, '--unset-all', key]);
      removed.push(`${file}: ${key}`);
    }
  }
  const kept: string[] = [];
  for (const [key] of await configEntries(git, ['--local'], '^credential\\.(.+\\.)?helper$')) {
    if (!kept.includes(key)) kept.push(key);
  }
  for (const [key, value] of await configEntries(git, ['--local'], '^remote\\..+\\.(push)?url$')) {
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/@]*:[^/@]*@/i.test(value) && !kept.includes(key)) kept.push(key);
  }
  return { removed, kept };
}

/** Where an include path points; relative paths are relative to the including file (.git/config). */
function includedFile(gitDir: string, value: string): string | undefined {
  if (value.startsWith('~/')) return path.join(os.homedir(), value.slice(2));
  // `%(prefix)/` and `~user/` need git's own expansion; such includes are rare and left alone.
  if (value.startsWith('%(') || value.startsWith('~')) return undefined;
  return path.resolve(gitDir, value);
}

async function configKeys(git: Git, scope: string[], pattern: string): Promise<string[]> {
  return [...new Set((await configEntries(git, scope, pattern)).map(([key]) => key))];
}

/** `git config --get-regexp` as key/value pairs; none is an empty list, not an error. */
async function configEntries(git: Git, scope: string[], pattern: string): Promise<Array<[string, string]>> {
  let out: string;
  try {
    out = await git(['config', ...scope, '--null', '--get-regexp', pattern]);
  } catch (error) {
    // Exit code 1: no such key.
    if (error instanceof GitError && error.exitCode === 1) return [];
    throw error;
  }
  return out
    .split('\0')
    .filter((record) => record !== '')
    .map((record) => {
      const newline = record.indexOf('\n');
      return newline < 0 ? [record, ''] : [record.slice(0, newline), record.slice(newline + 1)];
    });
}
