/** Raised when GitHub answered a write with a body other than the one plangate sent. */
export class ReadBackMismatchError extends Error {
  override name = 'ReadBackMismatchError';
}

/** GitHub may store CRLF line endings as LF; that is not a change of content. */
function normalise(text: string): string {
  return text.replaceAll('\r\n', '\n');
}

/**
 * Checks that GitHub stored the body plangate sent. A plan comment is only believed while it reads
 * exactly as rendered, so a body GitHub altered (or a proxy truncated) must fail the write now,
 * with a message saying where, rather than be found "edited" by the next run.
 */
export function checkStored(what: string, sent: string, stored: string | null | undefined): void {
  const want = normalise(sent);
  const got = normalise(stored ?? '');
  if (want === got) return;
  let at = 0;
  while (at < want.length && at < got.length && want[at] === got[at]) at++;
  throw new ReadBackMismatchError(
    `GitHub stored a different ${what} than plangate sent: sent ${want.length} characters, stored ${got.length}, ` +
      `first difference at character ${at}.`,
  );
}
