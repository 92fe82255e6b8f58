import fs from 'node:fs';
import path from 'node:path';
import { hasDotGitComponent } from '../text/dot-git.js';
import { ToolError } from './tool-error.js';

/**
 * The workspace guard. Every path a model names goes through here before any file is touched, so
 * an agent cannot read the runner's files, rewrite git internals (hooks, config) or follow a
 * symlink out of the checkout. Checks run on the real path of the deepest existing ancestor,
 * because a lexical check alone is defeated by one symlink.
 */

/**
 * Resolves `relPath` against `workspace` and returns the absolute path to use, built on the real
 * path of its deepest existing ancestor. Throws ToolError (with a message the model can act on)
 * for paths outside the workspace, into `.git`, or through a symlink that leaves the workspace.
 */
export function resolveInWorkspace(workspace: string, relPath: string): string {
  const root = path.resolve(workspace);
  const shown = relPath === '' ? '.' : relPath;
  if (relPath.includes('\0')) {
    throw new ToolError(`Path ${JSON.stringify(shown)} contains a NUL character; give a plain relative path.`);
  }
  const lexical = path.resolve(root, relPath);
  const lexicalRel = path.relative(root, lexical);
  if (escapes(lexicalRel)) {
    throw new ToolError(
      `Path ${JSON.stringify(shown)} is outside the workspace; use a path relative to the repository root.`,
    );
  }
  refuseGitDir(lexicalRel, shown);

  const realRoot = realpathOrThrow(root, shown);
  const { existing, rest } = deepestExisting(lexical, root);
  let realExisting: string;
  try {
    realExisting = fs.realpathSync(existing);
  } catch {
    // lstat found it but realpath cannot follow it: a dangling or looping symlink, whose target
    // a write would create wherever it points.
    throw new ToolError(
      `Path ${JSON.stringify(shown)} goes through a broken symbolic link (${toSlashes(path.relative(root, existing))}); choose another path.`,
    );
  }
  const realRel = path.relative(realRoot, realExisting);
  if (escapes(realRel)) {
    throw new ToolError(
      `Path ${JSON.stringify(shown)} goes through a symbolic link that leads outside the workspace; choose a path inside the repository.`,
    );
  }
  const resolved = path.join(realExisting, ...rest);
  refuseGitDir(path.relative(realRoot, resolved), shown);
  return resolved;
}

/**
 * The form in which paths are shown to the model: relative to the workspace, forward slashes,
 * `.` for the root. Accepts paths built on either the given or the real workspace path.
 */
export function workspaceRelative(workspace: string, absPath: string): string {
  const root = path.resolve(workspace);
  let rel = path.relative(root, absPath);
  if (escapes(rel)) {
    try {
      rel = path.relative(fs.realpathSync(root), absPath);
    } catch {
      // Keep the lexical form; the root vanished, which later file operations will report.
    }
  }
  return rel === '' ? '.' : toSlashes(rel);
}

function escapes(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}

function refuseGitDir(rel: string, shown: string): void {
  // Every spelling: on case-folding, NTFS or HFS+ file systems `.GIT`, `.git.` or `git~1` is the
  // same directory, and the commit gate keeps such paths out anyway (both separators split).
  if (hasDotGitComponent(rel)) {
    throw new ToolError(
      `Path ${JSON.stringify(shown)} is inside .git, which tools may not touch; work with the files of the repository instead.`,
    );
  }
}

function realpathOrThrow(root: string, shown: string): string {
  try {
    return fs.realpathSync(root);
  } catch {
    throw new ToolError(`The workspace directory is missing, so ${JSON.stringify(shown)} cannot be resolved.`);
  }
}

/** Walks up from `target` to the first path that exists (symlinks count, even broken ones). */
function deepestExisting(target: string, root: string): { existing: string; rest: string[] } {
  const rest: string[] = [];
  let current = target;
  for (;;) {
    try {
      fs.lstatSync(current);
      return { existing: current, rest };
    } catch {
      const parent = path.dirname(current);
      if (parent === current || current === root) return { existing: current, rest };
      rest.unshift(path.basename(current));
      current = parent;
    }
  }
}

function toSlashes(rel: string): string {
  return rel.split(path.sep).join('/');
}
