import { describe, expect, it } from 'vitest';
import { SettingsError } from '../../src/config/settings-error.js';
import { isSigningSecret, recordKey } from '../../src/record/record-key.js';

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
    expect(recordKey({ ...base, recordSecret: 'record-secret-value-0123456789' })).toBe(
      'record-secret-value-0123456789',
    );
    // Then even a placeholder API key is fine: nothing is derived from it.
    expect(recordKey({ ...base, apiKey: 'local', recordSecret: 'record-secret-value-0123456789' })).toBe(
      'record-secret-value-0123456789',
    );
  });

  it('has no key when there is nothing to derive it from', () => {
    expect(recordKey({ ...base, apiKey: '' })).toBe('');
  });

  it.each([
    'local',
    'ollama',
    'EMPTY',
    'sk-no-key-required',
    'token-abc123',
    'a'.repeat(64),
    'abababababababababababababab',
  ])('refuses to derive a key from the placeholder API key %j, naming record-secret', (apiKey) => {
    expect(() => recordKey({ ...base, apiKey })).toThrow(SettingsError);
    expect(() => recordKey({ ...base, apiKey })).toThrow(/reads as a placeholder .*Set `record-secret`/);
    // The message says how weak the key is, never what it is.
    expect(() => recordKey({ ...base, apiKey })).not.toThrow(apiKey);
  });

  it('refuses a record-secret as weak as a placeholder', () => {
    expect(() => recordKey({ ...base, recordSecret: 'secret' })).toThrow(/`record-secret` is too short or too simple/);
  });

  it('takes the keys real providers issue as signing secrets', () => {
    // Shapes only (random characters): an Azure OpenAI key (32 hex), a DeepSeek key, an OpenAI project key.
    for (const key of [
      '3f9a1c0b7e5d4a2f8c6b0e1d9a7f5c3b',
      'sk-5e0c9b2a7f1d4e8c3b6a9f0e2d7c1b4a',
      `sk-proj-${'aZ3'.repeat(20)}x7Qw`,
    ])
      expect(isSigningSecret(key)).toBe(true);
  });
});
