/**
 * Token shapes masked even when plangate was never told the value: a model can echo a credential
 * it read from a file or a command's output, and that one is in no secrets list. Each pattern
 * starts at a fixed literal and each repetition can match only one way, so matching stays linear
 * in the text's length. Keys and tokens must not follow a base64url character, so they are never
 * found inside a longer encoded run (such as the plan record in a plan comment).
 */
const tokenShapes: ReadonlyArray<readonly [RegExp, string]> = [
  // GitHub personal, OAuth, user-to-server, server-to-server and refresh tokens.
  [/(?<![A-Za-z0-9_-])gh[pousr]_[A-Za-z0-9]{36,}/g, '***'],
  // GitHub fine-grained personal access tokens.
  [/(?<![A-Za-z0-9_-])github_pat_[A-Za-z0-9_]{22,}/g, '***'],
  // OpenAI-style keys, project keys (`sk-proj-...`) included.
  [/(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g, '***'],
  // Authorization header values; the value is RFC 7235's token68, so placeholders such as
  // `${token}` or `<token>` in code and docs stay readable.
  [/(\bauthorization["']?\s*[:=]\s*(?:["'`]\s*)?(?:bearer|token|basic)\s+)[A-Za-z0-9._~+/-]+=*/gi, '$1***'],
  // The token git and Actions put into clone URLs.
  [/(x-access-token:)[^\s@/:]+(?=@)/gi, '$1***'],
  // Any other password in a URL's user-info part (`https://user:password@host`).
  [/(:\/\/[^\s:@/]+:)[^\s@/]+(?=@)/g, '$1***'],
];

/**
 * Masks secrets in text that leaves the runner (comments, pull requests). The runner masks secrets
 * in logs; GitHub bodies need this second line of defence, for the known secrets and for anything
 * shaped like a credential.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first: a shorter secret inside a longer one would otherwise leave the rest of it readable.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    // Short values would mangle ordinary words and are no real secret.
    if (secret.length >= 8) out = out.split(secret).join('***');
  }
  for (const [shape, replacement] of tokenShapes) out = out.replace(shape, replacement);
  return out;
}
