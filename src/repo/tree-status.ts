import { GitError, type Git } from './git.js';

/**
 * What the work tree and the index hold against HEAD, read with git's machine formats: the commit
 * gate (change-gate.ts) decides on these lists.
 */

/** How a path differs from HEAD; a rename is a deletion and an addition. */
export type ChangeKind = 'added' | 'modified' | 'deleted' | 'mode' | 'type';

export const gitlinkMode = '160000';
export const absentMode = '000000';
/** Paths per git call, and their characters: well within the kernel's argument limits. */
const maxBatchPaths = 500;
const maxBatchChars = 60_000;

/** One changed path as `git status` reports it, before anything is staged. */
export interface Candidate {
  path: string;
  change: ChangeKind;
  /** A directory git reports as a repository of its own (`sub/`), which `git add` would embed. */
  nested: boolean;
  /** For a regular file whose mode changed: the blob HEAD has, to tell a mode change from an edit. */
  headBlob?: string;
}

/** Whether the repository has a commit at HEAD (a new one has none). */
export async function hasHead(git: Git): Promise<boolean> {
  try {
    await git(['rev-parse', '--quiet', '--verify', 'HEAD^{commit}']);
    return true;
  } catch (error) {
    if (error instanceof GitError && error.exitCode === 1) return false;
    throw error;
  }
}

/**
 * Every path whose index or work-tree state differs from HEAD, untracked files included (each
 * file, not its directory), renames as deletion and addition. A submodule counts when its checked
 * out commit moved; edits inside it are its own (and `dirty` reads its HEAD without running git in
 * it). Porcelain v2 lines start with a letter, digit or `?`, so the runner's trimming cannot eat a
 * path's first space.
 */
export async function changedPaths(git: Git): Promise<Candidate[]> {
  const out = await git([
    'status',
    '--porcelain=v2',
    '-z',
    '--untracked-files=all',
    '--ignore-submodules=dirty',
    '--no-renames',
  ]);
  const records = out.split('\0');
  const candidates: Candidate[] = [];
  for (let i = 0; i < records.length; i += 1) {
    const record = records[i] ?? '';
    const fields = record.split(' ');
    switch (record[0]) {
      case '1': {
        // 1 XY sub mH mI mW hH hI path
        const [, , , mH = absentMode, , mW = absentMode, hH = ''] = fields;
        candidates.push(tracked(fields.slice(8).join(' '), mH, mW, hH));
        break;
      }
      case '2': {
        // 2 XY sub mH mI mW hH hI score path NUL origPath (only if renames were on after all)
        const [, , , mH = absentMode, , mW = absentMode] = fields;
        const from = records[i + 1] ?? '';
        i += 1;
        candidates.push({
          path: fields.slice(9).join(' '),
          change: mW === absentMode ? 'deleted' : 'added',
          nested: false,
        });
        if (from !== '' && mH !== absentMode) candidates.push({ path: from, change: 'deleted', nested: false });
        break;
      }
      case 'u':
        // u XY sub m1 m2 m3 mW h1 h2 h3 path: a conflict left by hand; stage 2 is HEAD's side.
        candidates.push({
          path: fields.slice(10).join(' '),
          change: fields[4] === absentMode ? 'added' : 'modified',
          nested: false,
        });
        break;
      case '?': {
        const path = record.slice(2);
        // Untracked files are listed one by one; a directory only when git sees a repository in it.
        if (path.endsWith('/')) candidates.push({ path: path.replace(/\/+$/, ''), change: 'added', nested: true });
        else candidates.push({ path, change: 'added', nested: false });
        break;
      }
      default:
        break;
    }
  }
  return candidates;
}

/**
 * A tracked path's change from HEAD to what staging it would record. A repository standing where a
 * file was shows as a type change to a gitlink: nested, like a new one.
 */
function tracked(path: string, headMode: string, treeMode: string, headBlob: string): Candidate {
  const nested = treeMode === gitlinkMode && headMode !== gitlinkMode;
  if (headMode === absentMode) return { path, change: 'added', nested };
  if (treeMode === absentMode) return { path, change: 'deleted', nested: false };
  if (fileType(headMode) !== fileType(treeMode)) return { path, change: 'type', nested };
  if (headMode !== treeMode && fileType(headMode) === '10')
    return { path, change: 'modified', nested: false, headBlob };
  return { path, change: 'modified', nested: false };
}

/** `10` regular file, `12` symlink, `16` gitlink. */
export function fileType(mode: string): string {
  return mode.slice(0, 2);
}

export interface StagedChange {
  path: string;
  srcMode: string;
  dstMode: string;
  change: ChangeKind;
}

/**
 * The index against HEAD (or against nothing in a repository without a commit), with modes;
 * submodule entries always shown, whatever the configuration says, since the commit takes them.
 */
export async function stagedChanges(git: Git, head: boolean): Promise<StagedChange[]> {
  const out = await git([
    'diff',
    '--cached',
    '--raw',
    '--no-abbrev',
    '-z',
    '--no-renames',
    '--no-ext-diff',
    '--no-textconv',
    '--ignore-submodules=none',
    ...(head ? ['HEAD'] : []),
    '--',
  ]);
  const tokens = out.split('\0');
  const changes: StagedChange[] = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    // :srcMode dstMode srcSha dstSha STATUS NUL path
    const [srcMode = '', dstMode = '', srcSha = '', dstSha = '', status = ''] = (tokens[i] ?? '')
      .replace(/^:/, '')
      .split(' ');
    const path = tokens[i + 1] ?? '';
    changes.push({ path, srcMode, dstMode, change: stagedKind(status, srcMode, dstMode, srcSha === dstSha) });
  }
  return changes;
}

function stagedKind(status: string, srcMode: string, dstMode: string, sameContent: boolean): ChangeKind {
  if (status.startsWith('A') || srcMode === absentMode) return 'added';
  if (status.startsWith('D') || dstMode === absentMode) return 'deleted';
  if (status.startsWith('T') || fileType(srcMode) !== fileType(dstMode)) return 'type';
  if (srcMode !== dstMode && sameContent) return 'mode';
  return 'modified';
}

export function* batches(paths: readonly string[]): Generator<string[]> {
  let batch: string[] = [];
  let chars = 0;
  for (const path of paths) {
    if (batch.length > 0 && (batch.length >= maxBatchPaths || chars + path.length > maxBatchChars)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(path);
    chars += path.length + 1;
  }
  if (batch.length > 0) yield batch;
}
