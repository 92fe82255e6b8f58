/**
 * HTML images' alt text, which a browser shows only when the image fails to load: found in the
 * text as a renderer reads the tag, so stripHidden can cut it.
 */

const imgTagStart = /<img(?=[\s/>])/gi;

/**
 * `<img alt="...">` loses its alt attribute, however it is quoted. Attributes are tokenised so an
 * `alt=` inside another attribute's value is not mistaken for one. A tag that never closes is no
 * tag to a renderer (it shows as text), so it is left as it is.
 */
export function htmlImageAltCuts(text: string): Array<[number, number]> {
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
