import { matchProtected } from '../text/protected-paths.js';
import { inScope, type ApprovedScope } from '../scope/approved-scope.js';
import { hasDotGitComponent } from '../text/dot-git.js';
import { credentialHolds } from './credential-scan.js';
import { GitError, type Git } from './git.js';
import {
  absentMode,
  gitlinkMode,
  batches,
  changedPaths,
  hasHead,
  stagedChanges,
  type Candidate,
  type ChangeKind,
} from './tree-status.js';

export type { ChangeKind } from './tree-status.js';

/**
 * The commit gate. The file tools refuse protected paths, but a command the executor runs can write
 * anything its account may, so what lands is checked as a change, not per tool: before every commit
 * the work tree's changes are staged path by path and every change no one may commit is kept out,
 * whoever wrote it. What is then staged is read for credentials (credential-scan.ts): a change that
 * adds one is held back too.
 */

/** A change the gate kept out of the commit, for the run's report and the executor. */
export interface KeptOutChange {
  path: string;
  change: ChangeKind;
  /** Why, in a few words: `protected by .github/workflows/**`, `a .git path`, `a nested git repository`. */
  reason: string;
  /**
   * Held back for what it holds (a credential, or content too large to read), not for its path: the
   * change stays in the work tree for the executor to fix, and its content is never to be shown.
   */
  credential?: true;
}

const dotGitReason = 'a .git path';
const nestedReason = 'a nested git repository';
const protectedPrefix = 'protected by ';
/** The reason a change outside the approved scope is held back (and what the run's reports match on). */
export const outOfScopeReason = 'outside the approved scope';

/** A change the gate decided on; `restore` marks a protected path whose work-tree change is undone. */
interface Decision extends KeptOutChange {
  restore: boolean;
  /** Whether HEAD has the path: restored from HEAD when it does, removed from disk when not. */
  inHead: boolean;
}

/**
 * Stages the work tree's changes (additions, edits, deletions, mode and type changes, symlinks,
 * submodule entries) except those that may not be committed: anything under a `.git` component in
 * any spelling, a new nested repository, changes to `protectedPaths`, and (given the run's `scope`)
 * changes to paths the scope does not name, which are left in the work tree as they are. Protected changes are also
 * undone in the work tree (restored from HEAD, or removed when new), so the tree matches what lands;
 * `.git` paths and nested repositories stay on disk, never staged. Blocked paths are never handed to
 * `git add`, which would abort on some of them; what is staged is then checked again, so a change
 * that got into the index another way is unstaged too. Last, a change that adds a credential is
 * unstaged and left in the work tree. Returns what was kept out, sorted by path.
 *
 * Runs git at the top of the work tree (as createGit(workspace) does); the index is plangate's.
 */
export async function stageChecked(
  git: Git,
  protectedPaths: readonly string[],
  scope?: Pick<ApprovedScope, 'paths'>,
): Promise<KeptOutChange[]> {
  const blockReason = (path: string) => whyKeptOut(path, protectedPaths, scope);
  const prefix = await git(['rev-parse', '--show-prefix']);
  if (prefix !== '') throw new Error(`The commit gate must run at the top of the work tree, not in ${prefix}.`);
  const head = await hasHead(git);

  const candidates = await changedPaths(git);
  const decided = new Map<string, Decision>();
  const allowed: Candidate[] = [];
  for (const candidate of candidates) {
    const reason = candidate.nested && !hasDotGitComponent(candidate.path) ? nestedReason : blockReason(candidate.path);
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
    if (blocked)
      remember(decided, {
        ...blocked,
        path: candidate.path,
        change: candidate.change,
        inHead: candidate.change !== 'added',
      });
    else toStage.push(candidate);
  }
  await tellModeChanges(git, candidates, decided);

  for (const refused of await stage(
    git,
    toStage.map((c) => c.path),
  )) {
    const candidate = toStage.find((c) => c.path === refused.path);
    remember(decided, {
      path: refused.path,
      change: candidate?.change ?? 'modified',
      reason: refused.reason,
      restore: false,
      inHead: candidate?.change !== 'added',
    });
  }

  // What is staged is what would land: anything blocked in it, however it got there, goes out again.
  for (let round = 0; ; round += 1) {
    const staged = await stagedChanges(git, head);
    const blocked = new Map<string, Decision>();
    for (const entry of staged) {
      const nested = entry.dstMode === gitlinkMode && entry.srcMode !== gitlinkMode;
      const reason = nested && !hasDotGitComponent(entry.path) ? nestedReason : blockReason(entry.path);
      if (reason !== undefined)
        blocked.set(entry.path, decision(entry.path, entry.change, reason, entry.srcMode !== absentMode));
    }
    const around = ancestorsOf(blocked);
    for (const entry of staged) {
      const inner = around.get(entry.path);
      if (inner && !blocked.has(entry.path))
        blocked.set(entry.path, {
          ...inner,
          path: entry.path,
          change: entry.change,
          inHead: entry.srcMode !== absentMode,
        });
    }
    if (blocked.size === 0) break;
    if (round >= 2)
      throw new Error(`plangate could not keep ${[...blocked.keys()].slice(0, 5).join(', ')} out of the commit.`);
    for (const entry of blocked.values()) remember(decided, entry);
    await unstage(git, [...blocked.keys()], head);
  }

  await holdCredentials(git, head, decided);

  await restoreProtected(
    git,
    [...decided.values()].filter((d) => d.restore),
    head,
  );
  return [...decided.values()]
    .map(({ path, change, reason, credential }) => ({ path, change, reason, ...(credential ? { credential } : {}) }))
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
      if (!seen.has(key))
        seen.set(key, {
          path: change.path,
          change: change.change,
          reason: change.reason,
          ...(change.credential ? { credential: change.credential } : {}),
        });
    }
  }
  return [...seen.values()].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.change < b.change ? -1 : a.change > b.change ? 1 : 0,
  );
}

/**
 * What would land is read too (credential-scan.ts): a change that adds a credential goes out again,
 * left on disk as it was written (the secret is already there; the executor can take it out).
 */
async function holdCredentials(git: Git, head: boolean, decided: Map<string, Decision>): Promise<void> {
  const held = await credentialHolds(git, head);
  for (const hold of held) remember(decided, { ...hold, credential: true, restore: false, inHead: false });
  await unstage(
    git,
    held.map((h) => h.path),
    head,
  );
}

/**
 * Why a change at `path` may not be committed, or undefined when it may: no one may commit `.git`
 * paths or protected paths, and this run only what its approved scope names. A change outside the
 * scope stays in the work tree, held back until an amendment a maintainer approves takes it in.
 */
function whyKeptOut(
  path: string,
  protectedPaths: readonly string[],
  scope: Pick<ApprovedScope, 'paths'> | undefined,
): string | undefined {
  if (hasDotGitComponent(path)) return dotGitReason;
  const pattern = matchProtected(path, protectedPaths);
  if (pattern !== undefined) return `${protectedPrefix}${pattern}`;
  return scope && !inScope(path, scope) ? outOfScopeReason : undefined;
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

/**
 * For blocked regular files whose mode changed, whether their content changed too: the report says
 * `mode` for a bare chmod. Only a label, so a file the host cannot read stays `modified`.
 */
async function tellModeChanges(
  git: Git,
  candidates: readonly Candidate[],
  decided: Map<string, Decision>,
): Promise<void> {
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
  for (const batch of batches(changed))
    await git(['--literal-pathspecs', 'checkout', '--quiet', 'HEAD', '--', ...batch]);
}
