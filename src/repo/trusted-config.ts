import { fetchBranch } from './branch.js';
import type { Git } from './git.js';

/**
 * What decides what a run may do (the config file, with its MCP server commands, allowed commands
 * and prices) is read from the default branch's commit, out of git's objects: the work tree is a
 * pull request's head or what an earlier command left there, and neither may configure the host.
 */

/** The default branch and the commit it pointed at when the run fetched it. */
export interface TrustedBase {
  ref: string;
  sha: string;
}

/** A commit id as git prints it (SHA-1 or SHA-256); anything else never reaches git's command line. */
const commitId = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** `mode type oid<TAB>path`, as `ls-tree -z` (without -l) prints one entry. */
const entryLine = /^(\d{6}) (\w+) ([0-9a-f]+)\t(.*)$/s;

/**
 * The text of `file` in commit `sha`, or undefined when the commit has no file there. A path that
 * names a directory, submodule or symlink is an error, not a missing file: reading the config from
 * anywhere but the file itself would be a guess. Other git failures (an unknown commit) throw.
 * git's output is trimmed, which no YAML or Markdown reader minds.
 */
export async function readFileAtCommit(git: Git, sha: string, file: string): Promise<string | undefined> {
  if (!commitId.test(sha)) throw new Error(`not a commit id: "${sha}"`);
  if (
    file === '' ||
    file.startsWith('/') ||
    file.split('/').some((part) => part === '..' || part === '.' || part === '')
  ) {
    throw new Error(`not a path inside the repository: "${file}"`);
  }
  // Literal pathspecs: the path is configuration, and may hold glob characters. Full tree: the path
  // is from the repository's root whatever directory git runs in.
  const listing = await git(['--literal-pathspecs', 'ls-tree', '-z', '--full-tree', sha, '--', file]);
  const entry = listing
    .split('\0')
    .map((line) => entryLine.exec(line))
    .find((m) => m?.[4] === file);
  if (!entry) return undefined;
  const [, mode, type, oid] = entry;
  if (type !== 'blob' || mode === '120000') {
    const what = type === 'tree' ? 'a directory' : type === 'commit' ? 'a submodule' : 'a symbolic link';
    throw new Error(`${file} is ${what} in commit ${sha.slice(0, 7)}, not a file`);
  }
  return git(['cat-file', 'blob', oid ?? '']);
}

/** Branch names git and GitHub accept that are also safe inside a refspec. */
function isBranchName(ref: string): boolean {
  return (
    ref !== '' &&
    !ref.startsWith('-') &&
    !/[\s:~^?*[\\]|\.\.|@\{|\/\/|^\/|\/$|\.lock$|\.$/.test(ref) &&
    !ref.split('/').some((part) => part.startsWith('.'))
  );
}

/**
 * Fetches the default branch from origin and returns the commit it points at: the one commit the
 * run's configuration and, for work on another branch, its repository instructions come from.
 */
export async function trustedBase(git: Git, defaultBranch: string): Promise<TrustedBase> {
  if (!isBranchName(defaultBranch)) throw new Error(`"${defaultBranch}" is not a branch name`);
  return { ref: defaultBranch, sha: await fetchBranch(git, defaultBranch) };
}
