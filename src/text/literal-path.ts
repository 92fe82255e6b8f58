/**
 * Paths a plan names (`files`) and the approved scope keeps, read literally: a file, or a folder
 * and everything under it. Nothing in a plan is ever a pattern, so `docs/x.md|package.json` names a
 * file with a `|` in its name and nothing else. Characters that only a pattern would hold are
 * refused where the plan is staged, so a planner that meant a pattern is told to name the files.
 */

/** The repository root as a scope entry: every path lies under it. */
export const wholeRepository = '.';

/** A path as scope entries and the tools spell it: forward slashes, no `./`, no trailing slash. */
export function scopePath(path: string): string {
  const written = path.trim().replace(/\\/g, '/');
  let out = written;
  while (out.startsWith('./')) out = out.slice(2);
  out = out.replace(/\/+$/, '');
  // `./` is the root as much as `.` is.
  return out === '' && written.startsWith('.') ? wholeRepository : out;
}

/** Whether `path` is the literal entry `entry` or lies under it (the entry a folder). */
export function coveredBy(path: string, entry: string): boolean {
  const target = scopePath(path);
  const folder = scopePath(entry);
  if (folder === '') return false;
  return folder === wholeRepository || target === folder || target.startsWith(`${folder}/`);
}

/** Whether two entries may name the same file: one is, or lies under, the other. */
export function entriesOverlap(a: string, b: string): boolean {
  return coveredBy(a, b) || coveredBy(b, a);
}

/**
 * Why `entry` cannot be a literal path in a plan's `files`, or undefined when it can. Refused: the
 * characters of a glob or an alternation (`*`, `?`, `|`, `{`, `}`), a leading `!` or `:` (a negation,
 * git's pathspec magic), a path that leaves the repository (absolute, `~`, a `..` part) and control
 * characters. `[`, `]`, `(`, `)`, `+` and `@` stay: frameworks name real files with them
 * (`app/[id]/page.tsx`, `routes/+page.svelte`), and a literal match reads them as they are.
 */
export function literalPathProblem(entry: string): string | undefined {
  // Read as written (separators aside): its characters are what a reader of the plan sees.
  const path = entry.trim().replace(/\\/g, '/');
  if (/\p{Cc}/u.test(entry)) return 'holds a control character';
  if (path.startsWith('/') || path.startsWith('~') || /^[A-Za-z]:/.test(path))
    return 'is not a path inside the repository: name it relative to the repository root';
  if (scopePath(path) === '') return 'names no path';
  const pattern = /[*?|{}]/.exec(path)?.[0];
  if (pattern !== undefined)
    return `holds \`${pattern}\`, which only a pattern would: files are literal paths, so name each file, or the folder that holds them`;
  const parts = path.split('/');
  if (parts.some((part) => part.startsWith('!')))
    return 'starts a name with `!`, which reads as a negation: files are literal paths, so name only what the step changes';
  if (path.startsWith(':')) return 'starts with `:`, which git reads as pathspec magic';
  if (parts.includes('..')) return 'leaves the repository through `..`: name it relative to the repository root';
  return undefined;
}
