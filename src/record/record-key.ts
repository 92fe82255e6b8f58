import { hkdfSync } from 'node:crypto';

/**
 * The key plan records are signed with. `record-secret` when the repository sets one; otherwise a key
 * derived (HKDF-SHA256, Node's own crypto) from the planner's API key, a secret only the plangate
 * workflow holds, and salted with the repository's id. So records are signed without configuration:
 * another workflow posting as `github-actions[bot]` cannot forge one, a record from another
 * repository never verifies here, and a changed key makes older plans unapprovable (plan again).
 * Empty when there is nothing to derive from: records then verify nowhere, which fails closed.
 */
export function recordKey(input: { recordSecret: string; apiKey: string; repository: string }): string {
  if (input.recordSecret) return input.recordSecret;
  if (!input.apiKey) return '';
  return Buffer.from(
    hkdfSync('sha256', input.apiKey, `plangate repository ${input.repository}`, 'plangate plan record v1', 32),
  ).toString('hex');
}
