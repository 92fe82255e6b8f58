/**
 * A whole number with thousands separators ("12,345"), as `toLocaleString('en-US')` writes it.
 * Written out because the first locale-aware call starts ICU, which costs a /plan run ~10 ms for
 * the two numbers in its footer.
 */
export function formatCount(n: number): string {
  const whole = Math.round(n);
  const digits = String(Math.abs(whole)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return whole < 0 ? `-${digits}` : digits;
}
