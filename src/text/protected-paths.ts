import picomatch from 'picomatch';
import { hfsIgnorable } from './dot-git.js';

/**
 * Paths the configuration says agents may read but never write (workflows, the plangate config,
 * lockfiles). Matching is on workspace-relative paths with forward slashes, dot files included, and
 * ignores case: a branch is checked out on macOS and Windows too (by people, and by runners), where
 * `.GitHub/Workflows/x.yml` is the file `.github/workflows/x.yml`. The write tools, the commit gate
 * and the plan checks all ask this one matcher.
 */

/**
 * The first pattern that protects `relPath`, or undefined. A pattern naming a directory protects
 * everything under it (`.github` guards `.github/workflows/ci.yml`), because a user who lists a
 * directory means its contents; failing closed here costs a refusal, failing open a workflow edit.
 * Both sides are compared folded (see fold), so any spelling a case-insensitive file system reads as
 * a protected name is protected.
 */
export function matchProtected(relPath: string, patterns: readonly string[]): string | undefined {
  const candidates = withAncestors(normalize(fold(relPath)));
  for (const pattern of patterns) {
    const matches = picomatch(normalize(fold(pattern)), { dot: true, nocase: true });
    if (candidates.some((candidate) => matches(candidate))) return pattern;
  }
  return undefined;
}

/** Whether writes to `relPath` must be refused. */
export function isProtected(relPath: string, patterns: string[]): boolean {
  return matchProtected(relPath, patterns) !== undefined;
}

/**
 * A name as file systems that ignore case compare it, erring on the side of equal: composed and
 * decomposed accents alike (APFS ignores the difference), the code points HFS+ skips dropped, and
 * every letter folded through upper to lower case, so that the long s (`ſ`) is `s` and the Kelvin
 * sign is `k`, as Unicode case folding has them. Glob syntax is ASCII punctuation and comes through
 * unchanged.
 */
function fold(p: string): string {
  return p.normalize('NFC').replace(hfsIgnorable, '').toUpperCase().toLowerCase();
}

function normalize(p: string): string {
  let out = p;
  while (out.startsWith('./')) out = out.slice(2);
  return out.replace(/\/+$/, '');
}

/** `a/b/c` → [`a/b/c`, `a/b`, `a`]. */
function withAncestors(rel: string): string[] {
  const parts = rel.split('/');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('/'));
}
