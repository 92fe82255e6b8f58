/**
 * Deterministic incompressible text (a linear congruential generator, written in base 36), so a
 * test about sizes and cuts never depends on chance: the same length and seed give the same text.
 */
export function noise(length: number, seed = 1): string {
  let state = seed;
  let out = '';
  while (out.length < length) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    out += state.toString(36);
  }
  return out.slice(0, length);
}
