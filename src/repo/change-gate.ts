import { matchProtected } from '../text/protected-paths.js';
import { hasDotGitComponent } from '../text/dot-git.js';
import { GitError, type Git } from './git.js';

/**
 * The commit gate. The file tools refuse protected paths, but a command the executor runs can write
 * anything its account may, so what lands is checked as a change, not per tool: before every commit
 * the work tree's changes are staged path by path and every change no one may commit is kept out,
 * whoever wrote it.
 */

/** How a path differs from HEAD; a rename is a deletion and an addition. */
export type ChangeKind = 'added' | 'modified' | 'deleted' | 'mode' | 'type';

/** A change the gate kept out of the commit, for the run's report and the executor. */
export interface KeptOutChange {
  path: string;
  change: ChangeKind;
  /** Why, in a few words: `protected by .github/workflows/**`, `a .git path`, `a nested git repository`. */
  reason: string;
}

const gitlinkMode = '160000';
const absentMode = '000000';
const dotGitReason = 'a .git path';
const nestedReason = 'a nested git repository';
const protectedPrefix = 'protected by ';

/** Paths per git call, and their characters: well within the kernel's argument limits. */
const maxBatchPaths = 500;
const maxBatchChars = 60_000;

/** A change the gate decided on; `restore` marks a protected path whose work-tree change is undone. */
interface Decision extends KeptOutChange {
  restore: boolean;
  /** Whether HEAD has the path: restored from HEAD when it does, removed from disk when not. */
  inHead: boolean;
}

/** One changed path as `git status` reports it, before anything is staged. */
interface Candidate {
  path: string;
  change: ChangeKind;
  /** A directory git reports as a repository of its own (`sub/`), which `git add` would embed. */
  nested: boolean;
  /** For a regular file whose mode changed: the blob HEAD has, to tell a mode change from an edit. */
  headBlob?: string;
}

/**
 * Stages the work tree's changes (additions, edits, deletions, mode and type changes, symlinks,
 * submodule entries) except those no one may commit: anything under a `.git` component in any
 * spelling, a new nested repository, and changes to `protectedPaths`. Protected changes are also
 * undone in the work tree (restored from HEAD, or removed when new), so the tree matches what lands;
 * `.git` paths and nested repositories stay on disk, never staged. Blocked paths are never handed to
 * `git add`, which would abort on some of them; what is staged is then checked again, so a change
 * that got into the index another way is unstaged too. Returns what was kept out, sorted by path.
 *
 * Runs git at the top of the work tree (as createGit(workspace) does); the index is plangate's.
 */
export async function stageChecked(git: Git, protectedPaths: readonly string[]): Promise<KeptOutChange[]> {
  const prefix = await git(['rev-parse', '--show-prefix']);
  if (prefix !== '') throw new Error(`The commit gate must run at the top of the work tree, not in ${prefix}.`);
  const head = await hasHead(git);

  const candidates = await changedPaths(git);
  const decided = new Map<string, Decision>();
  const allowed: Candidate[] = [];
  for (const candidate of candidates) {
    const reason = candidate.nested && !hasDotGitComponent(candidate.path) ? nestedReason : blockReason(candidate.path, protectedPaths);
    if (reason === undefined) allowed.push(candidate);
    else remember(decided, decision(candidate.path, candidate.change, reason, candidate.change !== 'added'));
  }
  // A file or symlink where a blocked path's directory was would take the blocked path with it
  // (git stages `dir` and everything under it), and a path reported twice (a tracked file deleted
  // where a nested repository now is) would stage the blocked one: both are kept out with it.
  const inTheWay = ancestorsOf(decided);
  const toStage: Candidate[] = [];
  for (const candidate of allowed) {
    const blocked = decided.get(candidate.path) ?? inTheWay.get(candidate.path);
    if (blocked) remember(decided, { ...blocked, path: candidate.path, change: candidate.change, inHead: candidate.change !== 'added' });
    else toStage.push(candidate);
  }
  await tellModeChanges(git, candidates, decided);

  for (const refused of await stage(git, toStage.map((c) => c.path))) {
    const candidate = toStage.find((c) => c.path === refused.path);
    remember(decided, { path: refused.path, change: candidate?.change ?? 'modified', reason: refused.reason, restore: false, inHead: candidate?.change !== 'added' });
  }

  // What is staged is what would land: anything blocked in it, however it got there, goes out again.
  for (let round = 0; ; round += 1) {
    const staged = await stagedChanges(git, head);
    const blocked = new Map<string, Decision>();
    for (const entry of staged) {
      const nested = entry.dstMode === gitlinkMode && entry.srcMode !== gitlinkMode;
      const reason = nested && !hasDotGitComponent(entry.path) ? nestedReason : blockReason(entry.path, protectedPaths);
      if (reason !== undefined) blocked.set(entry.path, decision(entry.path, entry.change, reason, entry.srcMode !== absentMode));
    }
    const around = ancestorsOf(blocked);
    for (const entry of staged) {
      const inner = around.get(entry.path);
      if (inner && !blocked.has(entry.path)) blocked.set(entry.path, { ...inner, path: entry.path, change: entry.change, inHead: entry.srcMode !== absentMode });
    }
    if (blocked.size === 0) break;
    if (round >= 2) throw new Error(`plangate could not keep ${[...blocked.keys()].slice(0, 5).join(', ')} out of the commit.`);
    for (const entry of blocked.values()) remember(decided, entry);
    await unstage(git, [...blocked.keys()], head);
  }

  await restoreProtected(git, [...decided.values()].filter((d) => d.restore), head);
  return [...decided.values()]
    .map(({ path, change, reason }) => ({ path, change, reason }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Kept-out changes of several commits as one list: one entry per path and change (the first
 * reason given), sorted by path.
 */
export function mergeKeptOut(...lists: readonly (readonly KeptOutChange[])[]): KeptOutChange[] {
  const seen = new Map<string, KeptOutChange>();
  for (const list of lists) {
    for (const change of list) {
      const key = `${change.change}\0${change.path}`;
      if (!seen.has(key)) seen.set(key, { path: change.path, change: change.change, reason: change.reason });
    }
  }
  return [...seen.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.change < b.change ? -1 : a.change > b.change ? 1 : 0));
}

/** Why no one may commit a change at `path`, or undefined when anyone may. */
function blockReason(path: string, protectedPaths: readonly string[]): string | undefined {
  if (hasDotGitComponent(path)) return dotGitReason;
  const pattern = matchProtected(path, protectedPaths);
  return pattern === undefined ? undefined : `${protectedPrefix}${pattern}`;
}

function decision(path: string, change: ChangeKind, reason: string, inHead: boolean): Decision {
  // Only protected paths are undone: `.git` paths and nested repositories may hold the executor's
  // work, and nothing of them can land.
  return { path, change, reason, inHead, restore: reason.startsWith(protectedPrefix) };
}

/** Keeps the first decision for a path: the reason found before staging names the cause best. */
function remember(decided: Map<string, Decision>, entry: Decision): void {
  if (!decided.has(entry.path)) decided.set(entry.path, entry);
}

/** Every proper ancestor directory of the given paths, each with one blocked path under it. */
function ancestorsOf(blocked: ReadonlyMap<string, Decision>): Map<string, Decision> {
  const out = new Map<string, Decision>();
  for (const entry of blocked.values()) {
    const parts = entry.path.split('/');
    for (let i = 1; i < parts.length; i += 1) {
      const ancestor = parts.slice(0, i).join('/');
      if (!out.has(ancestor)) out.set(ancestor, entry);
    }
  }
  return out;
}

async function hasHead(git: Git): Promise<boolean> {
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
async function changedPaths(git: Git): Promise<Candidate[]> {
  const out = await git(['status', '--porcelain=v2', '-z', '--untracked-files=all', '--ignore-submodules=dirty', '--no-renames']);
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
        candidates.push({ path: fields.slice(9).join(' '), change: mW === absentMode ? 'deleted' : 'added', nested: false });
        if (from !== '' && mH !== absentMode) candidates.push({ path: from, change: 'deleted', nested: false });
        break;
      }
      case 'u':
        // u XY sub m1 m2 m3 mW h1 h2 h3 path: a conflict left by hand; stage 2 is HEAD's side.
        candidates.push({ path: fields.slice(10).join(' '), change: fields[4] === absentMode ? 'added' : 'modified', nested: false });
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
  if (headMode !== treeMode && fileType(headMode) === '10') return { path, change: 'modified', nested: false, headBlob };
  return { path, change: 'modified', nested: false };
}

/** `10` regular file, `12` symlink, `16` gitlink. */
function fileType(mode: string): string {
  return mode.slice(0, 2);
}

/**
 * For blocked regular files whose mode changed, whether their content changed too: the report says
 * `mode` for a bare chmod. Only a label, so a file the host cannot read stays `modified`.
 */
async function tellModeChanges(git: Git, candidates: readonly Candidate[], decided: Map<string, Decision>): Promise<void> {
  const ambiguous = candidates.filter((c) => c.headBlob !== undefined && decided.get(c.path)?.change === 'modified');
  for (const batch of batches(ambiguous.map((c) => c.path))) {
    const hashes = await git(['hash-object', '--no-filters', '--', ...batch]).catch(() => '');
    hashes.split('\n').forEach((hash, i) => {
      const path = batch[i];
      const candidate = ambiguous.find((c) => c.path === path);
      const entry = path === undefined ? undefined : decided.get(path);
      if (entry && candidate && hash !== '' && hash === candidate.headBlob) entry.change = 'mode';
    });
  }
}

/**
 * Stages paths literally (no glob or magic in a file name), deletions included. A batch git refuses
 * is retried path by path, so one path git will not index (a name it forbids, a file the host may
 * not read) is kept out alone instead of failing the commit; when every path fails, git's error is
 * the problem, not the paths, and it is thrown.
 */
async function stage(git: Git, paths: readonly string[]): Promise<{ path: string; reason: string }[]> {
  const refused: { path: string; reason: string }[] = [];
  for (const batch of batches(paths)) {
    const add = (list: readonly string[]) => git(['--literal-pathspecs', 'add', '--all', '--', ...list]);
    let failure: unknown;
    try {
      await add(batch);
      continue;
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      failure = error;
    }
    const before = refused.length;
    for (const path of batch) {
      try {
        await add([path]);
      } catch (error) {
        if (!(error instanceof GitError)) throw error;
        refused.push({ path, reason: `git refused to stage it (${firstLine(error.message)})` });
      }
    }
    if (batch.length > 1 && refused.length - before === batch.length) throw failure;
  }
  return refused;
}

function firstLine(message: string): string {
  const line = (message.replace(/^git \S+ failed: /, '').split('\n')[0] ?? '').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

interface StagedChange {
  path: string;
  srcMode: string;
  dstMode: string;
  change: ChangeKind;
}

/**
 * The index against HEAD (or against nothing in a repository without a commit), with modes;
 * submodule entries always shown, whatever the configuration says, since the commit takes them.
 */
async function stagedChanges(git: Git, head: boolean): Promise<StagedChange[]> {
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
    const [srcMode = '', dstMode = '', srcSha = '', dstSha = '', status = ''] = (tokens[i] ?? '').replace(/^:/, '').split(' ');
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

/** Puts the index entries of `paths` back as HEAD has them (or drops them without a commit). */
async function unstage(git: Git, paths: readonly string[], head: boolean): Promise<void> {
  for (const batch of batches(paths)) {
    if (head) await git(['--literal-pathspecs', 'reset', '--quiet', 'HEAD', '--', ...batch]);
    else await git(['--literal-pathspecs', 'rm', '--cached', '--quiet', '--ignore-unmatch', '--', ...batch]);
  }
}

/**
 * Undoes protected changes in the work tree: new paths are removed (before anything is restored,
 * since a new file may stand where a protected directory was), the others come back from HEAD.
 */
async function restoreProtected(git: Git, protectedChanges: readonly Decision[], head: boolean): Promise<void> {
  const added = protectedChanges.filter((d) => !d.inHead || !head).map((d) => d.path);
  const changed = head ? protectedChanges.filter((d) => d.inHead).map((d) => d.path) : [];
  for (const batch of batches(added)) await git(['--literal-pathspecs', 'clean', '--force', '--quiet', '--', ...batch]);
  for (const batch of batches(changed)) await git(['--literal-pathspecs', 'checkout', '--quiet', 'HEAD', '--', ...batch]);
}

function* batches(paths: readonly string[]): Generator<string[]> {
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
