/**
 * "Did you mean ...?" for a mistyped name: the known name closest by edit distance, when it is close
 * enough to be the likely intent. Pure, so the config file, the action's inputs and the CLI's flags
 * all suggest alike.
 */

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Case, `_` for `-` and surrounding space are the commonest slips; they cost nothing. */
const normal = (name: string) => name.trim().toLowerCase().replace(/_/g, '-');

/**
 * The candidate `typed` most likely meant, or undefined when none is close: at most a third of the
 * longer name's characters may differ, so a short word is not "corrected" into an unrelated one. Ties go to the candidate listed first.
 */
export function didYouMean(typed: string, candidates: readonly string[]): string | undefined {
  const wanted = normal(typed);
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    if (name === typed) continue;
    const distance = editDistance(wanted, normal(name));
    const allowed = Math.floor(Math.max(wanted.length, name.length) / 3);
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
