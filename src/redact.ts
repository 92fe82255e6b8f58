/**
 * Replaces every known secret in text that leaves the runner (comments, pull requests). The
 * runner masks secrets in logs; GitHub bodies need this second line of defence.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first: a shorter secret inside a longer one would otherwise leave the rest of it readable.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    // Short values would mangle ordinary words and are no real secret.
    if (secret.length >= 8) out = out.split(secret).join('***');
  }
  return out;
}
