import { execFileSync } from 'node:child_process';

/**
 * Read-only questions the GitHub emulator asks the bare repository that plays `origin`, so pull
 * requests are accepted or refused on the same facts GitHub would use. Synchronous on purpose: the
 * emulator's setup helpers stay synchronous, and git on a local bare repository answers in
 * milliseconds.
 */
export interface OriginRepo {
  /** The commit a branch points at, or undefined when the branch does not exist. */
  branchSha(branch: string): string | undefined;
  /** Whether `ancestor` is reachable from `descendant` (true when they are the same commit). */
  isAncestor(ancestor: string, descendant: string): boolean;
  /** What GitHub shows for a pull request from `head` into `base`. */
  diffStats(base: string, head: string): { commits: number; additions: number; deletions: number; changedFiles: number };
}

function git(gitDir: string, args: readonly string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Opens a bare repository by path; nothing is cached, so pushes made during a test are seen. */
export function openOrigin(gitDir: string): OriginRepo {
  return {
    branchSha(branch) {
      // A leading '-' would turn the name into an option; GitHub refuses such names too.
      if (branch === '' || branch.startsWith('-')) return undefined;
      try {
        return git(gitDir, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]).trim();
      } catch {
        return undefined;
      }
    },
    isAncestor(ancestor, descendant) {
      try {
        git(gitDir, ['merge-base', '--is-ancestor', ancestor, descendant]);
        return true;
      } catch (error) {
        // Exit status 1 is git's "no"; anything else is a real failure worth surfacing.
        if ((error as { status?: unknown }).status === 1) return false;
        throw error;
      }
    },
    diffStats(base, head) {
      const commits = Number(git(gitDir, ['rev-list', '--count', `${base}..${head}`]).trim());
      let additions = 0;
      let deletions = 0;
      let changedFiles = 0;
      for (const line of git(gitDir, ['diff', '--numstat', `${base}...${head}`]).split('\n')) {
        const [added, deleted] = line.split('\t');
        if (added === undefined || deleted === undefined) continue;
        changedFiles += 1;
        // Binary files show '-' for both counts; GitHub counts them as changed with no lines.
        additions += Number(added) || 0;
        deletions += Number(deleted) || 0;
      }
      return { commits, additions, deletions, changedFiles };
    },
  };
}
