import MarkdownIt, { type StateBlock, type StateInline } from 'markdown-it';
import footnote from 'markdown-it-footnote';

/**
 * Markdown read the way github.com reads an issue or a comment: CommonMark with GitHub's tables,
 * strikethrough and footnotes, raw HTML passed through, and a line break where the author broke the
 * line. markdown-it is a CommonMark parser; where it and GitHub's renderer disagree on what is HTML
 * (and so may hide), it is told to side with GitHub, so that text GitHub hides is never read here as
 * visible text. The HTML it makes is only ever read for its visible text (visible-text.ts), never
 * shown, so it accepts every link destination: one it refused would be shown as text, destination
 * and title included, where GitHub shows only the link's label.
 */

/**
 * HTML blocks GitHub starts where markdown-it would not: CDATA in any case (GitHub hides
 * `<![cdata[...]]>`), and `source`, which is in the block-level tag list of the CommonMark version
 * GitHub follows and not in markdown-it's. Each with what ends it: its closer, or a blank line.
 */
const extraBlockStarts: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/^<!\[cdata\[/i, /\]\]>/],
  [/^<\/?source(?=\s|\/?>|$)/i, /^$/],
];

/** markdown-it's own HTML block rule, for the starts above: the same extent, the same token. */
function extraHtmlBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const at = (line: number) => state.bMarks[line]! + state.tShift[line]!;
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  let text = state.src.slice(at(startLine), state.eMarks[startLine]);
  const start = extraBlockStarts.find(([open]) => open.test(text));
  if (!start) return false;
  if (silent) return true;
  const close = start[1];
  const endsOnBlank = close.test('');
  let next = startLine + 1;
  if (!close.test(text)) {
    for (; next < endLine; next++) {
      if (state.sCount[next]! < state.blkIndent && (endsOnBlank || !state.isEmpty(next))) break;
      text = state.src.slice(at(next), state.eMarks[next]);
      if (close.test(text)) {
        if (text.length !== 0) next++;
        break;
      }
    }
  }
  state.line = next;
  const token = state.push('html_block', '', 0);
  token.map = [startLine, next];
  token.content = state.getLines(startLine, next, state.blkIndent, true);
  return true;
}

/** Where the search for `]]>` last ended, per inline run, so many unclosed openers cost linear time. */
const cdataClosers = new WeakMap<StateInline, { from: number; at: number }>();

/** Inline CDATA in any case, which GitHub hides and markdown-it reads as text unless upper-case. */
function cdataInline(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x3c || !/^<!\[cdata\[/i.test(src.slice(pos, pos + 9))) return false;
  const from = pos + 9;
  const cached = cdataClosers.get(state);
  const at =
    cached && cached.from <= from && (cached.at >= from || cached.at < 0) ? cached.at : src.indexOf(']]>', from);
  cdataClosers.set(state, { from, at });
  if (at < 0 || at + 3 > state.posMax) return false;
  if (!silent) state.push('html_inline', '', 0).content = src.slice(pos, at + 3);
  state.pos = at + 3;
  return true;
}

const markdown = new MarkdownIt('default', { html: true, breaks: true, linkify: false, typographer: false });
markdown.use(footnote);
markdown.validateLink = () => true;
markdown.block.ruler.before('html_block', 'github_html_block', extraHtmlBlock, {
  alt: ['paragraph', 'reference', 'blockquote'],
});
markdown.inline.ruler.before('html_inline', 'github_cdata', cdataInline);

/** The HTML github.com makes of `text` before its sanitiser runs (raw HTML included, as written). */
export function githubHtml(text: string): string {
  return markdown.render(text);
}
