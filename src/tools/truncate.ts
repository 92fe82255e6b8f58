/**
 * Tool output enters a session once and is never rewritten, so its bounded form must be a pure
 * function of the text: the same output always yields the same bytes, which keeps the prompt
 * cache prefix identical when a session is replayed.
 */

/** Default size of one tool result, in UTF-16 code units. */
export const DEFAULT_OUTPUT_LIMIT = 16_000;

/** How far back (as a share of the kept part) a cut may move to land on a line break. */
const LINE_SNAP_SHARE = 0.2;

/** The line put where text was cut out; exported so bounded collectors render cuts the same way. */
export function omissionLine(omitted: number): string {
  return `[… ${omitted} characters omitted …]`;
}

/**
 * Keeps the head and the tail of `text` (the start shows what ran, the end shows how it ended)
 * and replaces the middle with one omission line. The result never exceeds `limit` unless the
 * limit is too small to hold the omission line itself.
 */
export function truncateOutput(text: string, limit: number = DEFAULT_OUTPUT_LIMIT): string {
  if (text.length <= limit) return text;
  // The marker's width depends on the count it reports; the count can only shrink as the kept
  // budget grows, so sizing it for the whole text is a safe upper bound.
  const markerWidth = omissionLine(text.length).length + 2;
  const budget = Math.max(0, limit - markerWidth);
  let headEnd = snapHeadEnd(text, Math.floor(budget / 2));
  let tailStart = snapTailStart(text, text.length - (budget - Math.floor(budget / 2)));
  // Never cut between the halves of a surrogate pair; both moves only shrink what is kept.
  if (splitsPair(text, headEnd)) headEnd -= 1;
  if (splitsPair(text, tailStart)) tailStart += 1;
  if (tailStart < headEnd) tailStart = headEnd;
  const omitted = tailStart - headEnd;
  return `${text.slice(0, headEnd)}\n${omissionLine(omitted)}\n${text.slice(tailStart)}`;
}

/** Moves a head cut back to just after a line break when one is near, so lines stay whole. */
function snapHeadEnd(text: string, end: number): number {
  if (end <= 0) return 0;
  const floor = end - Math.floor(end * LINE_SNAP_SHARE);
  const newline = text.lastIndexOf('\n', end - 1);
  return newline >= floor && newline >= 0 ? newline + 1 : end;
}

/** Moves a tail cut forward to the start of a line when one is near. */
function snapTailStart(text: string, start: number): number {
  if (start >= text.length) return text.length;
  const kept = text.length - start;
  const ceiling = start + Math.floor(kept * LINE_SNAP_SHARE);
  if (start > 0 && text[start - 1] === '\n') return start;
  const newline = text.indexOf('\n', start);
  return newline >= 0 && newline < ceiling ? newline + 1 : start;
}

function splitsPair(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return false;
  const before = text.charCodeAt(index - 1);
  return before >= 0xd800 && before <= 0xdbff;
}
