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

const EXTRAHEADER = /^http\..*\.extraheader$/;

/** Removes persisted auth headers from the local config and the files it includes; no-op when none. */
export async function removePersistedCredentials(git: Git): Promise<CredentialCleanup> {
  // One read of the local config answers every question below (a git process each would be four).
  const local = await configEntries(git, ['--local']);
  const removed: string[] = [];
  for (const key of keysMatching(local, EXTRAHEADER)) {
    await git(['config', '--local', '--unset-all', key]);
    removed.push(key);
  }
  const includes = local.filter(([key]) => /^include(if\..+)?\.path$/.test(key));
  if (includes.length > 0) {
    const gitDir = await git(['rev-parse', '--absolute-git-dir']);
    for (const [, value] of includes) {
      const file = includedFile(gitDir, value);
      if (file === undefined || !existsSync(file)) continue;
      for (const key of keysMatching(await configEntries(git, ['--file', file]), EXTRAHEADER)) {
        await git(['config', '--file', file, '--unset-all', key]);
        removed.push(`${file}: ${key}`);
      }
    }
  }
  const kept: string[] = [];
  for (const [key, value] of local) {
    const helper = /^credential\.(.+\.)?helper$/.test(key);
    const passwordUrl = /^remote\..+\.(push)?url$/.test(key) && /^[a-z][a-z0-9+.-]*:\/\/[^/@]*:[^/@]*@/i.test(value);
    if ((helper || passwordUrl) && !kept.includes(key)) kept.push(key);
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

function keysMatching(entries: Array<[string, string]>, pattern: RegExp): string[] {
  return [...new Set(entries.filter(([key]) => pattern.test(key)).map(([key]) => key))];
}

/**
 * Every entry of one config scope as key/value pairs, keys in git's canonical form (section and
 * name lower-cased, as `--get-regexp` matches them); an empty or missing file is an empty list.
 */
async function configEntries(git: Git, scope: string[]): Promise<Array<[string, string]>> {
  let out: string;
  try {
    out = await git(['config', ...scope, '--null', '--list']);
  } catch (error) {
    // Exit code 1: nothing to list.
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
