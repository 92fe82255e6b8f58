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

/** A stretch of time, e.g. a model request from its arrival to its answer (ms on one clock). */
export interface Span {
  startMs: number;
  endMs: number;
}

/**
 * The most spans open at one instant: how many requests were in flight together at the peak. A span
 * that ends where another starts does not overlap it (the answer went out before the next arrived).
 */
export function peakOverlap(spans: readonly Span[]): number {
  const edges = spans.flatMap((s) => [
    { at: s.startMs, step: 1 },
    { at: s.endMs, step: -1 },
  ]);
  // At a tie, ends before starts.
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let open = 0;
  let peak = 0;
  for (const edge of edges) {
    open += edge.step;
    peak = Math.max(peak, open);
  }
  return peak;
}

/** How long at least one span was open: the time spent waiting on requests, however many at once. */
export function coveredMs(spans: readonly Span[]): number {
  const sorted = [...spans].sort((a, b) => a.startMs - b.startMs);
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const s of sorted) {
    if (s.startMs >= end) {
      total += s.endMs - s.startMs;
      end = s.endMs;
    } else if (s.endMs > end) {
      total += s.endMs - end;
      end = s.endMs;
    }
  }
  return total;
}

/**
 * What ran at the same time: each key's hull (its first start to its last end), grouped while a
 * hull starts before the group so far has ended; groups in the order they started, keys in order.
 */
export function overlapGroups(items: readonly { key: number; span: Span }[]): number[][] {
  const hulls = new Map<number, Span>();
  for (const { key, span } of items) {
    const hull = hulls.get(key);
    hulls.set(
      key,
      hull ? { startMs: Math.min(hull.startMs, span.startMs), endMs: Math.max(hull.endMs, span.endMs) } : { ...span },
    );
  }
  const groups: { keys: number[]; endMs: number }[] = [];
  for (const [key, hull] of [...hulls].sort((a, b) => a[1].startMs - b[1].startMs)) {
    const last = groups.at(-1);
    if (last && hull.startMs < last.endMs) {
      last.keys.push(key);
      last.endMs = Math.max(last.endMs, hull.endMs);
    } else groups.push({ keys: [key], endMs: hull.endMs });
  }
  return groups.map((g) => g.keys.sort((a, b) => a - b));
}
