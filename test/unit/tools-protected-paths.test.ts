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

  it('protects nothing without patterns', () => {
    expect(isProtected('.github/workflows/ci.yml', [])).toBe(false);
  });
});
