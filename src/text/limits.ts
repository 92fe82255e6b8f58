/**
 * GitHub rejects issue, comment and pull-request bodies over 65,536 characters. plangate never lets
 * that happen: long content is cut, with a notice, before it is sent.
 */
export const githubBodyLimit = 65_536;

const notice = (omitted: number) =>
  `\n\n> [!NOTE]\n> ${omitted} characters were cut here to fit GitHub's size limit.\n\n`;

/**
 * Cuts the middle of a body that is too long, keeping its head and its tail: the tail holds the
 * hidden record and the closing lines that must survive.
 */
export function fitBody(body: string, limit = githubBodyLimit): string {
  if (body.length <= limit) return body;
  const tailLength = Math.min(Math.floor(limit / 4), 8_000);
  // The notice's own length depends on the digit count; reserve for the longest.
  const room = limit - tailLength - notice(body.length).length;
  // A limit too small for the notice still has to hold: a plain cut is all that fits.
  if (room < 0) return body.slice(0, limit);
  const head = body.slice(0, room);
  const tail = body.slice(body.length - tailLength);
  return head + notice(body.length - head.length - tail.length) + tail;
}

/** Shortens one piece of text to at most `max` characters, saying how much was left out. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = (omitted: number) => ` … [${omitted} more characters]`;
  // The marker's length depends on the count it reports; sized for the largest count, the result stays within max.
  const kept = max - marker(text.length).length;
  if (kept < 0) return text.slice(0, max);
  return text.slice(0, kept) + marker(text.length - kept);
}
