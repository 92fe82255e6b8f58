import { describe, expect, it } from 'vitest';
import { instructionsCommit } from '../../src/run/instructions-source.js';

// Which commit the repository's instructions for agents come from: never a pull request's head.

describe('instructionsCommit', () => {
  const trusted = { ref: 'main', sha: 'a'.repeat(40) };

  it("keeps the base commit when the work starts on the default branch (the plan's own commit)", () => {
    expect(instructionsCommit({ ref: 'main', sha: 'b'.repeat(40) }, trusted)).toBe('b'.repeat(40));
  });

  it("takes the default branch's commit for a pull request's head or another base branch", () => {
    expect(instructionsCommit({ ref: 'feature/shout', sha: 'c'.repeat(40) }, trusted)).toBe(trusted.sha);
    expect(instructionsCommit({ ref: 'develop', sha: 'd'.repeat(40) }, trusted)).toBe(trusted.sha);
  });
});
