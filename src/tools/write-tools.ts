import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defaultNumber } from '../config/defaults.js';
import { matchProtected } from '../text/protected-paths.js';
import { defineTool } from './tool.js';
import type { Tool } from './tool.js';
import { ToolError } from './tool-error.js';
import { refuseOutsidePaths } from './scope-refusal.js';
import type { ApprovedScope } from '../scope/approved-scope.js';
import { noteTreeChange } from '../sandbox/sandbox.js';
import { resolveInWorkspace, workspaceRelative } from './workspace.js';

/**
 * The executor's file-changing tools. Only the executor holds them; the planner's toolbox never
 * does. Every target passes the workspace guard, the protected-path check and the approved scope
 * before any write.
 */

export interface WriteToolOptions {
  /** Globs (picomatch, dot files included) of paths the agent may read but never write. */
  protectedPaths: string[];
  /**
   * Largest file, in UTF-8 bytes, that write_file or edit_file may leave behind; default 1 MiB. A
   * runaway model would otherwise fill the disk and every later commit and pull request with it.
   */
  maxWriteBytes?: number;
  /** The approved scope: writes to paths it does not name are refused. Absent: no scope (the CLI's opt-out). */
  scope?: Pick<ApprovedScope, 'paths'>;
  /** Whose scope it is, as a refusal names it; default: the run's. */
  scopeName?: string;
}

/** The default for maxWriteBytes, the `max-write-bytes` input's (1 MiB): far above any hand-written source file. */
export const DEFAULT_MAX_WRITE_BYTES = defaultNumber('max-write-bytes');

const writeFileSchema = z
  .object({
    path: z.string().min(1).describe('File to create or overwrite, relative to the repository root.'),
    content: z.string().describe('The complete new content of the file.'),
  })
  .strict();

const editFileSchema = z
  .object({
    path: z.string().min(1).describe('File to edit, relative to the repository root.'),
    old: z.string().min(1).describe('Exact text to replace; must occur exactly once in the file.'),
    new: z.string().describe('Replacement text.'),
  })
  .strict();

/** write_file and edit_file, confined to `workspace` and kept off protected paths. */
export function createWriteTools(workspace: string, options: WriteToolOptions): Tool[] {
  const target = (relPath: string) => {
    const resolved = writableTarget(workspace, relPath, options.protectedPaths);
    // Where the write lands is what the scope judges (a symlink cannot carry it out of scope).
    refuseOutsidePaths(resolved.shown, options.scope, options.scopeName);
    return resolved;
  };
  const limit = options.maxWriteBytes ?? DEFAULT_MAX_WRITE_BYTES;
  /** Refuses before anything is written, so an oversized write never leaves a partial file. */
  const checkSize = (shown: string, text: string, what: string) => {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > limit) {
      throw new ToolError(
        `${what} ${shown} would be ${bytes} bytes, over the limit of ${limit} bytes (max-write-bytes); nothing was written. Keep files smaller, or report in your result that a larger file is needed.`,
      );
    }
  };

  const writeFile = defineTool({
    name: 'write_file',
    description:
      'Create or overwrite a file with the given content (parent directories are created). Prefer edit_file for changing part of an existing file.',
    schema: writeFileSchema,
    async run(args) {
      const { abs, shown } = target(args.path);
      checkSize(shown, args.content, 'The content for');
      const existed = fs.existsSync(abs);
      if (existed && !fs.statSync(abs).isFile()) {
        throw new ToolError(`${shown} exists and is not a regular file; write_file writes files only.`);
      }
      try {
        await fs.promises.mkdir(path.dirname(abs), { recursive: true });
        await fs.promises.writeFile(abs, args.content, 'utf8');
      } finally {
        // A new file is a new path for list_files; edit_file changes only files that exist.
        noteTreeChange(workspace);
      }
      const bytes = Buffer.byteLength(args.content, 'utf8');
      return `${existed ? 'Overwrote' : 'Created'} ${shown} (${countLines(args.content)} lines, ${bytes} bytes).`;
    },
  });

  const editFile = defineTool({
    name: 'edit_file',
    description:
      'Replace one exact occurrence of old with new in a file. old must match the current text exactly (whitespace included) and occur exactly once; include surrounding lines to make it unique.',
    schema: editFileSchema,
    async run(args) {
      const { abs, shown } = target(args.path);
      let stat: fs.Stats;
      try {
        stat = fs.statSync(abs);
      } catch {
        throw new ToolError(`File not found: ${shown}. Use write_file to create a new file.`);
      }
      if (!stat.isFile()) throw new ToolError(`${shown} is not a regular file; edit_file edits files only.`);
      const text = await fs.promises.readFile(abs, 'utf8');
      const at = text.indexOf(args.old);
      if (at < 0) {
        throw new ToolError(
          `old text not found in ${shown}. Read the file again with read_file and copy the text exactly, including whitespace and indentation.`,
        );
      }
      const count = countOccurrences(text, args.old);
      if (count > 1) {
        throw new ToolError(
          `old text occurs ${count} times in ${shown}; include more surrounding lines so it matches once.`,
        );
      }
      if (args.old === args.new) throw new ToolError(`old and new are identical; ${shown} was not changed.`);
      // Slicing, not String.replace: `$&` and friends in the new text must stay literal.
      const updated = text.slice(0, at) + args.new + text.slice(at + args.old.length);
      checkSize(shown, updated, 'After this edit');
      await fs.promises.writeFile(abs, updated, 'utf8');
      const line = text.slice(0, at).split('\n').length;
      return `Edited ${shown} at line ${line}: replaced ${countLines(args.old)} line(s) with ${countLines(args.new)}.`;
    },
  });

  return [writeFile, editFile];
}

/** Resolves a write target and refuses protected paths, checked on both the given and the real path. */
function writableTarget(workspace: string, relPath: string, protectedPaths: string[]): { abs: string; shown: string } {
  const abs = resolveInWorkspace(workspace, relPath);
  const shown = workspaceRelative(workspace, abs);
  const given = workspaceRelative(workspace, path.resolve(workspace, relPath));
  // A symlink inside the workspace can point into a protected directory; check where it lands too.
  for (const candidate of new Set([given, shown])) {
    const pattern = matchProtected(candidate, protectedPaths);
    if (pattern !== undefined) {
      throw new ToolError(
        `${candidate} is protected by the pattern ${JSON.stringify(pattern)} and cannot be written. Leave it unchanged, or report in your result that it needs a maintainer's change.`,
      );
    }
  }
  return { abs, shown };
}

/**
 * Counts every position where `needle` starts, overlaps included: "aa" in "aaa" is ambiguous about
 * which span to replace, so it must not count as a unique match.
 */
function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) count += 1;
  return count;
}

/** Lines as an editor numbers them: a final newline does not start another line. */
function countLines(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}
