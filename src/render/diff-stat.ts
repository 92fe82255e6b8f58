import { codeBlock } from '../text/markdown.js';

/**
 * The `git diff --stat` summary a reviewer reads before opening the files tab. Bounded so a run
 * that touched thousands of files cannot crowd the plan and the history out of the pull request.
 */

export interface DiffStatOptions {
  /** File lines kept; the summary line (`N files changed, ...`) is always kept. */
  maxFiles?: number;
  /** Characters the block may take in all. */
  maxChars?: number;
}

const defaultMaxFiles = 50;
const defaultMaxChars = 6_000;

/** The stat lines as shown: files first, then the total, with a line saying how many files were left out. */
export function boundDiffStat(raw: string, options: DiffStatOptions = {}): string {
  const maxFiles = options.maxFiles ?? defaultMaxFiles;
  const maxChars = options.maxChars ?? defaultMaxChars;
  // git indents every line by one space; a runner that trims its output loses only the first one's.
  const lines = raw
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.replace(/^ /, ''));
  if (lines.length === 0) return '';
  const last = lines.at(-1) ?? '';
  const hasTotal = /\bfiles? changed\b/.test(last);
  const total = hasTotal ? [last] : [];
  const files = hasTotal ? lines.slice(0, -1) : lines;
  const kept: string[] = [];
  let used = total.reduce((n, line) => n + line.length + 1, 0);
  for (const line of files) {
    if (kept.length >= maxFiles || used + line.length + 1 > maxChars) break;
    kept.push(line);
    used += line.length + 1;
  }
  const omitted = files.length - kept.length;
  const note = omitted > 0 ? [`... and ${omitted} more ${omitted === 1 ? 'file' : 'files'}`] : [];
  return [...kept, ...note, ...total].join('\n');
}

/** The pull request section, empty when there is nothing to show. */
export function renderDiffStat(raw: string, options: DiffStatOptions = {}): string {
  const stat = boundDiffStat(raw, options);
  return stat === '' ? '' : `## Changes\n\n${codeBlock(stat)}`;
}
