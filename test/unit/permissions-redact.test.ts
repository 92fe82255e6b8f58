import { describe, expect, it } from 'vitest';
import { hasRole, roles, roleSchema } from '../../src/config/permissions.js';
import { redact } from '../../src/text/redact.js';

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

describe('redact: token shapes', () => {
  // Built at run time so no credential-shaped literal sits in the repository.
  const alnum = (n: number) => 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7'.repeat(4).slice(0, n);
  const ghp = `ghp_${alnum(36)}`;
  const pat = `github_pat_${alnum(22)}_${alnum(59)}`;
  const sk = `sk-${alnum(48)}`;
  const skProj = `sk-proj-${alnum(30)}_${alnum(20)}-${alnum(30)}`;

  it.each([
    ['a classic GitHub token', `token ${ghp} used`, 'token *** used'],
    ['an OAuth token', `gho_${alnum(36)}`, '***'],
    ['a user-to-server token', `ghu_${alnum(36)}`, '***'],
    ['an Actions / server-to-server token', `GITHUB_TOKEN=ghs_${alnum(36)}`, 'GITHUB_TOKEN=***'],
    ['a refresh token', `"ghr_${alnum(40)}"`, '"***"'],
    ['a GitHub token longer than 36', `${ghp}${alnum(10)}.`, '***.'],
    ['a fine-grained token', `pat: ${pat}\n`, 'pat: ***\n'],
    ['an OpenAI key', `OPENAI_API_KEY=${sk}`, 'OPENAI_API_KEY=***'],
    ['an OpenAI project key', `key '${skProj}' here`, "key '***' here"],
    ['a 20-character key', `(sk-${alnum(20)})`, '(***)'],
    ['a Bearer header', 'Authorization: Bearer abc.DEF-123_x~y+z/w==', 'Authorization: Bearer ***'],
    ['a token header, lower case', 'authorization: token abc123', 'authorization: token ***'],
    ['a Basic header', 'Authorization: Basic dXNlcjpwYXNzd29yZA==\r\n', 'Authorization: Basic ***\r\n'],
    ['a header in a curl command', `curl -H 'Authorization: token ${ghp}' x`, "curl -H 'Authorization: token ***' x"],
    ['a header in JSON', '{"Authorization": "Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig"}', '{"Authorization": "Bearer ***"}'],
    ['a proxy header', 'Proxy-Authorization: basic Zm9vOmJhcg==', 'Proxy-Authorization: basic ***'],
    [
      'an access token in a clone URL',
      'https://x-access-token:v1.abc123@github.com/o/r.git',
      'https://x-access-token:***@github.com/o/r.git',
    ],
    ['an access token without a scheme', 'x-access-token:abc123@github.com', 'x-access-token:***@github.com'],
    ['a password in any URL', 'postgres://app:hunter22@db:5432/x', 'postgres://app:***@db:5432/x'],
  ])('masks %s', (_name, input, expected) => {
    expect(redact(input, [])).toBe(expected);
  });

  it.each([
    ['the word sk-etch', 'an sk-etch of the idea'],
    ['sk- inside a longer word', 'the task-management-system-overview-document'],
    ['a key prefix with 19 characters', `sk-${alnum(19)}`],
    ['a short ghp_x', 'the ghp_x prefix'],
    ['a GitHub token 35 characters long', `ghp_${alnum(35)}`],
    ['an unknown gh prefix', `ghx_${alnum(36)} ghp-${alnum(36)}`],
    ['a short fine-grained prefix', 'github_pat_short'],
    ['token shapes inside a base64url run', `<!-- plangate:record v1 Zx_${ghp}-sk-${alnum(40)}q -->`],
    ['a header placeholder in code', 'headers: { Authorization: `Bearer ${token}` }, "Authorization: Bearer <token>"'],
    ['the word authorization in prose', 'the authorization flow hands out a bearer token'],
    [
      'a header in a template literal with a placeholder',
      'fetch(url, { headers: { "Authorization": `token ${auth}` } })',
    ],
    ['a URL without a password', 'https://github.com/o/r.git and https://user@example.com/x and git@github.com:o/r'],
    ['a URL with a port', 'http://127.0.0.1:8443/api and http://localhost:3000'],
    ['an email address and a time', 'mail me@example.com at 12:30'],
  ])('keeps %s', (_name, input) => {
    expect(redact(input, [])).toBe(input);
  });

  it('masks known secrets and shapes together, and a second pass changes nothing', () => {
    const text = `secret=plain-known-value ${ghp} Authorization: Bearer ${sk}`;
    const once = redact(text, ['plain-known-value']);
    expect(once).toBe('secret=*** *** Authorization: Bearer ***');
    expect(redact(once, ['plain-known-value'])).toBe(once);
  });
});
