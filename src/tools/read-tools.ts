import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { createGit, type Git } from '../repo/git.js';
import { mergeSorted, repositoryPaths } from './file-listing.js';
import { gitGrep, parseGrepLine } from './git-grep.js';
import { looksBinary, readLineRange } from './line-reader.js';
import { defineTool } from './tool.js';
import type { Tool } from './tool.js';
import { ToolError } from './tool-error.js';
import { resolveInWorkspace, workspaceRelative } from './workspace.js';

/**
 * The tools both roles hold: they look at the repository and change nothing. Listing and search go
 * through git so that only the repository's own files (tracked, or new and not ignored) appear,
 * never node_modules or build output.
 */

/** More paths than this bury the useful part of a listing; the model is told to narrow instead. */
const MAX_LISTED_PATHS = 2_000;
/** Matches beyond this are counted, not shown. */
const MAX_SEARCH_MATCHES = 200;
/**
 * Characters a listing or a search may show. Below the toolbox limit, so the result ends with this
 * tool's own "narrow it" notice instead of being cut in the middle by the generic size cap.
 */
const LISTING_OUTPUT_BUDGET = 14_000;
/** A single minified line must not fill the whole result. */
const MAX_MATCH_LINE_CHARS = 400;
/** Past this size a ranged read stops after its last line instead of counting every line. */
const FULL_COUNT_MAX_BYTES = 32 * 1024 * 1024;

const listFilesSchema = z
  .object({
    path: z
      .string()
      .optional()
      .describe('Directory to list, relative to the repository root. Omit for the whole repository.'),
    glob: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Glob filter such as "**/*.ts" or "src/**/test-*.ts". A pattern without "/" matches file names at any depth.',
      ),
  })
  .strict();

const readFileSchema = z
  .object({
    path: z.string().min(1).describe('File to read, relative to the repository root.'),
    start_line: z.number().int().min(1).optional().describe('First line to show (1-based, inclusive).'),
    end_line: z.number().int().min(1).optional().describe('Last line to show (1-based, inclusive).'),
  })
  .strict()
  .refine((a) => a.start_line === undefined || a.end_line === undefined || a.end_line >= a.start_line, {
    message: 'end_line must be greater than or equal to start_line',
    path: ['end_line'],
  });

const searchSchema = z
  .object({
    pattern: z.string().min(1).describe('Perl-compatible regular expression, matched per line.'),
    path: z.string().optional().describe('Directory or file to search in, relative to the repository root.'),
    glob: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Only search files matching this glob, e.g. "**/*.ts"; a pattern without "/" matches file names at any depth.',
      ),
  })
  .strict();

/** list_files, read_file and search, confined to `workspace`. */
export function createReadTools(
  workspace: string,
  git: Git = createGit(workspace, { reader: { timeoutMs: 120_000 } }),
): Tool[] {
  return [listFilesTool(workspace, git), readFileTool(workspace), searchTool(workspace, git)];
}

function listFilesTool(workspace: string, git: Git): Tool {
  const readPaths = repositoryPaths(workspace, git);
  return defineTool({
    name: 'list_files',
    description:
      'List the files of the repository (tracked files and new files not ignored by .gitignore), one path per line, relative to the repository root. Narrow with path (a directory) and glob.',
    schema: listFilesSchema,
    async run(args) {
      const scope = existingScope(workspace, args.path);
      const inScope = scopeFilter(scope);
      const matches = globFilter(args.glob, scope);
      const keep = (file: string) => inScope(file) && matches(file);
      const paths = await readPaths();
      const whole = scope === '.' && args.glob === undefined;
      const tracked = whole ? paths.tracked : paths.tracked.filter(keep);
      const untracked = whole ? paths.untracked : paths.untracked.filter(keep);
      // Tracked files deleted from the working tree are still in the index. Only the paths about to
      // be shown are checked: asking git for every deleted file stats the whole tree, which on a
      // large repository costs more than the listing itself. The count of paths not shown may
      // therefore include a few deleted ones; it is a hint to narrow, not an inventory.
      const shown: string[] = [];
      let budget = LISTING_OUTPUT_BUDGET;
      let next = 0;
      for (const file of mergeSorted(tracked, untracked)) {
        if (shown.length >= MAX_LISTED_PATHS) break;
        if (inWorkTree(workspace, file)) {
          if (file.length + 1 > budget && shown.length > 0) break;
          shown.push(file);
          budget -= file.length + 1;
        }
        next += 1;
      }
      if (shown.length === 0) {
        return `No files found${describeScope(scope, args.glob)}.`;
      }
      const lines = shown.join('\n');
      const notShown = tracked.length + untracked.length - next;
      if (notShown === 0) return lines;
      return `${lines}\n[${notShown} more paths not shown; narrow the listing with path or glob]`;
    },
  });
}

function readFileTool(workspace: string): Tool {
  return defineTool({
    name: 'read_file',
    description:
      'Read a text file with line numbers ("12: text"). Give start_line/end_line (1-based, inclusive) to read part of a large file; the header reports the total number of lines.',
    schema: readFileSchema,
    async run(args) {
      const abs = resolveInWorkspace(workspace, args.path);
      const shown = workspaceRelative(workspace, abs);
      const stat = statOrNull(abs);
      if (stat === null) {
        throw new ToolError(`File not found: ${shown}. Use list_files or search to find the right path.`);
      }
      if (stat.isDirectory()) {
        throw new ToolError(`${shown} is a directory; use list_files with path "${shown}" to see its files.`);
      }
      if (!stat.isFile()) throw new ToolError(`${shown} is not a regular file; read_file reads text files only.`);
      if (await looksBinary(abs)) {
        throw new ToolError(`${shown} looks like a binary file (${stat.size} bytes); read_file shows text files only.`);
      }
      const start = args.start_line ?? 1;
      const end = args.end_line ?? Number.POSITIVE_INFINITY;
      const stopEarly = args.end_line !== undefined && stat.size > FULL_COUNT_MAX_BYTES;
      const read = await readLineRange(abs, start, end, stopEarly);
      if (read.total === 0 && read.complete) return `${shown} is empty (0 lines).`;
      const totalText = read.complete ? `${read.total}` : `more than ${read.total} (file is ${stat.size} bytes)`;
      if (read.lines.length === 0) {
        throw new ToolError(`start_line ${start} is past the end of ${shown}, which has ${totalText} lines.`);
      }
      const last = start + read.lines.length - 1;
      let header = `${shown}: lines ${start}-${last} of ${totalText}`;
      if (read.budgetHit) header += ` (output limit reached; continue with start_line=${last + 1})`;
      return `${header}\n${read.lines.join('\n')}`;
    },
  });
}

function searchTool(workspace: string, git: Git): Tool {
  return defineTool({
    name: 'search',
    description:
      'Search file contents with a Perl-compatible regular expression over the repository (tracked files and new files not ignored by .gitignore; binary files skipped). Prints "path:line: text" per matching line. Narrow with path and glob.',
    schema: searchSchema,
    async run(args) {
      const scope = existingScope(workspace, args.path);
      // The host's git reads every pathspec literally (repo/git-env.ts).
      const pathspec = scope === '.' ? [] : [scope];
      const stdout = await gitGrep(git, args.pattern, pathspec);
      const matches = globFilter(args.glob, scope);
      const hits: string[] = [];
      let budget = LISTING_OUTPUT_BUDGET;
      let full = false;
      let total = 0;
      for (const line of stdout.split('\n')) {
        const hit = parseGrepLine(line);
        if (hit === null || !matches(hit.file)) continue;
        total += 1;
        if (full) continue;
        const shown = `${hit.file}:${hit.line}: ${clip(hit.text, MAX_MATCH_LINE_CHARS)}`;
        if ((shown.length + 1 > budget && hits.length > 0) || hits.length >= MAX_SEARCH_MATCHES) {
          full = true;
          continue;
        }
        hits.push(shown);
        budget -= shown.length + 1;
      }
      if (total === 0) return 'No matches.';
      if (total <= hits.length) return hits.join('\n');
      return `${hits.join('\n')}\n[${total - hits.length} more matches not shown; narrow the search with path, glob or a more specific pattern]`;
    },
  });
}

/**
 * Resolves an optional path argument to a workspace-relative scope that exists. Throws when it
 * does not, because an empty listing would wrongly suggest the directory is empty.
 */
function existingScope(workspace: string, relPath: string | undefined): string {
  if (relPath === undefined || relPath === '' || relPath === '.') return '.';
  const abs = resolveInWorkspace(workspace, relPath);
  const shown = workspaceRelative(workspace, abs);
  if (statOrNull(abs) === null) {
    throw new ToolError(`No such file or directory: ${shown}. Use list_files without path to see the repository.`);
  }
  return shown;
}

/**
 * One glob semantics for list_files and search: matched against the repository-relative path, or
 * relative to the `path` argument, and against the file name alone when it has no "/".
 */
function globFilter(glob: string | undefined, scope: string): (file: string) => boolean {
  if (glob === undefined) return () => true;
  // picomatch's basename mode breaks patterns that do contain "/", so only enable it without one.
  const matcher = picomatch(glob, { dot: true, basename: !glob.includes('/') });
  const prefix = scope === '.' ? '' : `${scope}/`;
  return (file) => matcher(file) || (prefix !== '' && file.startsWith(prefix) && matcher(file.slice(prefix.length)));
}

/** Paths git listed that lie in `scope`: the file itself or anything under the directory. */
function scopeFilter(scope: string): (file: string) => boolean {
  if (scope === '.') return () => true;
  const prefix = `${scope}/`;
  return (file) => file === scope || file.startsWith(prefix);
}

function describeScope(scope: string, glob: string | undefined): string {
  const parts: string[] = [];
  if (scope !== '.') parts.push(` under ${scope}`);
  if (glob !== undefined) parts.push(` matching ${JSON.stringify(glob)}`);
  return parts.join('');
}

/** Whether a path git listed is present in the working tree (a symlink counts, even a dangling one). */
function inWorkTree(workspace: string, file: string): boolean {
  try {
    return fs.lstatSync(path.join(workspace, file), { throwIfNoEntry: false }) !== undefined;
  } catch {
    // ENOTDIR and the like: something else stands where the file was, so it is gone too.
    return false;
  }
}

function statOrNull(abs: string): fs.Stats | null {
  try {
    return fs.statSync(abs);
  } catch {
    return null;
  }
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)} … [${text.length - max} more characters]`;
}
