import fs from 'node:fs';

/**
 * read_file's reading: a range of lines streamed from the file, each line and the whole result cut
 * to a size a model can take, and the NUL sniff that tells a binary file from text, as git does.
 */

/** Bytes of one line read_file shows; the rest of a longer line is counted, not shown. */
const MAX_READ_LINE_BYTES = 4_000;
/** read_file stops adding lines past this and says where to continue; below the toolbox limit. */
const READ_OUTPUT_BUDGET = 14_000;
/** Bytes sniffed for NUL to tell binary files apart, as git does. */
const BINARY_SNIFF_BYTES = 8_000;

/** The lines read_file shows, numbered, and what is known of the file's length. */
export interface LineRange {
  lines: string[];
  /** Lines seen; the file's total when `complete`. */
  total: number;
  complete: boolean;
  budgetHit: boolean;
}

/**
 * Streams the file and keeps only the requested lines, so a range of a large file costs memory
 * for that range alone. Splits on the newline byte, which never occurs inside a UTF-8 sequence.
 */
export async function readLineRange(
  abs: string,
  start: number,
  end: number,
  stopAfterEnd: boolean,
): Promise<LineRange> {
  const lines: string[] = [];
  let budget = READ_OUTPUT_BUDGET;
  let budgetHit = false;
  let lineNo = 1;
  let pieces: Buffer[] = [];
  let pieceBytes = 0;
  let cutBytes = 0;
  let pending = false;

  const wanted = () => !budgetHit && lineNo >= start && lineNo <= end;
  const finishLine = () => {
    if (wanted()) {
      let text = Buffer.concat(pieces).toString('utf8');
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (cutBytes > 0) text += ` … [line cut: ${cutBytes} more bytes]`;
      const rendered = `${lineNo}: ${text}`;
      if (rendered.length + 1 > budget && lines.length > 0) {
        budgetHit = true;
      } else {
        lines.push(rendered);
        budget -= rendered.length + 1;
      }
    }
    pieces = [];
    pieceBytes = 0;
    cutBytes = 0;
    pending = false;
    lineNo += 1;
  };

  const stream = fs.createReadStream(abs);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let pos = 0;
      while (pos < chunk.length) {
        const newline = chunk.indexOf(0x0a, pos);
        const stop = newline < 0 ? chunk.length : newline;
        if (stop > pos) pending = true;
        if (wanted()) {
          const room = Math.max(0, MAX_READ_LINE_BYTES - pieceBytes);
          const take = Math.min(room, stop - pos);
          if (take > 0) {
            pieces.push(Buffer.from(chunk.subarray(pos, pos + take)));
            pieceBytes += take;
          }
          cutBytes += stop - pos - take;
        }
        if (newline < 0) break;
        finishLine();
        pos = newline + 1;
      }
      if (stopAfterEnd && (lineNo > end || budgetHit)) {
        return { lines, total: lineNo - 1, complete: false, budgetHit };
      }
    }
  } finally {
    stream.destroy();
  }
  if (pending) finishLine();
  return { lines, total: lineNo - 1, complete: true, budgetHit };
}

/** True when the file's first bytes hold a NUL, as git decides a file is binary. */
export async function looksBinary(abs: string): Promise<boolean> {
  const handle = await fs.promises.open(abs, 'r');
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}
