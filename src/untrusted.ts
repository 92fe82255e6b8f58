/**
 * Hygiene for text plangate did not write (issue bodies, comments, file contents) before a model
 * reads it. Rendered Markdown hides some content from the maintainer who reviews a thread while
 * the model still reads every byte, so an attacker can put instructions where only the model
 * looks. Stripping that content makes the model see what the human saw, no more.
 *
 * The stripping deliberately ignores code spans and fences: deciding what is code needs a full
 * Markdown parser and fence ambiguities are themselves an attack surface, so a comment or alt text
 * inside code is removed too. Losing a little visible text is the safe failure.
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
const hiddenCharacters = new RegExp(
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
  // Comments first: a renderer finds `-->` before any character is dropped, so must we, or a
  // zero-width character between `--` and `>` would turn hidden text into visible-to-the-model text.
  const withoutComments = text.replace(htmlComment, '');
  return stripHtmlImageAlt(stripMarkdownImageAlt(withoutComments)).replace(hiddenCharacters, '');
}

/**
 * `![alt](url)` and `![alt][ref]` lose their alt text: it is shown only when the image fails.
 * Brackets pair like CommonMark's delimiter stack (each `]` closes the nearest open `[`), which
 * handles nesting and escapes in one linear pass, where a regular expression could not.
 * A shortcut reference `![alt]` is left alone: without its definition it renders as visible text.
 */
function stripMarkdownImageAlt(text: string): string {
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
    }
    bang = ch === '!';
  }
  return cut(text, cuts);
}

const imgTagStart = /<img(?=[\s/>])/gi;

/**
 * `<img alt="...">` loses its alt attribute, however it is quoted. Attributes are tokenised so an
 * `alt=` inside another attribute's value is not mistaken for one. A tag that never closes is no
 * tag to a renderer (it shows as text), so it is left as it is.
 */
function stripHtmlImageAlt(text: string): string {
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
  return cut(text, cuts);
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
