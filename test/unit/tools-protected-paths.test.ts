import { describe, expect, it } from 'vitest';
import { isProtected, matchProtected } from '../../src/text/protected-paths.js';

const patterns = ['.github/**', '.plangate.yml', '**/*.lock', 'secrets'];

describe('protected paths', () => {
  it('matches globs including dot files', () => {
    expect(isProtected('.github/workflows/ci.yml', patterns)).toBe(true);
    expect(isProtected('.plangate.yml', patterns)).toBe(true);
    expect(isProtected('deep/dir/yarn.lock', patterns)).toBe(true);
    expect(isProtected('src/index.ts', patterns)).toBe(false);
    expect(isProtected('github/workflows/ci.yml', patterns)).toBe(false);
  });

  it('treats a pattern naming a directory as protecting everything under it', () => {
    expect(matchProtected('secrets/prod/key.txt', patterns)).toBe('secrets');
    expect(isProtected('secrets-not/key.txt', patterns)).toBe(false);
  });

  it('names the pattern that matched', () => {
    expect(matchProtected('.github/dependabot.yml', patterns)).toBe('.github/**');
    expect(matchProtected('a/b.lock', patterns)).toBe('**/*.lock');
    expect(matchProtected('src/a.ts', patterns)).toBeUndefined();
  });

  it('matches any spelling a case-insensitive file system reads as the protected name', () => {
    const workflows = ['.github/workflows/**'];
    for (const spelling of [
      '.GitHub/Workflows/evil.yml',
      '.GITHUB/WORKFLOWS/CI.YML',
      // The Kelvin sign and the long s fold to k and s, as APFS and NTFS compare them.
      '.github/wor\u212Aflows/evil.yml',
      '.github/workflow\u017F/evil.yml',
      // HFS+ skips zero-width joiners and direction marks when it compares names.
      '.git\u200chub/workflows/evil.yml',
      './.GitHub/workflows/evil.yml',
    ]) {
      expect(matchProtected(spelling, workflows), spelling).toBe('.github/workflows/**');
    }
    expect(matchProtected('deep/Cargo.LOCK', patterns)).toBe('**/*.lock');
    // The pattern's case does not matter either, and an accent matches composed or decomposed.
    expect(matchProtected('secrets/key.txt', ['Secrets'])).toBe('Secrets');
    expect(matchProtected('caf\u0065\u0301/menu.md', ['caf\u00e9'])).toBe('caf\u00e9');
    expect(isProtected('github/Workflows/ci.yml', workflows)).toBe(false);
    expect(isProtected('.github-workflows/ci.yml', workflows)).toBe(false);
  });

  it('protects nothing without patterns', () => {
    expect(isProtected('.github/workflows/ci.yml', [])).toBe(false);
  });
});
