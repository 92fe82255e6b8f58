/**
 * Deterministic token accounting and an emulated provider prompt cache for the scripted model.
 *
 * Why emulate the cache at all: plangate's sessions are built so every request repeats the previous
 * request's prefix (frozen system prompt and tools, append-only messages). A test can only prove that
 * by looking at `cached_tokens` the way a provider would report them, so the fake has to compute them
 * from what was really sent, never from a number a test guessed.
 *
 * The model of a prompt:
 * - The prompt is a list of chunks: first each tool definition in the order sent, then each message
 *   in the order sent. A tool is `tool:` + its JSON exactly as sent (key order kept, because a schema
 *   is pasted into the prompt verbatim and reordering it changes the text). A message is `message:` +
 *   its JSON with keys sorted (a chat template renders fields by name, so key order in the request
 *   object does not reach the model).
 * - Each chunk is cut into tokens of 4 characters; the last token of a chunk may be shorter, and no
 *   token spans two chunks. So a chunk of n characters costs ceil(n / 4) tokens.
 * - Two prompts share a token prefix as long as their tokens are equal one by one: whole equal chunks,
 *   then the whole 4-character tokens the first differing chunk still has in common.
 * - Like OpenAI's cache, a hit counts only when at least 1024 tokens are shared, and it is reported in
 *   steps of 128 tokens (rounded down).
 */

/** Characters per emulated token. */
export const CHARS_PER_TOKEN = 4;
/** The shortest shared prefix a provider caches at all. */
export const MIN_CACHED_TOKENS = 1024;
/** Cache hits are reported in blocks of this many tokens. */
export const CACHE_BLOCK_TOKENS = 128;

/** Serializes a prompt into the chunks tokens are counted and compared on. */
export function serializePrompt(tools: readonly unknown[], messages: readonly unknown[]): string[] {
  return [
    ...tools.map((tool) => `tool:${JSON.stringify(tool)}`),
    ...messages.map((message) => `message:${canonicalJson(message)}`),
  ];
}

/** Tokens of one piece of text under the emulated tokenizer. */
export function tokensOf(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Tokens of a whole serialized prompt. */
export function countTokens(chunks: readonly string[]): number {
  return chunks.reduce((sum, chunk) => sum + tokensOf(chunk), 0);
}

/** How many leading tokens two serialized prompts have in common. */
export function sharedPrefixTokens(a: readonly string[], b: readonly string[]): number {
  let shared = 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const left = a[i] as string;
    const right = b[i] as string;
    if (left === right) {
      shared += tokensOf(left);
      continue;
    }
    // Only whole tokens count: a partial last token differs from the longer chunk's full token.
    return shared + Math.floor(commonPrefixLength(left, right) / CHARS_PER_TOKEN);
  }
  return shared;
}

/** What a provider reports as cached for a shared prefix: 0 below the minimum, else whole blocks. */
export function reportableCachedTokens(sharedTokens: number): number {
  if (sharedTokens < MIN_CACHED_TOKENS) return 0;
  return Math.floor(sharedTokens / CACHE_BLOCK_TOKENS) * CACHE_BLOCK_TOKENS;
}

/**
 * Remembers earlier prompts per cache partition (the fake uses model + API key, as providers do not
 * share caches across organizations or models) and answers how much of a new prompt was cached.
 */
export class PromptCache {
  readonly #seen = new Map<string, string[][]>();

  /** Cached tokens for `chunks`, measured against every earlier prompt of the same partition. */
  lookup(partition: string, chunks: readonly string[]): number {
    let best = 0;
    for (const earlier of this.#seen.get(partition) ?? []) {
      best = Math.max(best, sharedPrefixTokens(earlier, chunks));
    }
    return reportableCachedTokens(best);
  }

  /** Records a prompt that was answered, so later prompts can hit it. */
  remember(partition: string, chunks: readonly string[]): void {
    const list = this.#seen.get(partition) ?? [];
    list.push([...chunks]);
    this.#seen.set(partition, list);
  }
}

function commonPrefixLength(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** JSON with object keys sorted at every depth, so equal content serializes equally. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
    }
    return sorted;
  }
  return value;
}
