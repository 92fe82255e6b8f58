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

/**
 * Edit distance that also counts two neighbouring letters typed in the wrong order as one slip
 * (optimal string alignment): `plna` is one slip from `plan`, where plain edit distance says two.
 */
export function slipDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      const row = rows[i];
      if (row) row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate `typed` misses by exactly one slip (a letter added, dropped, changed, or two swapped),
 * or undefined. Stricter than didYouMean: a word another tool owns (`/review`, `/rebase`) is two
 * slips from any of plangate's commands and is never taken for one.
 */
export function oneSlipFrom(typed: string, candidates: readonly string[]): string | undefined {
  const wanted = normal(typed);
  return candidates.find((name) => normal(name) !== wanted && slipDistance(wanted, normal(name)) === 1);
}
