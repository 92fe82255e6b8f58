import { hiddenCharacters } from './hidden-characters.js';

/**
 * Small Markdown helpers shared by every rendered body, so user and model text can never break out
 * of the structure around it (a stray "<!--" could otherwise hide or fake a record), and text shown
 * as code or escaped prose renders as exactly what it is: nothing in it invisible, nothing in it read
 * as Markdown.
 */

/** Neutralises HTML comments and raw tags in text that came from a model or a user. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const codePointBefore = (text: string, at: number) => {
  const unit = text.charCodeAt(at - 1);
  return unit >= 0xdc00 && unit <= 0xdfff && at >= 2 ? text.codePointAt(at - 2) : text.codePointAt(at - 1);
};
const pictographic = /\p{Extended_Pictographic}/u;
const isPictographic = (cp: number | undefined) => cp !== undefined && pictographic.test(String.fromCodePoint(cp));

/**
 * Shows each character a browser draws as nothing (zero-width, bidirectional, tag and variation
 * characters, controls: the set the untrusted-text sanitiser strips) as a visible `[U+200B]`, so text
 * that a model reads whole hides nothing from the human who reads it rendered. Emoji keep the
 * characters that spell them: the presentation selector right after a pictograph, and a joiner
 * between two.
 */
export function revealHidden(text: string): string {
  return text.replace(hiddenCharacters, (ch: string, at: number) => {
    const before = codePointBefore(text, at);
    if ((ch === '\ufe0f' || ch === '\ufe0e') && isPictographic(before)) return ch;
    if (ch === '\u200d' && (isPictographic(before) || before === 0xfe0f) && isPictographic(text.codePointAt(at + 1)))
      return ch;
    return `[U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`;
  });
}

/** Every line ending CommonMark knows (LF, CR LF, a lone CR), so none can slip past a line-by-line prefix. */
const lineEnding = /\r\n?|\n/g;

/**
 * Escapes text for inline Markdown so it renders as exactly its characters. Every ASCII punctuation
 * character gets a backslash (CommonMark lets any of them be escaped, and an escaped one has no
 * Markdown meaning), so no link, link title or reference definition, HTML, autolink, emphasis, code
 * span, footnote, table, heading, quote or list can start, and entities, mentions and emoji codes stay
 * text. The one exception is `.`, which means something only after the digits that open a line (an
 * ordered list): it is escaped there alone, so file names read as written. Hidden characters are shown,
 * and line breaks become spaces, so the text stays on the line it is put on.
 */
export function escapeMarkdown(text: string): string {
  return revealHidden(text.trim())
    .replace(lineEnding, ' ')
    .replace(/[\x21-\x2d\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/g, '\\$&')
    .replace(/^(\d+)\./, '$1\\.');
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

/**
 * Inline code that survives backticks inside it: the text on one line (every kind of line ending
 * becomes a space), hidden characters shown.
 */
export function code(raw: string): string {
  const text = defuseComments(revealHidden(raw)).replace(lineEnding, ' ');
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * A fenced block that survives fences inside it, fenced longer than any backtick run in the text, so
 * everything in it shows literally. Line endings become LF, so a lone CR cannot start a line that
 * escapes the indentation a list item gives the block; hidden characters are shown.
 */
export function codeBlock(raw: string, language = ''): string {
  const text = defuseComments(revealHidden(raw)).replace(lineEnding, '\n');
  const longest = Math.max(2, ...Array.from(text.matchAll(/`{3,}/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** Puts rendered Markdown in a block quote, every line of it, blank ones included, so nothing leaves the quote. */
export function quote(markdown: string): string {
  return markdown
    .split(lineEnding)
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
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
