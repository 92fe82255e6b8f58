/**
 * GitHub rejects issue, comment and pull-request bodies over 65,536 characters. plangate never lets
 * that happen: long content is cut, with a notice, before it is sent.
 */
export const githubBodyLimit = 65_536;

const notice = (omitted: number) => `\n\n> [!NOTE]\n> ${omitted} characters were cut here to fit GitHub's size limit.\n\n`;

/**
 * Cuts the middle of a body that is too long, keeping its head and its tail: the tail holds the
 * hidden record and the closing lines that must survive.
 */
export function fitBody(body: string, limit = githubBodyLimit): string {
  if (body.length <= limit) return body;
  const tailLength = Math.min(Math.floor(limit / 4), 8_000);
  // The notice's own length depends on the digit count; reserve for the longest.
  const room = limit - tailLength - notice(body.length).length;
  const head = body.slice(0, room);
  const tail = body.slice(body.length - tailLength);
  return head + notice(body.length - head.length - tail.length) + tail;
}

/** Shortens one piece of text to at most `max` characters, saying how much was left out. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = ` … [${text.length - max} more characters]`;
  return text.slice(0, Math.max(0, max - marker.length)) + marker;
}
