import { createHash } from 'node:crypto';
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';

/**
 * A short fingerprint of a session's frozen prefix (system prompt + tool schemas). It is computed
 * in one place so the session that declares a prefix and the check that guards what is actually
 * sent can never disagree on what "the same prefix" means.
 */
export function hashPrefix(systemPrompt: string, tools: readonly ChatCompletionFunctionTool[]): string {
  return createHash('sha256')
    .update(JSON.stringify([systemPrompt, tools]))
    .digest('hex')
    .slice(0, 16);
}
