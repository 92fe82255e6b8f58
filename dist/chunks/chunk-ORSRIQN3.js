import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);

// src/text/did-you-mean.ts
function editDistance(a, b) {
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
var normal = (name) => name.trim().toLowerCase().replace(/_/g, "-");
function didYouMean(typed, candidates) {
  const wanted = normal(typed);
  let best;
  for (const name of candidates) {
    if (name === typed) continue;
    const distance = editDistance(wanted, normal(name));
    const allowed = Math.floor(Math.max(wanted.length, name.length) / 3);
    if (distance <= allowed && (best === void 0 || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
function slipDistance(a, b) {
  const rows = Array.from(
    { length: a.length + 1 },
    (_, i) => Array.from({ length: b.length + 1 }, (_2, j) => i === 0 ? j : j === 0 ? i : 0)
  );
  const at = (i, j) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
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
function oneSlipFrom(typed, candidates) {
  const wanted = normal(typed);
  return candidates.find((name) => normal(name) !== wanted && slipDistance(wanted, normal(name)) === 1);
}

export {
  didYouMean,
  oneSlipFrom
};
