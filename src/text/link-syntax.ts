/**
 * CommonMark's link syntax (destinations, titles, reference definitions), read as a renderer reads
 * it, for stripHidden: a link's title and a definition render as nothing, so the exact extent of
 * each must be known to cut it, no more and no less.
 */

/** Length of the line ending at `i` (LF, CR LF or a lone CR, as CommonMark counts them), or 0. */
export function lineEndingAt(text: string, i: number): number {
  if (text[i] === '\n') return 1;
  if (text[i] === '\r') return text[i + 1] === '\n' ? 2 : 1;
  return 0;
}

/** Where the line after the one holding `i` starts; the text's length when `i` is on the last line. */
export function nextLine(text: string, i: number): number {
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
export class LinkSyntax {
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
      for (let i = n - 1; i >= 0; i--)
        breaks[i] = lineEndingAt(text, i) > 0 && blankAfter(text, i) ? i : (breaks[i + 1] ?? n);
      this.breaks = breaks;
    }
    return this.breaks[Math.min(from, text.length)] ?? text.length;
  }
}
