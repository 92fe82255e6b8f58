import type { ToolCallResult } from './connect.js';

/**
 * A tool call's result as the text a model reads. Text blocks are joined in order; blocks a chat
 * model cannot take as text (images, audio, binary resources) are named, not inlined, so a base64
 * blob never fills a session. Structured content stands in only when no text came with it.
 */
export interface ResultText {
  text: string;
  isError: boolean;
}

export function resultText(result: ToolCallResult): ResultText {
  if (!('content' in result) || !Array.isArray(result.content)) {
    // The pre-2024-11-05 protocol answered with a bare `toolResult`.
    return { text: stringify((result as { toolResult?: unknown }).toolResult), isError: false };
  }
  const parts: string[] = [];
  for (const block of result.content) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'resource':
        parts.push('text' in block.resource ? block.resource.text : `[binary resource ${block.resource.uri} omitted]`);
        break;
      case 'resource_link':
        parts.push(`[resource ${block.uri}${block.name ? ` (${block.name})` : ''}]`);
        break;
      case 'image':
      case 'audio':
        parts.push(`[${block.type} (${block.mimeType}) omitted]`);
        break;
      default:
        parts.push('[content of an unknown type omitted]');
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(stringify(result.structuredContent));
  return { text: parts.join('\n'), isError: result.isError === true };
}

function stringify(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
