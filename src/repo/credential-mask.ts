/**
 * The credential scan of what plangate publishes. Every text it posts or pushes (comments, the pull
 * request, commit messages, what an agent stages into the run, an amendment's held diff) passes the
 * same maintained rules the commit gate reads files with (credential-rules.ts); what they find is
 * replaced by the rule's name, so a key a model copied or a command printed is never published and
 * the reader still sees that one was there. The rules load on the first text that could hold one.
 */

/** What a masked credential reads as: the rule that found it, never any of its characters. */
export function maskFor(rule: string): string {
  return `[credential masked: ${rule}]`;
}

/** A text with every credential masked, and the rules that fired (each once, in order of first finding). */
export interface MaskedText {
  text: string;
  rules: string[];
}

// Shorter than the shortest key the rules know (a Slack token, an npm token): nothing to read.
const shortest = 16;

/** `text` with each credential the rules find replaced by {@link maskFor} its rule. */
export async function maskCredentials(text: string): Promise<MaskedText> {
  if (text.length < shortest) return { text, rules: [] };
  const { findCredentials } = await import('./credential-rules.js');
  // A Markdown name: the rules read the text as prose, as GitHub shows it.
  const matches = (await findCredentials('published.md', text)).sort((a, b) => a.start - b.start);
  if (matches.length === 0) return { text, rules: [] };
  const rules: string[] = [];
  let out = '';
  let at = 0;
  for (const match of matches) {
    if (!rules.includes(match.rule)) rules.push(match.rule);
    // Overlapping findings (two rules on one key) mask the span once.
    if (match.end <= at) continue;
    out += text.slice(at, Math.max(at, match.start)) + maskFor(match.rule);
    at = match.end;
  }
  return { text: out + text.slice(at), rules };
}

/** {@link maskCredentials} for a caller that needs only the text. */
export async function maskedText(text: string): Promise<string> {
  return (await maskCredentials(text)).text;
}

/**
 * `value` (JSON-shaped: strings, numbers, arrays, plain objects) with every string masked on its
 * own: what an agent stages is recorded, shown and published, so it is masked where it enters the run.
 */
export async function maskStrings<T>(value: T): Promise<T> {
  if (typeof value === 'string') return (await maskedText(value)) as T;
  if (Array.isArray(value)) return (await Promise.all(value.map((item: unknown) => maskStrings(item)))) as T;
  if (value !== null && typeof value === 'object') {
    const entries = await Promise.all(
      Object.entries(value).map(async ([key, item]) => [key, await maskStrings(item)] as const),
    );
    return Object.fromEntries(entries) as T;
  }
  return value;
}
