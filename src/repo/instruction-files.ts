import path from 'node:path';
import type { Git } from './git.js';

/**
 * The files a repository keeps for coding agents, read from one commit's tree rather than the work
 * tree: the executor may rewrite the work tree, and a plan is bound to its base commit, so only
 * that commit's files say what the maintainers asked for.
 */

/** Read in this order; a file missing from the commit is skipped. */
export const INSTRUCTION_FILES = ['AGENTS.md', '.github/copilot-instructions.md', 'CLAUDE.md'] as const;

/** A blob larger than this is not read at all: only a bounded part of it could be used anyway. */
export const MAX_READ_BYTES = 256 * 1024;

/** Symlinks followed per file before giving up (a cycle, or a chain nobody means). */
const MAX_LINK_HOPS = 4;

export interface InstructionFile {
  /** The path it was asked for under, e.g. `CLAUDE.md` even when that is a symlink. */
  path: string;
  /** Size of the blob in bytes. */
  bytes: number;
  /** The text; absent when the blob is over MAX_READ_BYTES and was not read. */
  content?: string;
}

interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  bytes: number;
}

const entryLine = /^(\d{6}) (\w+) ([0-9a-f]+) +(\d+|-)\t(.*)$/s;

/**
 * The commit's tree entries at these paths, keyed by path; a path the commit has nothing at is
 * absent. One git process for all of them: most repositories hold none of the files, and each
 * process costs more than the listing.
 */
async function treeEntries(git: Git, commit: string, files: readonly string[]): Promise<Map<string, TreeEntry>> {
  // Literal pathspecs: a symlink target is repository content and may hold glob characters.
  const out = await git(['--literal-pathspecs', 'ls-tree', '-z', '-l', commit, '--', ...files]);
  const entries = new Map<string, TreeEntry>();
  for (const line of out.split('\0')) {
    const m = entryLine.exec(line);
    const file = m?.[5];
    if (m && file !== undefined && files.includes(file)) {
      entries.set(file, {
        mode: m[1] ?? '',
        type: m[2] ?? '',
        oid: m[3] ?? '',
        bytes: m[4] === '-' ? 0 : Number(m[4]),
      });
    }
  }
  return entries;
}

/** Where a symlink at `from` points inside the tree; undefined when it leaves the repository. */
function linkTarget(from: string, target: string): string | undefined {
  if (target === '' || target.startsWith('/')) return undefined;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(from), target));
  return resolved === '..' || resolved.startsWith('../') || resolved === '.' ? undefined : resolved;
}

/**
 * Follows in-tree symlinks (CLAUDE.md -> AGENTS.md is common) to a regular file's entry, starting
 * from `file`'s own entry as already listed.
 */
async function regularFile(
  git: Git,
  commit: string,
  file: string,
  listed: TreeEntry | undefined,
): Promise<TreeEntry | undefined> {
  let at = file;
  for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
    const entry = hop === 0 ? listed : (await treeEntries(git, commit, [at])).get(at);
    if (!entry || entry.type !== 'blob') return undefined;
    if (entry.mode !== '120000') return entry;
    const next = linkTarget(at, await git(['cat-file', 'blob', entry.oid]));
    if (next === undefined) return undefined;
    at = next;
  }
  return undefined;
}

/**
 * The instruction files present in `commit`, in INSTRUCTION_FILES order. Missing paths, directories,
 * submodules and symlinks leaving the repository are skipped; a file whose content another listed
 * file already holds (a symlink or a copy) is given once, under the first name.
 */
export async function readInstructionFiles(git: Git, commit: string): Promise<InstructionFile[]> {
  // A commit given by a caller goes onto git's command line: it must not read as an option.
  if (commit === '' || commit.startsWith('-')) throw new Error(`not a commit: "${commit}"`);
  const seen = new Set<string>();
  const files: InstructionFile[] = [];
  const listed = await treeEntries(git, commit, INSTRUCTION_FILES);
  for (const file of INSTRUCTION_FILES) {
    const entry = await regularFile(git, commit, file, listed.get(file));
    if (!entry || seen.has(entry.oid)) continue;
    seen.add(entry.oid);
    if (entry.bytes > MAX_READ_BYTES) {
      files.push({ path: file, bytes: entry.bytes });
      continue;
    }
    files.push({ path: file, bytes: entry.bytes, content: await git(['cat-file', 'blob', entry.oid]) });
  }
  return files;
}
