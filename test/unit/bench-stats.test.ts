import { describe, expect, it } from 'vitest';
import { coveredMs, growth, median, overlapGroups, peakOverlap, ratio } from '../../bench/stats.js';

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

describe('requests in flight', () => {
  const span = (startMs: number, endMs: number) => ({ startMs, endMs });

  it('counts the most requests open at one instant, in whatever order they are listed', () => {
    // One alone, then three sent together that finish apart, then one more.
    const spans = [span(0, 10), span(12, 25), span(13, 20), span(12.5, 30), span(31, 40)];
    expect(peakOverlap(spans)).toBe(3);
    expect(peakOverlap([...spans].reverse())).toBe(3);
    expect(peakOverlap([])).toBe(0);
  });

  it('does not count a request answered the instant the next one arrives as overlapping it', () => {
    expect(peakOverlap([span(0, 10), span(10, 20), span(20, 30)])).toBe(1);
    expect(peakOverlap([span(0, 10.001), span(10, 20)])).toBe(2);
  });

  it('measures the time at least one request was open, once however many were', () => {
    expect(coveredMs([span(0, 10), span(12, 25), span(13, 20), span(12.5, 30), span(31, 40)])).toBe(37);
    expect(coveredMs([span(5, 6), span(0, 10)])).toBe(10);
    expect(coveredMs([span(0, 10), span(10, 20)])).toBe(20);
    expect(coveredMs([])).toBe(0);
  });

  it('groups what ran at the same time, each key spanning all its requests', () => {
    const at = (key: number, startMs: number, endMs: number) => ({ key, span: span(startMs, endMs) });
    // Step 1 alone; 3, 2 and 4 together (4 starting as 3's first request ended, before its last); then 5.
    const items = [
      at(1, 0, 5),
      at(1, 5, 10),
      at(3, 11, 15),
      at(2, 12, 14),
      at(4, 15, 18),
      at(3, 16, 20),
      at(5, 20, 25),
      at(5, 26, 30),
    ];
    expect(overlapGroups(items)).toEqual([[1], [2, 3, 4], [5]]);
    expect(overlapGroups([...items].reverse())).toEqual([[1], [2, 3, 4], [5]]);
    // One after another: a group each.
    expect(overlapGroups([at(1, 0, 10), at(2, 10, 20), at(3, 20, 30)])).toEqual([[1], [2], [3]]);
    expect(overlapGroups([])).toEqual([]);
  });
});
