import { describe, expect, it } from 'vitest';
import { maskCredentials, maskFor } from '../../src/repo/credential-mask.js';
import {
  fakeAwsAccessKeyId,
  fakeAwsSecretAccessKey,
  fakeGithubClassicToken,
  fakePrivateKey,
  fakeSlackBotToken,
} from '../helpers/fake-credentials.js';

/** The credential scan of published text: what the rules find is masked and named by rule. */
describe('maskCredentials', () => {
  it('masks each credential in a comment, naming its rule, and keeps the rest as written', async () => {
    const text = [
      '```diff',
      `+AWS_ACCESS_KEY_ID=${fakeAwsAccessKeyId}`,
      `+aws_secret_access_key = "${fakeAwsSecretAccessKey}"`,
      `+SLACK=${fakeSlackBotToken}`,
      '```',
      '',
      fakePrivateKey(),
      `and a token ${fakeGithubClassicToken} in prose.`,
    ].join('\n');
    const masked = await maskCredentials(text);
    for (const secret of [fakeAwsAccessKeyId, fakeAwsSecretAccessKey, fakeSlackBotToken, fakeGithubClassicToken])
      expect(masked.text).not.toContain(secret);
    expect(masked.text).not.toMatch(/MII[A-Za-z0-9+/]{20}/);
    expect(masked.text).toContain('+AWS_ACCESS_KEY_ID=[credential masked: aws/');
    expect(masked.text).toContain(`+SLACK=${maskFor(masked.rules.find((r) => r.startsWith('slack/')) ?? 'none')}`);
    expect(masked.text).toContain(' in prose.');
    expect(masked.rules).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^aws\//),
        expect.stringMatching(/^slack\//),
        expect.stringMatching(/^privatekey\//),
        expect.stringMatching(/^github\//),
      ]),
    );
  });

  it('leaves text without a credential as it is, and masking is idempotent', async () => {
    const plain = 'Wrote notes/a.md and ran `npm test`: 12 passed.';
    expect(await maskCredentials(plain)).toEqual({ text: plain, rules: [] });
    const once = await maskCredentials(`key ${fakeGithubClassicToken}`);
    expect(await maskCredentials(once.text)).toEqual({ text: once.text, rules: [] });
  });
});
