import { describe, expect, it } from 'vitest';
import { boundDiffStat, renderDiffStat } from '../../src/render/diff-stat.js';
import { commitTrailers, noreplyEmail, withTrailers } from '../../src/render/commit-trailers.js';

const stat = (files: number) =>
  [
    ...Array.from({ length: files }, (_, i) => ` src/file-${i}.ts | ${i + 1} +`),
    ` ${files} files changed, ${(files * (files + 1)) / 2} insertions(+)`,
  ].join('\n');

describe('boundDiffStat', () => {
  const unindented = (text: string) => text.replace(/^ /gm, '');

  it("keeps a short stat whole, without git's one-space indent even when the first line lost it", () => {
    expect(boundDiffStat(`${stat(2)}\n`)).toBe(unindented(stat(2)));
    expect(boundDiffStat(stat(2).trimStart())).toBe(unindented(stat(2)));
  });

  it('keeps the first files and the total, saying how many files were left out', () => {
    const lines = boundDiffStat(stat(80), { maxFiles: 10 }).split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[9]).toBe('src/file-9.ts | 10 +');
    expect(lines[10]).toBe('... and 70 more files');
    expect(lines[11]).toBe('80 files changed, 3240 insertions(+)');
  });

  it('stays within its character budget', () => {
    const bounded = boundDiffStat(stat(500), { maxChars: 1_000 });
    expect(bounded.length).toBeLessThanOrEqual(1_000 + ' ... and 999 more files'.length + 1);
    expect(bounded.split('\n').at(-1)).toBe('500 files changed, 125250 insertions(+)');
  });

  it('renders nothing for an empty diff, and a fenced section otherwise', () => {
    expect(renderDiffStat('\n')).toBe('');
    expect(renderDiffStat(stat(1))).toBe(`## Changes\n\n\`\`\`\n${unindented(stat(1))}\n\`\`\``);
  });
});

describe('commit trailers', () => {
  it('names the plan, the approver and the requester as co-author by their noreply address', () => {
    expect(
      commitTrailers({
        planId: '0a1b2c3d',
        approvedBy: 'octocat',
        requestedBy: 'mona',
        botLogin: 'github-actions[bot]',
      }),
    ).toEqual([
      'Plangate-Plan: 0a1b2c3d',
      'Approved-by: octocat',
      'Co-authored-by: mona <mona@users.noreply.github.com>',
    ]);
  });

  it('never credits the bot as its own co-author', () => {
    const trailers = commitTrailers({
      planId: 'p',
      approvedBy: 'github-actions[bot]',
      requestedBy: 'GitHub-Actions[bot]',
      botLogin: 'github-actions[bot]',
    });
    expect(trailers).toEqual(['Plangate-Plan: p', 'Approved-by: github-actions[bot]']);
  });

  it('keeps a value on one line without angle brackets', () => {
    expect(noreplyEmail('a<b>\nc')).toBe('a b c@users.noreply.github.com');
  });

  it('appends the trailers as the last paragraph', () => {
    expect(withTrailers('subject\n\nRefs #3\n\n', ['A: 1', 'B: 2'])).toBe('subject\n\nRefs #3\n\nA: 1\nB: 2');
    expect(withTrailers('subject', [])).toBe('subject');
  });
});
