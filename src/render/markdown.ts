/**
 * Small Markdown helpers shared by every rendered body, so user and model text can never break out
 * of the structure around it (a stray "<!--" could otherwise hide or fake a record).
 */

/** Neutralises HTML comments and raw tags in text that came from a model or a user. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Breaks HTML comment openers, which a code span would otherwise carry raw into the body. */
const defuseComments = (text: string) => text.replace(/<!--/g, '<!\u200b--');

// A CommonMark code span: a run of backticks, then text, then a run of the same length.
const codeSpan = /(?<!`)(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g;

/**
 * Escapes HTML in prose that may hold code spans written by plangate (a refusal's "`/plan <objective>`").
 * Inside a code span GitHub shows characters as they are, so an entity there would read "&lt;";
 * spans keep their text, with comment openers broken, and everything outside them is escaped.
 */
export function escapeProse(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(codeSpan)) {
    out += escapeHtml(text.slice(last, match.index)) + defuseComments(match[0]);
    last = match.index + match[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

/** Inline code that survives backticks inside it. */
export function code(raw: string): string {
  const text = defuseComments(raw);
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\n/g, ' ')}${pad}${fence}`;
}

/** A fenced block that survives fences inside it. */
export function codeBlock(raw: string, language = ''): string {
  const text = defuseComments(raw);
  const longest = Math.max(2, ...Array.from(text.matchAll(/`{3,}/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** Collapsible section, for long content a reader opens on demand. */
export function details(summary: string, body: string): string {
  return `<details><summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>`;
}

/** Indents every line after the first so multi-line text stays inside a list item. */
export function indent(text: string, spaces = 3): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line, i) => (i === 0 || line === '' ? line : pad + line))
    .join('\n');
}
