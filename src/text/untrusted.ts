import { stripHidden } from './strip-hidden.js';

/**
 * The fence around text plangate did not write (issue bodies, comments, file contents) before a
 * model reads it: the system prompt tells models that what is inside is data, never instructions.
 */

// Callers that fence text also strip it where they keep it unfenced; one import serves both.
export { stripHidden } from './strip-hidden.js';

const closingTag = '</untrusted-data>';
// Opening and closing forms, spaced or not, in any case: a model reads all of them as the fence.
const fenceTag = /<(?=\s*(?:\/\s*)?untrusted-data)/gi;

const attributeEscapes: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };

/**
 * Wraps text plangate did not write in a fence the system prompt tells models to treat as data,
 * never as instructions. Hidden content is stripped first, and every fence tag inside the text is
 * escaped: otherwise the data could close the fence early and follow it with text posing as the
 * host's own words.
 */
export function untrusted(label: string, text: string): string {
  const source = stripHidden(label)
    .replace(/[\r\n]+/g, ' ')
    .replace(/[&"<>]/g, (ch) => attributeEscapes[ch] ?? ch);
  const body = stripHidden(text).replace(fenceTag, '&lt;');
  return `<untrusted-data source="${source}">\n${body}\n${closingTag}`;
}
