/**
 * The arithmetic of the benchmark, kept pure so it can be unit-tested: medians for noisy timings,
 * and the growth verdict the issue asks for ("linear or worse"), computed from the figures alone.
 */

/** Middle value (mean of the two middle ones for an even count); timings on a shared machine need it. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] as number) + upper) / 2;
}

/** `value / baseline`, or NaN when the baseline is not positive, so a broken baseline is never a pass. */
export function ratio(value: number, baseline: number): number {
  return baseline > 0 ? value / baseline : Number.NaN;
}

export interface GrowthPoint {
  /** The size: cycles, or files in the repository. */
  x: number;
  y: number;
}

export interface Growth {
  points: GrowthPoint[];
  /** Cost per added unit of x between neighbouring points, first segment first. */
  marginals: number[];
  /** Last marginal over first: 1 for a straight line, above 1 when each added unit costs more. */
  marginalRatio: number;
  /** ln(y_last / y_first) / ln(x_last / x_first): 1 for proportional growth, 2 for quadratic. */
  exponent: number;
  verdict: 'linear or better' | 'worse than linear';
}

/**
 * Linear growth means every added unit costs the same; worse than linear means later units cost
 * more. So the verdict compares the cost per unit of the last segment with that of the first,
 * allowing `tolerance` (a share) for measurement noise. A fixed start-up cost does not bend this
 * test the way a log-log slope would, which is why the slope is reported but not judged. A first
 * segment that did not rise (noise, or a cost that does not depend on x) gives no rate to compare
 * with: then the last segment is worse only if it rose by more than `tolerance` of its start.
 */
export function growth(points: readonly GrowthPoint[], tolerance: number): Growth {
  if (points.length < 3) throw new Error('growth needs at least three points');
  const sorted = [...points].sort((a, b) => a.x - b.x);
  const marginals: number[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1] as GrowthPoint;
    const b = sorted[i] as GrowthPoint;
    marginals.push((b.y - a.y) / (b.x - a.x));
  }
  const first = marginals[0] as number;
  const last = marginals.at(-1) as number;
  const lo = sorted[0] as GrowthPoint;
  const hi = sorted.at(-1) as GrowthPoint;
  const beforeLast = sorted.at(-2) as GrowthPoint;
  let marginalRatio: number;
  if (first > 0) marginalRatio = last / first;
  else marginalRatio = hi.y - beforeLast.y > tolerance * Math.abs(beforeLast.y) ? Number.POSITIVE_INFINITY : 0;
  const exponent = lo.y > 0 && hi.y > 0 ? Math.log(hi.y / lo.y) / Math.log(hi.x / lo.x) : Number.NaN;
  return {
    points: sorted,
    marginals,
    marginalRatio,
    exponent,
    verdict: marginalRatio <= 1 + tolerance ? 'linear or better' : 'worse than linear',
  };
}
