import { hkdfSync } from 'node:crypto';
import { SettingsError } from '../config/settings-error.js';

/**
 * The key plan records and checkpoints are sealed with. `record-secret` when the repository sets
 * one; otherwise a key derived (HKDF-SHA256, Node's own crypto) from the planner's API key, a secret
 * only the plangate workflow holds, and salted with the repository's id. So records are signed
 * without configuration: another workflow posting as `github-actions[bot]` cannot forge one, a record
 * from another repository never verifies here, and a changed key makes older plans unapprovable
 * (plan again). Empty when there is no API key at all: records then verify nowhere, which fails
 * closed (and the flows refuse for the missing key).
 *
 * A key is only as secret as what it comes from. A placeholder API key (a local server's `local`
 * or `ollama`) is public, and with it anyone could compute the key and forge a record, so neither
 * it nor a `record-secret` as weak is used: the run stops with a setting to fix.
 */
export function recordKey(input: { recordSecret: string; apiKey: string; repository: string }): string {
  if (input.recordSecret) {
    if (!isSigningSecret(input.recordSecret))
      throw new SettingsError(
        `\`record-secret\` is too short or too simple to sign plan records with (${describe(input.recordSecret)}). ${secretAdvice}`,
      );
    return input.recordSecret;
  }
  if (!input.apiKey) return '';
  if (!isSigningSecret(input.apiKey))
    throw new SettingsError(
      `the planner's API key (\`api-key\` or \`planner-api-key\`) reads as a placeholder (${describe(input.apiKey)}), as the key of a server that checks none often does. plangate signs plan records and checkpoints with a key derived from it, and a key anyone can guess lets anyone forge an approved plan. Set \`record-secret\`: ${secretAdvice}`,
    );
  return Buffer.from(
    hkdfSync('sha256', input.apiKey, `plangate repository ${input.repository}`, 'plangate plan record v1', 32),
  ).toString('hex');
}

/** Least length and variety of a value plangate signs with: no real provider's key is shorter. */
export const signingSecretRule = { minLength: 24, minDistinct: 10 } as const;

/** Whether `value` can be a signing secret: long and varied enough not to be a name or a pattern. */
export function isSigningSecret(value: string): boolean {
  return value.length >= signingSecretRule.minLength && new Set(value).size >= signingSecretRule.minDistinct;
}

/** Says how weak a value is without saying anything of what it is. */
function describe(value: string): string {
  const distinct = new Set(value).size;
  return `${value.length} characters, ${distinct} different; at least ${signingSecretRule.minLength} and ${signingSecretRule.minDistinct} are needed`;
}

const secretAdvice =
  'Store a long random value (for example the output of `openssl rand -hex 32`) as a repository secret and pass it as `record-secret`.';
