/**
 * What the host has to tell the executor between its own turns: a change plangate kept out of a
 * commit, say. The host posts it when it happens; the executor's next tool result carries it, so
 * the model learns it where it looks for outcomes, without a message that would break the
 * session's append-only order.
 */
export interface Notices {
  post(text: string): void;
  /** Everything posted since the last take, or undefined when nothing was. */
  take(): string | undefined;
}

export function createNotices(): Notices {
  let pending: string[] = [];
  return {
    post(text) {
      pending.push(text);
    },
    take() {
      if (pending.length === 0) return undefined;
      const text = pending.join('\n');
      pending = [];
      return text;
    },
  };
}
