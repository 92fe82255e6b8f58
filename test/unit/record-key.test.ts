import { describe, expect, it } from 'vitest';
import { recordKey } from '../../src/record/record-key.js';

describe('recordKey', () => {
  const base = { recordSecret: '', apiKey: 'sk-test-key-0123456789abcdef', repository: 'id 42' };

  it('derives the same key for the same API key and repository, and another for another of either', () => {
    const key = recordKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(recordKey({ ...base })).toBe(key);
    expect(recordKey({ ...base, repository: 'id 43' })).not.toBe(key);
    expect(recordKey({ ...base, apiKey: 'sk-test-key-rotated-0123456789' })).not.toBe(key);
    // The derived key is not the API key, nor made of it.
    expect(key).not.toContain(base.apiKey);
  });

  it('uses record-secret as it is when the repository sets one', () => {
    expect(recordKey({ ...base, recordSecret: 'record-secret-value' })).toBe('record-secret-value');
  });

  it('has no key when there is nothing to derive it from', () => {
    expect(recordKey({ ...base, apiKey: '' })).toBe('');
  });
});
