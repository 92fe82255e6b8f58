import { outcomeUnknown } from './errors.js';
import { errorMessage } from '../text/error-message.js';

export interface WriteOnceOptions<T> {
  /** Sends the write; must not be retried underneath (Octokit `request: { retries: 0 }`). */
  send(): Promise<T>;
  /** Looks for what a lost attempt may have stored; undefined when nothing was. */
  find(): Promise<T | undefined>;
  /** Attempts in all, the first included. */
  attempts: number;
  /** Wait before attempt n+1 is n times this. */
  delayMs: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Performs a non-idempotent write (a new comment, a new pull request) at most once. When the answer
 * is lost (5xx, reset, timeout) GitHub may or may not have stored it, so before sending again this
 * looks for it; a refusal (4xx) is final and rethrown at once. If the look itself fails, nothing is
 * resent: a second copy is worse than a failed step.
 */
export async function writeOnce<T>(options: WriteOnceOptions<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await options.send();
    } catch (error) {
      if (!outcomeUnknown(error)) throw error;
      const found = await options.find().catch((lookError: unknown) => {
        throw new Error(
          `GitHub's answer was lost (${errorMessage(error)}) and looking for what it stored failed too (${errorMessage(lookError)}); not sending again, to avoid a duplicate`,
          { cause: error },
        );
      });
      if (found !== undefined) return found;
      if (attempt >= options.attempts) throw error;
      await sleep(options.delayMs * attempt);
    }
  }
}
