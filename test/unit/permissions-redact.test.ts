import { describe, expect, it } from 'vitest';
import { hasRole, roles, roleSchema } from '../../src/permissions.js';
import { redact } from '../../src/redact.js';

describe('hasRole', () => {
  it('compares roles by rank, so one input can say "at least"', () => {
    expect(hasRole('write', 'write')).toBe(true);
    expect(hasRole('maintain', 'write')).toBe(true);
    expect(hasRole('admin', 'maintain')).toBe(true);
    expect(hasRole('triage', 'write')).toBe(false);
    expect(hasRole('read', 'triage')).toBe(false);
    expect(hasRole('none', 'read')).toBe(false);
  });

  it('orders every pair consistently with the declared ranking', () => {
    roles.forEach((actual, i) => {
      roles.forEach((required, j) => {
        expect(hasRole(actual, required), `${actual} vs ${required}`).toBe(i >= j);
      });
    });
  });

  it('accepts only GitHub’s role names', () => {
    expect(roleSchema.safeParse('maintain').success).toBe(true);
    expect(roleSchema.safeParse('owner').success).toBe(false);
    expect(roleSchema.safeParse('Write').success).toBe(false);
  });
});

describe('redact', () => {
  it('replaces every occurrence of each secret', () => {
    expect(redact('key sk-abcdef123 and again sk-abcdef123.', ['sk-abcdef123'])).toBe('key *** and again ***.');
  });

  it('leaves short values alone: they are no real secret and would mangle words', () => {
    expect(redact('the password is secret', ['secret', ''])).toBe('the password is secret');
  });

  it('hides a secret that contains another one completely, whatever the order given', () => {
    const short = 'sk-shared-1234';
    const long = 'sk-shared-1234-planner-extra';
    for (const secrets of [
      [short, long],
      [long, short],
    ]) {
      const out = redact(`a ${long} b ${short} c`, secrets);
      expect(out).toBe('a *** b *** c');
      expect(out).not.toContain('planner-extra');
    }
  });

  it('does not treat secrets as patterns', () => {
    expect(redact('cost: $1.00 (x+y)*', ['$1.00 (x+y)*'])).toBe('cost: ***');
  });
});
