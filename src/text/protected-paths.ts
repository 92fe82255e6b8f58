import picomatch from 'picomatch';

/**
 * Paths the configuration says agents may read but never write (workflows, the plangate config,
 * lockfiles). Matching is on workspace-relative paths with forward slashes, dot files included.
 */

/**
 * The first pattern that protects `relPath`, or undefined. A pattern naming a directory protects
 * everything under it (`.github` guards `.github/workflows/ci.yml`), because a user who lists a
 * directory means its contents; failing closed here costs a refusal, failing open a workflow edit.
 */
export function matchProtected(relPath: string, patterns: readonly string[]): string | undefined {
  const candidates = withAncestors(normalize(relPath));
  for (const pattern of patterns) {
    const matches = picomatch(normalize(pattern), { dot: true });
    if (candidates.some((candidate) => matches(candidate))) return pattern;
  }
  return undefined;
}

/** Whether writes to `relPath` must be refused. */
export function isProtected(relPath: string, patterns: string[]): boolean {
  return matchProtected(relPath, patterns) !== undefined;
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
