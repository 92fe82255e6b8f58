import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { redact } from '../text/redact.js';

/**
 * Everything the CLI shows and asks. Model text reaches the terminal here (plans, directives,
 * summaries), so every line is stripped of control characters first: an escape sequence in a plan
 * could otherwise hide or rewrite what the user is approving. And every line is scrubbed of the
 * API key, so no path of output can print it.
 */
export interface Terminal {
  /** Results for the user (plans, history, tables): stdout. */
  out(text: string): void;
  /** Progress, notices and errors: stderr. */
  err(text: string): void;
  /** Prints the question on stderr and reads one answer line; undefined when stdin ends first. */
  ask(question: string): Promise<string | undefined>;
  /**
   * A person is at a terminal: stdin and stdout are TTYs and this is not CI. Only then does plangate
   * ask a question the command line could not have answered (whether to run what the repository's
   * config names); the approval question is also answered from a pipe (`echo y | plangate run`).
   */
  readonly interactive: boolean;
  /**
   * Scrubs these values too from here on: secrets learned after the terminal exists (the values of
   * the variables MCP servers are given, read with the repository's config) are never printed either.
   */
  conceal(values: readonly string[]): void;
}

export interface TerminalIo {
  stdin: Readable;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** See Terminal.interactive; decided by the caller, which knows the streams and the environment. */
  interactive: boolean;
}

// C0 controls but tab and newline, DEL and the C1 range: escape sequences start with these.
// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text as safe to print as plain text: no control characters, no known secret, no token shape. */
export function printable(text: string, secrets: readonly string[]): string {
  return redact(text.replace(/\r\n/g, '\n').replace(controls, ''), secrets);
}

export function createTerminal(io: TerminalIo, secrets: readonly string[]): Terminal {
  const known = [...secrets];
  const line = (text: string) => `${printable(text, known)}\n`;
  return {
    interactive: io.interactive,
    out: (text) => io.stdout(line(text)),
    err: (text) => io.stderr(line(text)),
    conceal: (values) => {
      for (const value of values) if (value !== '' && !known.includes(value)) known.push(value);
    },
    ask: async (question) => {
      io.stderr(printable(question, known));
      const answer = await readAnswer(io.stdin);
      // A terminal echoes what was typed; an answer from a pipe is shown, so the log reads as a dialogue.
      if (answer !== undefined && !(io.stdin as { isTTY?: boolean }).isTTY) io.stderr(line(answer));
      return answer;
    },
  };
}

/**
 * Whether a person can be asked: both ends are terminals, and `CI` is not set (CI systems set it
 * to true; some give jobs a pseudo-terminal, and nobody answers there).
 */
export function isInteractive(
  stdin: { isTTY?: boolean },
  stdout: { isTTY?: boolean },
  env: NodeJS.ProcessEnv,
): boolean {
  const ci = env.CI?.trim().toLowerCase() ?? '';
  const inCi = ci !== '' && ci !== 'false' && ci !== '0';
  return stdin.isTTY === true && stdout.isTTY === true && !inCi;
}

/**
 * One line from stdin, whether a person types it or a pipe holds it (`echo y | plangate run`, as
 * explicit as typing it). Where nobody answers (stdin closed or /dev/null, as in CI) the stream
 * ends first and the answer is undefined, which the caller takes as no.
 */
async function readAnswer(stdin: Readable): Promise<string | undefined> {
  const lines = createInterface({ input: stdin, terminal: false });
  try {
    for await (const answer of lines) return answer;
    return undefined;
  } finally {
    lines.close();
  }
}
