/**
 * Characters a renderer draws as nothing, which a model still reads: what an attacker hides
 * instructions in when a maintainer reviews the thread in a browser. Listed by class, each with the
 * reason it is in the list, so a reviewer can tell why a character goes.
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
    ranges: [
      [0x200b, 0x200d],
      [0x2060, 0x2060],
      [0xfeff, 0xfeff],
      [0x180e, 0x180e],
    ],
  },
  {
    why: 'bidirectional controls: they reorder what a human sees without changing what a model reads',
    ranges: [
      [0x200e, 0x200f],
      [0x061c, 0x061c],
      [0x202a, 0x202e],
      [0x2066, 0x2069],
    ],
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
    ranges: [
      [0xfe00, 0xfe0f],
      [0xe0100, 0xe01ef],
      [0x180b, 0x180d],
      [0x180f, 0x180f],
    ],
  },
  {
    why: 'invisible operators and deprecated format controls (function application, invisible times, symmetric swapping, digit shapes)',
    ranges: [
      [0x2061, 0x2065],
      [0x206a, 0x206f],
    ],
  },
  {
    why: 'blank fillers: combining grapheme joiner, Hangul fillers, Khmer inherent vowels render as empty space',
    ranges: [
      [0x034f, 0x034f],
      [0x115f, 0x1160],
      [0x3164, 0x3164],
      [0xffa0, 0xffa0],
      [0x17b4, 0x17b5],
    ],
  },
  {
    why: 'other format controls and reserved ignorables: shorthand and musical format controls, the unassigned ignorable blocks a future font still draws as nothing',
    ranges: [
      [0xfff0, 0xfff8],
      [0x1bca0, 0x1bca3],
      [0x1d173, 0x1d17a],
      [0xe0080, 0xe00ff],
      [0xe01f0, 0xe0fff],
    ],
  },
  {
    why: 'C0 and C1 control characters other than tab, line feed and carriage return: a browser shows nothing for them',
    ranges: [
      [0x00, 0x08],
      [0x0b, 0x0c],
      [0x0e, 0x1f],
      [0x7f, 0x9f],
    ],
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

/** Text without the characters above: what is left of text GitHub shows as written (a title, a file name). */
export function withoutHiddenCharacters(text: string): string {
  return text.replace(hiddenCharacters, '');
}
