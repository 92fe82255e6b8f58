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

/** One class of characters a renderer draws as nothing, with the reason it is in the list. */
interface HiddenClass {
  why: string;
  ranges: ReadonlyArray<readonly [number, number]>;
}

/**
 * Every class below is invisible in a browser yet reaches a model as real characters. Together
 * they cover Unicode's Default_Ignorable_Code_Point set plus control characters; the test checks
 * the set against the runtime's Unicode data so a gap shows up.
 */
const hiddenClasses: readonly HiddenClass[] = [
  {
    why: 'zero-width characters: ZWSP, ZWNJ, ZWJ, word joiner, BOM / ZWNBSP, Mongolian vowel separator',
    ranges: [[0x200b, 0x200d], [0x2060, 0x2060], [0xfeff, 0xfeff], [0x180e, 0x180e]],
  },
  {
    why: 'bidirectional controls: they reorder what a human sees without changing what a model reads',
    ranges: [[0x200e, 0x200f], [0x061c, 0x061c], [0x202a, 0x202e], [0x2066, 0x2069]],
  },
  {
    why: 'Unicode tag characters: an invisible copy of ASCII, the classic carrier for hidden prompts',
    ranges: [[0xe0000, 0xe007f]],
  },
  {
    why: 'soft hyphen: drawn only at a line break, so it can split a word the model then reads whole',
    ranges: [[0x00ad, 0x00ad]],
  },
  {
    why: 'variation selectors (standard, supplementary, Mongolian): no glyph of their own, and a run of them after one visible character can encode arbitrary bytes',
    ranges: [[0xfe00, 0xfe0f], [0xe0100, 0xe01ef], [0x180b, 0x180d], [0x180f, 0x180f]],
  },
  {
    why: 'invisible operators and deprecated format controls (function application, invisible times, symmetric swapping, digit shapes)',
    ranges: [[0x2061, 0x2065], [0x206a, 0x206f]],
  },
  {
    why: 'blank fillers: combining grapheme joiner, Hangul fillers, Khmer inherent vowels render as empty space',
    ranges: [[0x034f, 0x034f], [0x115f, 0x1160], [0x3164, 0x3164], [0xffa0, 0xffa0], [0x17b4, 0x17b5]],
  },
  {
    why: 'other format controls and reserved ignorables: shorthand and musical format controls, the unassigned ignorable blocks a future font still draws as nothing',
    ranges: [[0xfff0, 0xfff8], [0x1bca0, 0x1bca3], [0x1d173, 0x1d17a], [0xe0080, 0xe00ff], [0xe01f0, 0xe0fff]],
  },
  {
    why: 'C0 and C1 control characters other than tab, line feed and carriage return: a browser shows nothing for them',
    ranges: [[0x00, 0x08], [0x0b, 0x0c], [0x0e, 0x1f], [0x7f, 0x9f]],
  },
];

const codePoint = (n: number) => `\\u{${n.toString(16)}}`;
/**
 * Every character of the classes above. Exported so the renderers can show what this strips: a
 * global pattern, for `replace` and `matchAll` only (they reset it; `test` and `exec` would not).
 */
export const hiddenCharacters = new RegExp(
  `[${hiddenClasses
    .flatMap((c) => c.ranges)
    .map(([from, to]) => (from === to ? codePoint(from) : `${codePoint(from)}-${codePoint(to)}`))
    .join('')}]`,
  'gu',
);

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
  for (let line = 0; line < text.length; ) {
    definitionStart.lastIndex = line;
    definitionStart.exec(text);
    const start = definitionStart.lastIndex;
    const end = text[start] === '[' ? links.definitionEnd(start) : undefined;
    if (end !== undefined) cuts.push([start, end]);
    line = nextLine(text, end ?? start);
  }
  return cuts;
}

/** Length of the line ending at `i` (LF, CR LF or a lone CR, as CommonMark counts them), or 0. */
function lineEndingAt(text: string, i: number): number {
  if (text[i] === '\n') return 1;
  if (text[i] === '\r') return text[i + 1] === '\n' ? 2 : 1;
  return 0;
}

/** Where the line after the one holding `i` starts; the text's length when `i` is on the last line. */
function nextLine(text: string, i: number): number {
  for (let j = i; j < text.length; j++) {
    const eol = lineEndingAt(text, j);
    if (eol > 0) return j + eol;
  }
  return text.length;
}

/** Whether the line after the line ending at `i` is blank (block-quote markers aside): a paragraph, and any link in it, ends there. */
function blankAfter(text: string, i: number): boolean {
  let j = i + lineEndingAt(text, i);
  while (text[j] === ' ' || text[j] === '\t' || text[j] === '>') j++;
  return j >= text.length || lineEndingAt(text, j) > 0;
}

/** A renderer gives up on a link destination nested deeper than this (cmark's limit), and shows it as text. */
const maxDestinationParens = 32;
/** What a backslash can escape in CommonMark. */
const asciiPunctuation = /[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/;
/** The longest link label CommonMark accepts. */
const maxLabel = 999;

/**
 * CommonMark's link syntax (destinations, titles, definitions) over one text, as a renderer reads
 * it. Where a title closes is looked up in tables built once, not scanned for, so a text full of
 * titles that never close costs linear time rather than quadratic.
 */
class LinkSyntax {
  readonly text: string;
  private readonly closers = new Map<string, Int32Array>();
  private breaks: Int32Array | undefined;

  constructor(text: string) {
    this.text = text;
  }

  /** The end of a link reference definition whose label opens at `start` (before its line ending); undefined when there is none. */
  definitionEnd(start: number): number | undefined {
    const label = this.labelEnd(start);
    if (label === undefined || this.text[label] !== ':') return undefined;
    const destination = this.destinationEnd(this.skipSpace(label + 1), true);
    if (destination === undefined) return undefined;
    // Without a title the destination must end its line; with one, the title must. A title that does
    // not leaves a definition without it, when the title began on a line of its own.
    const bare = this.lineRestBlank(destination);
    const gap = this.skipSpace(destination);
    const title = gap > destination ? this.titleEnd(gap) : undefined;
    const titled = title === undefined ? undefined : this.lineRestBlank(title);
    return titled ?? bare;
  }

  /**
   * The inline link tail `(url "title")` opening at `open`: where it ends and, when it has a title,
   * the range to cut (the title with the space around it), which leaves `(url)`.
   */
  inlineTail(open: number): { end: number; title?: [number, number] } | undefined {
    const { text } = this;
    const start = this.skipSpace(open + 1);
    if (text[start] === ')') return { end: start + 1 };
    const destination = this.destinationEnd(start, false);
    if (destination === undefined) return undefined;
    const gap = this.skipSpace(destination);
    if (text[gap] === ')') return { end: gap + 1 };
    const title = gap > destination ? this.titleEnd(gap) : undefined;
    if (title === undefined) return undefined;
    const close = this.skipSpace(title);
    return text[close] === ')' ? { end: close + 1, title: [destination, close] } : undefined;
  }

  /** Just past the `]` of a label opening at `start`: no unescaped bracket inside, not blank, at most 999 characters. */
  private labelEnd(start: number): number | undefined {
    const { text } = this;
    const limit = Math.min(text.length, start + maxLabel + 2);
    let visible = false;
    for (let i = start + 1; i < limit; i++) {
      const ch = text[i];
      if (ch === '\\') {
        i++;
        visible = true;
      } else if (ch === ']') {
        return visible ? i + 1 : undefined;
      } else if (ch === '[') {
        return undefined;
      } else if (lineEndingAt(text, i) > 0) {
        if (blankAfter(text, i)) return undefined;
      } else if (ch !== ' ' && ch !== '\t') {
        visible = true;
      }
    }
    return undefined;
  }

  /** Skips spaces and tabs and at most one line ending, with the block-quote markers and indentation of the line it leads to. */
  private skipSpace(i: number): number {
    const { text } = this;
    while (text[i] === ' ' || text[i] === '\t') i++;
    const eol = lineEndingAt(text, i);
    if (eol === 0) return i;
    i += eol;
    while (text[i] === ' ' || text[i] === '\t' || text[i] === '>') i++;
    return i;
  }

  /** Where the line's rest is only spaces and tabs: the position of its line ending (or the text's end); undefined otherwise. */
  private lineRestBlank(i: number): number | undefined {
    const { text } = this;
    while (text[i] === ' ' || text[i] === '\t') i++;
    return i >= text.length || lineEndingAt(text, i) > 0 ? i : undefined;
  }

  /** Just past a destination: `<...>` on one line, or a run without spaces or controls whose parentheses balance. */
  private destinationEnd(i: number, definition: boolean): number | undefined {
    const { text } = this;
    if (text[i] === '<') {
      for (let j = i + 1; j < text.length; j++) {
        const ch = text[j];
        if (ch === '\\') j++;
        else if (ch === '>') return j + 1;
        else if (ch === '<' || lineEndingAt(text, j) > 0) return undefined;
      }
      return undefined;
    }
    let depth = 0;
    let j = i;
    for (; j < text.length; j++) {
      const ch = text[j] ?? '';
      const c = ch.charCodeAt(0);
      if (c <= 0x20 || c === 0x7f) break;
      if (ch === '\\' && asciiPunctuation.test(text[j + 1] ?? '')) {
        j++;
      } else if (ch === '(') {
        if (++depth > maxDestinationParens) return undefined;
      } else if (ch === ')') {
        if (depth === 0) break;
        depth--;
      }
    }
    if (depth > 0) return undefined;
    // An inline link may leave its destination out (`[a]( "t")` has none); a definition may not.
    return j > i || !definition ? j : undefined;
  }

  /** Just past a title opening at `i`: `"..."`, `'...'` or `(...)`, over lines but not across a blank one. */
  private titleEnd(i: number): number | undefined {
    const open = this.text[i];
    const close = open === '"' || open === "'" ? open : open === '(' ? ')' : undefined;
    if (close === undefined) return undefined;
    const end = this.nextUnescaped(close, i + 1);
    if (end >= this.text.length || end >= this.nextBreak(i)) return undefined;
    if (open === '(' && this.nextUnescaped('(', i + 1) < end) return undefined;
    return end + 1;
  }

  /** The first `ch` at or after `from` that no backslash escapes, or the text's length. */
  private nextUnescaped(ch: string, from: number): number {
    const { text } = this;
    let table = this.closers.get(ch);
    if (!table) {
      const n = text.length;
      const escaped = new Uint8Array(n);
      for (let i = 1, run = 0; i < n; i++) {
        run = text[i - 1] === '\\' ? run + 1 : 0;
        escaped[i] = run % 2;
      }
      table = new Int32Array(n + 1).fill(n);
      for (let i = n - 1; i >= 0; i--) table[i] = text[i] === ch && !escaped[i] ? i : (table[i + 1] ?? n);
      this.closers.set(ch, table);
    }
    return table[Math.min(from, text.length)] ?? text.length;
  }

  /** The first line ending at or after `from` that a blank line follows, or the text's length. */
  private nextBreak(from: number): number {
    const { text } = this;
    if (!this.breaks) {
      const n = text.length;
      const breaks = new Int32Array(n + 1).fill(n);
      for (let i = n - 1; i >= 0; i--) breaks[i] = lineEndingAt(text, i) > 0 && blankAfter(text, i) ? i : (breaks[i + 1] ?? n);
      this.breaks = breaks;
    }
    return this.breaks[Math.min(from, text.length)] ?? text.length;
  }
}

const imgTagStart = /<img(?=[\s/>])/gi;

/**
 * `<img alt="...">` loses its alt attribute, however it is quoted. Attributes are tokenised so an
 * `alt=` inside another attribute's value is not mistaken for one. A tag that never closes is no
 * tag to a renderer (it shows as text), so it is left as it is.
 */
function htmlImageAltCuts(text: string): Array<[number, number]> {
  const cuts: Array<[number, number]> = [];
  // Where each quote character last appears: a value opened after it never closes, known in O(1).
  const lastQuote = { '"': text.lastIndexOf('"'), "'": text.lastIndexOf("'") };
  imgTagStart.lastIndex = 0;
  for (let m = imgTagStart.exec(text); m; m = imgTagStart.exec(text)) {
    const tag = scanImgAttributes(text, m.index + m[0].length, lastQuote);
    if (!tag) continue;
    cuts.push(...tag.alts);
    imgTagStart.lastIndex = tag.end;
  }
  return cuts;
}

/** Reads attributes up to the closing `>`; undefined when the tag does not close. */
function scanImgAttributes(
  text: string,
  from: number,
  lastQuote: Record<'"' | "'", number>,
): { end: number; alts: Array<[number, number]> } | undefined {
  const alts: Array<[number, number]> = [];
  const n = text.length;
  let i = from;
  for (;;) {
    const gapStart = i;
    while (i < n && /[\s/]/.test(text[i] ?? '')) i++;
    if (i >= n || text[i] === '<') return undefined;
    if (text[i] === '>') return { end: i + 1, alts };
    const nameStart = i;
    while (i < n && !/[\s/=<>]/.test(text[i] ?? '')) i++;
    const name = text.slice(nameStart, i);
    let j = i;
    while (j < n && /\s/.test(text[j] ?? '')) j++;
    if (text[j] === '=') {
      j++;
      while (j < n && /\s/.test(text[j] ?? '')) j++;
      const quote = text[j];
      if (quote === '"' || quote === "'") {
        if (j >= lastQuote[quote]) return undefined;
        j = text.indexOf(quote, j + 1) + 1;
      } else {
        while (j < n && !/[\s<>]/.test(text[j] ?? '')) j++;
      }
      i = j;
    }
    if (name.toLowerCase() === 'alt') alts.push([gapStart, i]);
  }
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

const closingTag = '</untrusted-data>';
// Opening and closing forms, spaced or not, in any case: a model reads all of them as the fence.
const fenceTag = /<(?=\s*(?:\/\s*)?untrusted-data)/gi;

const attributeEscapes: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };

/**
 * Wraps text plangate did not write in a fence the system prompt tells models to treat as data,
 * never as instructions. Hidden content is stripped first, and every fence tag inside the text is
 * escaped: otherwise the data could close the fence early and follow it with text posing as the
 * host's own words.
 */
export function untrusted(label: string, text: string): string {
  const source = stripHidden(label)
    .replace(/[\r\n]+/g, ' ')
    .replace(/[&"<>]/g, (ch) => attributeEscapes[ch] ?? ch);
  const body = stripHidden(text).replace(fenceTag, '&lt;');
  return `<untrusted-data source="${source}">\n${body}\n${closingTag}`;
}
