import { describe, expect, it } from 'vitest';
import { growth, median, ratio } from '../../bench/stats.js';

/** The benchmark's arithmetic: its verdicts are only as good as these. */

describe('median', () => {
  it('takes the middle of an odd count and the mean of the middle two of an even one, in any order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it('refuses an empty list rather than inventing a figure', () => {
    expect(() => median([])).toThrow(/no values/);
  });
});

describe('ratio', () => {
  it('divides, and is NaN for a baseline that is not positive so a broken baseline never passes a target', () => {
    expect(ratio(30, 10)).toBe(3);
    expect(ratio(30, 0)).toBeNaN();
    expect(ratio(30, -1) <= 5).toBe(false);
  });
});

describe('growth', () => {
  it('calls a straight line with a large fixed cost linear, though its log-log slope is far below 1', () => {
    const g = growth(
      [1, 3, 6].map((x) => ({ x, y: 1000 + 50 * x })),
      0.1,
    );
    expect(g.marginals).toEqual([50, 50]);
    expect(g.marginalRatio).toBe(1);
    expect(g.exponent).toBeLessThan(0.3);
    expect(g.verdict).toBe('linear or better');
  });

  it('calls a quadratic worse than linear even when a fixed cost hides it from the log-log slope', () => {
    const g = growth(
      [1, 3, 6].map((x) => ({ x, y: 1000 + 10 * x * x })),
      0.1,
    );
    expect(g.marginals).toEqual([40, 90]);
    expect(g.marginalRatio).toBe(2.25);
    expect(g.exponent).toBeLessThan(1);
    expect(g.verdict).toBe('worse than linear');
  });

  it('allows the tolerance for noise and no more', () => {
    const at = (lastRise: number) =>
      growth(
        [
          { x: 0, y: 0 },
          { x: 1, y: 100 },
          { x: 2, y: 100 + lastRise },
        ],
        0.25,
      );
    expect(at(125).verdict).toBe('linear or better');
    expect(at(126).verdict).toBe('worse than linear');
  });

  it('judges a series that did not rise at first by how much its last segment rose', () => {
    const flat = growth(
      [
        { x: 1_000, y: 32 },
        { x: 10_000, y: 15 },
        { x: 50_000, y: 17 },
      ],
      0.25,
    );
    expect(flat.marginals[0]).toBeLessThan(0);
    expect(flat.verdict).toBe('linear or better');
    const jump = growth(
      [
        { x: 1_000, y: 32 },
        { x: 10_000, y: 15 },
        { x: 50_000, y: 60 },
      ],
      0.25,
    );
    expect(jump.verdict).toBe('worse than linear');
  });

  it('sorts the points by size and reports the end-to-end exponent of a power law', () => {
    const g = growth(
      [
        { x: 4, y: 16 },
        { x: 1, y: 1 },
        { x: 2, y: 4 },
      ],
      0.1,
    );
    expect(g.points.map((p) => p.x)).toEqual([1, 2, 4]);
    expect(g.exponent).toBeCloseTo(2, 10);
  });

  it('needs three points to compare two segments', () => {
    expect(() =>
      growth(
        [
          { x: 1, y: 1 },
          { x: 2, y: 2 },
        ],
        0.1,
      ),
    ).toThrow(/three points/);
  });
});
