import { describe, expect, it } from 'vitest';
import { omissionLine, truncateOutput } from '../../src/tools/truncate.js';

const lines = (count: number, width = 40) =>
  Array.from({ length: count }, (_, i) => `line ${String(i + 1).padStart(5, '0')} ${'x'.repeat(width)}`).join('\n');

describe('truncateOutput', () => {
  it('returns text within the limit unchanged', () => {
    expect(truncateOutput('short', 100)).toBe('short');
    const exact = 'y'.repeat(100);
    expect(truncateOutput(exact, 100)).toBe(exact);
  });

  it('keeps head and tail, states how much was omitted and stays within the limit', () => {
    const text = lines(2000);
    const out = truncateOutput(text, 4000);
    expect(out.length).toBeLessThanOrEqual(4000);
    expect(out.startsWith('line 00001 ')).toBe(true);
    expect(out.endsWith(`line 02000 ${'x'.repeat(40)}`)).toBe(true);
    const marker = /\n\[… (\d+) characters omitted …\]\n/.exec(out);
    expect(marker).not.toBeNull();
    const omitted = Number(marker?.[1]);
    // What is kept plus what was omitted accounts for every character of the input.
    expect(out.length - (marker?.[0].length ?? 0) + omitted).toBe(text.length);
    expect(text.startsWith(out.slice(0, marker?.index))).toBe(true);
    expect(text.endsWith(out.slice((marker?.index ?? 0) + (marker?.[0].length ?? 0)))).toBe(true);
  });

  it('cuts at line boundaries when one is near', () => {
    const out = truncateOutput(lines(500), 2000);
    const [head, tail] = out.split(/\n\[… \d+ characters omitted …\]\n/);
    expect(head?.endsWith('\n')).toBe(true);
    expect(tail?.startsWith('line ')).toBe(true);
  });

  it('is deterministic: the same input always gives the same bytes', () => {
    const text = lines(3000, 17);
    const first = truncateOutput(text, 5000);
    for (let i = 0; i < 5; i += 1) expect(truncateOutput(text, 5000)).toBe(first);
    expect(truncateOutput(first, 5000)).toBe(first);
  });

  it('defaults to a 16,000 character limit', () => {
    const text = 'z'.repeat(40_000);
    const out = truncateOutput(text);
    expect(out.length).toBeLessThanOrEqual(16_000);
    expect(out.length).toBeGreaterThan(15_900);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(5000);
    for (const limit of [999, 1000, 1001, 1002]) {
      const out = truncateOutput(text, limit);
      expect(out.length).toBeLessThanOrEqual(limit);
      expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(out)).toBe(false);
    }
  });

  it('renders the omission line in one fixed form', () => {
    expect(omissionLine(42)).toBe('[… 42 characters omitted …]');
  });
});
