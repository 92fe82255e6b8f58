/**
 * Hygiene for text plangate did not write (issue bodies, comments, file contents) before a model
 * reads it. Rendered Markdown hides some content from the maintainer who reviews a thread while
 * the model still reads every byte, so an attacker can put instructions where only the model
 * looks. Stripping that content makes the model see what the human saw, no more.
 *
 * The stripping deliberately ignores code spans and fences: deciding what is code needs a full
 * Markdown parser and fence ambiguities are themselves an attack surface, so a comment or alt text
 * inside code is removed too. Losing a little visible text is the safe failure.
 *
 * Every kind of hidden content is found in the text as a renderer reads it, and all of it is cut in
 * one go: cutting one kind first would change the text the next kind is looked for in (a link title
 * holding `<!--` would lose its closing quote to the comment and reach the model whole).
 */

import { hiddenCharacters } from './hidden-characters.js';
import { htmlImageAltCuts } from './html-image-alt.js';
import { LinkSyntax, nextLine } from './link-syntax.js';

// `<!-->` and `<!--->` close at once (CommonMark and HTML agree); otherwise the comment runs to the
// first `-->`, or to the end of the text when none follows, as a browser would hide it.
const htmlComment = /<!--(?:-?>|[\s\S]*?(?:-->|$))/g;

/** Removes what a human reader of rendered Markdown does not see but a model would read. */
export function stripHidden(text: string): string {
  const links = new LinkSyntax(text);
  // Characters last: a renderer finds `-->` or a title's closing quote before any character is
  // dropped, so must we, or a zero-width character between `--` and `>` would turn hidden text into
  // visible-to-the-model text.
  const cuts = [...commentCuts(text), ...definitionCuts(links), ...bracketCuts(links), ...htmlImageAltCuts(text)];
  return cut(text, merged(cuts)).replace(hiddenCharacters, '');
}

function commentCuts(text: string): Array<[number, number]> {
  return Array.from(text.matchAll(htmlComment), (m): [number, number] => [m.index, m.index + m[0].length]);
}

/**
 * `![alt](url)` and `![alt][ref]` lose their alt text: it is shown only when the image fails. A
 * link's or an image's title, `[text](url "title")`, goes too: it shows only as a tooltip. The link
 * text and the URL stay. Brackets pair like CommonMark's delimiter stack (each `]` closes the nearest
 * open `[`), which handles nesting and escapes in one linear pass, where a regular expression could
 * not. A shortcut reference `![alt]` is left alone: without its definition it renders as visible text.
 */
function bracketCuts(links: LinkSyntax): Array<[number, number]> {
  const { text } = links;
  const open: Array<{ at: number; image: boolean }> = [];
  const cuts: Array<[number, number]> = [];
  let bang = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') {
      i++;
      bang = false;
      continue;
    }
    if (ch === '[') {
      open.push({ at: i, image: bang });
    } else if (ch === ']') {
      const opener = open.pop();
      const next = text[i + 1];
      if (opener?.image && (next === '(' || next === '[') && i > opener.at + 1) {
        // An outer image swallows cuts made inside its own alt text.
        while (cuts.length > 0 && (cuts[cuts.length - 1]?.[0] ?? -1) > opener.at) cuts.pop();
        cuts.push([opener.at + 1, i]);
      }
      const tail = opener && next === '(' ? links.inlineTail(i + 1) : undefined;
      if (tail) {
        if (tail.title) cuts.push(tail.title);
        // The renderer takes the whole tail as the link's: brackets in the URL or title pair with nothing.
        i = tail.end - 1;
        bang = false;
        continue;
      }
    }
    bang = ch === '!';
  }
  return cuts;
}

// Where a link reference definition can start: a line's beginning, after any block-quote markers,
// list markers and indentation (generously: a line this takes for a definition that a renderer would
// show loses visible text, the safe failure).
const definitionStart = /[ \t]*(?:(?:>|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t]))[ \t]*)*/y;

/**
 * Link reference definitions, `[label]: url "title"`, render as nothing at all (only links that use
 * them show, as their own text), so the whole definition goes: label, URL and title, over as many
 * lines as it spans. A reference link that used one then reads as its visible text.
 */
function definitionCuts(links: LinkSyntax): Array<[number, number]> {
  const { text } = links;
  const cuts: Array<[number, number]> = [];
  for (let line = 0; line < text.length;) {
    definitionStart.lastIndex = line;
    definitionStart.exec(text);
    const start = definitionStart.lastIndex;
    const end = text[start] === '[' ? links.definitionEnd(start) : undefined;
    if (end !== undefined) cuts.push([start, end]);
    line = nextLine(text, end ?? start);
  }
  return cuts;
}

/** Sorts [start, end) ranges and joins those that overlap or touch. */
function merged(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [start, end] of sorted) {
    const last = out[out.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/** Removes sorted, non-overlapping [start, end) ranges. */
function cut(text: string, ranges: ReadonlyArray<readonly [number, number]>): string {
  if (ranges.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of ranges) {
    out += text.slice(at, start);
    at = end;
  }
  return out + text.slice(at);
}
