import { execFileSync } from 'node:child_process';

/** A person line of a commit object, as GitHub's git data API shows it. */
export interface GitPerson {
  name: string;
  email: string;
  /** ISO 8601, as GitHub formats it. */
  date: string;
}

/** A commit object as read from the bare repository. */
export interface GitCommitObject {
  sha: string;
  tree: string;
  parents: string[];
  author: GitPerson;
  committer: GitPerson;
  message: string;
}

/**
 * What the GitHub emulator asks of (and, for the git data API, does to) the bare repository that
 * plays `origin`, so pull requests, commits and refs are accepted or refused on the same facts
 * GitHub would use. Synchronous on purpose: the emulator's setup helpers stay synchronous, git on a
 * local bare repository answers in milliseconds, and a synchronous handler is never interleaved
 * with another request's, which is what makes each ref update atomic across concurrent clients.
 */
export interface OriginRepo {
  /** The commit a branch points at, or undefined when the branch does not exist. */
  branchSha(branch: string): string | undefined;
  /** Whether `ancestor` is reachable from `descendant` (true when they are the same commit). */
  isAncestor(ancestor: string, descendant: string): boolean;
  /** What GitHub shows for a pull request from `head` into `base`. */
  diffStats(
    base: string,
    head: string,
  ): { commits: number; additions: number; deletions: number; changedFiles: number };
  /** The files a pull request from `head` into `base` changes, with line counts (binary files count none). */
  fileStats(base: string, head: string): { path: string; additions: number; deletions: number }[];
  /** `commit`, `tree`, `blob` or `tag` for an existing object, undefined for a missing or malformed sha. */
  objectType(sha: string): string | undefined;
  /** Writes a commit object with `git commit-tree`; the message is stored byte for byte. */
  createCommit(input: {
    tree: string;
    parents: readonly string[];
    message: string;
    author: GitPerson;
    committer: GitPerson;
  }): string;
  readCommit(sha: string): GitCommitObject | undefined;
  /** Whether git accepts `ref` (a full name, `refs/...`) as a reference name. */
  validRefName(ref: string): boolean;
  /** The sha a full ref name points at, or undefined. */
  refSha(ref: string): string | undefined;
  /** Creates `ref` only if it does not exist yet (git's compare-and-swap against "absent"). */
  createRef(ref: string, sha: string): boolean;
  /** Moves `ref` from `expected` to `sha`; false when it no longer points at `expected`. */
  updateRef(ref: string, sha: string, expected: string): boolean;
  /** Deletes `ref` if it still points at `expected`. */
  deleteRef(ref: string, expected: string): boolean;
}

const SHA = /^[0-9a-f]{40}$/;

/** `Name <email> 1704067201 +0000` into GitHub's shape. */
function parsePerson(line: string): GitPerson {
  const match = /^(.*) <(.*)> (\d+) ([+-])(\d{2})(\d{2})$/.exec(line);
  if (!match) throw new Error(`unreadable person line in a commit: ${line}`);
  const [, name = '', email = '', seconds = '0', sign, hours = '00', minutes = '00'] = match;
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
  const local = new Date((Number(seconds) + offsetMinutes * 60) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  const zone = offsetMinutes === 0 ? 'Z' : `${sign}${hours}:${minutes}`;
  return { name, email, date: `${local}${zone}` };
}

function git(
  gitDir: string,
  args: readonly string[],
  options: { input?: string; env?: NodeJS.ProcessEnv } = {},
): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], {
    encoding: 'utf8',
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.env === undefined ? {} : { env: { ...process.env, ...options.env } }),
  });
}

/** Runs git and answers whether it succeeded; a failure is git's "no". */
function gitSucceeds(gitDir: string, args: readonly string[]): boolean {
  try {
    git(gitDir, args);
    return true;
  } catch {
    return false;
  }
}

/** A ref name safe to pass to git: full, and never read as an option. */
function safeRef(ref: string): boolean {
  return ref.startsWith('refs/') && !ref.includes('\0');
}

/**
 * Opens a bare repository by path. Refs are read from git on every call, so pushes made during a
 * test are seen; what git says about objects named by sha (which never change) is asked once: a
 * pull request's figures are read again on every request that shows it.
 */
export function openOrigin(gitDir: string): OriginRepo {
  const known = new Map<string, unknown>();
  const aboutObjects = <T>(shas: readonly string[], question: string, answer: () => T): T => {
    if (!shas.every((sha) => SHA.test(sha))) return answer();
    const key = `${question} ${shas.join(' ')}`;
    if (known.has(key)) return known.get(key) as T;
    const value = answer();
    known.set(key, value);
    return value;
  };
  const objectType = (sha: string): string | undefined => {
    if (!SHA.test(sha)) return undefined;
    try {
      // Only a found object is remembered: a missing one may be pushed later.
      return aboutObjects([sha], 'type', () => git(gitDir, ['cat-file', '-t', sha]).trim());
    } catch {
      return undefined;
    }
  };
  const fileStats = (base: string, head: string) =>
    aboutObjects([base, head], 'files', () =>
      git(gitDir, ['diff', '--numstat', `${base}...${head}`])
        .split('\n')
        .map((line) => line.split('\t'))
        .filter((parts): parts is [string, string, string] => parts.length === 3)
        // Binary files show '-' for both counts; GitHub counts them as changed with no lines.
        .map(([added, deleted, path]) => ({ path, additions: Number(added) || 0, deletions: Number(deleted) || 0 })),
    );
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
      return aboutObjects([ancestor, descendant], 'ancestor', () => {
        try {
          git(gitDir, ['merge-base', '--is-ancestor', ancestor, descendant]);
          return true;
        } catch (error) {
          // Exit status 1 is git's "no"; anything else is a real failure worth surfacing.
          if ((error as { status?: unknown }).status === 1) return false;
          throw error;
        }
      });
    },
    fileStats,
    diffStats(base, head) {
      return aboutObjects([base, head], 'stats', () => {
        const files = fileStats(base, head);
        return {
          commits: Number(git(gitDir, ['rev-list', '--count', `${base}..${head}`]).trim()),
          additions: files.reduce((sum, file) => sum + file.additions, 0),
          deletions: files.reduce((sum, file) => sum + file.deletions, 0),
          changedFiles: files.length,
        };
      });
    },
    objectType,
    createCommit(input) {
      const args = ['commit-tree', input.tree];
      for (const parent of input.parents) args.push('-p', parent);
      const env = {
        GIT_AUTHOR_NAME: input.author.name,
        GIT_AUTHOR_EMAIL: input.author.email,
        GIT_AUTHOR_DATE: input.author.date,
        GIT_COMMITTER_NAME: input.committer.name,
        GIT_COMMITTER_EMAIL: input.committer.email,
        GIT_COMMITTER_DATE: input.committer.date,
      };
      // From stdin, not -m: commit-tree then keeps the message exactly, trailing newline or not.
      return git(gitDir, args, { input: input.message, env }).trim();
    },
    readCommit(sha) {
      if (objectType(sha) !== 'commit') return undefined;
      const raw = git(gitDir, ['cat-file', 'commit', sha]);
      const split = raw.indexOf('\n\n');
      const headers = (split === -1 ? raw : raw.slice(0, split)).split('\n');
      const message = split === -1 ? '' : raw.slice(split + 2);
      const value = (key: string) => headers.filter((h) => h.startsWith(`${key} `)).map((h) => h.slice(key.length + 1));
      return {
        sha,
        tree: value('tree')[0] ?? '',
        parents: value('parent'),
        author: parsePerson(value('author')[0] ?? ''),
        committer: parsePerson(value('committer')[0] ?? ''),
        message,
      };
    },
    validRefName(ref) {
      return safeRef(ref) && gitSucceeds(gitDir, ['check-ref-format', ref]);
    },
    refSha(ref) {
      if (!safeRef(ref)) return undefined;
      try {
        return git(gitDir, ['rev-parse', '--verify', '--quiet', `${ref}^{object}`]).trim();
      } catch {
        return undefined;
      }
    },
    createRef(ref, sha) {
      // An empty old value makes git refuse when the ref exists: create-if-absent in one step.
      return safeRef(ref) && SHA.test(sha) && gitSucceeds(gitDir, ['update-ref', ref, sha, '']);
    },
    updateRef(ref, sha, expected) {
      return (
        safeRef(ref) && SHA.test(sha) && SHA.test(expected) && gitSucceeds(gitDir, ['update-ref', ref, sha, expected])
      );
    },
    deleteRef(ref, expected) {
      return safeRef(ref) && SHA.test(expected) && gitSucceeds(gitDir, ['update-ref', '-d', ref, expected]);
    },
  };
}
