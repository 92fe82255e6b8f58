import type { HistoryEntry } from '../machine/fields.js';
import { clip } from './limits.js';
import { codeBlock, escapeHtml } from './markdown.js';

/**
 * The execution history: every directive and what came back, in order. Long results are clipped
 * per entry so one chatty cycle cannot push the others out of a body.
 */
const maxResultChars = 6_000;

export function renderHistory(history: HistoryEntry[]): string {
  if (history.length === 0) return '_No cycle has run yet._';
  return history
    .map((entry, i) =>
      [
        `#### Cycle ${i + 1}: ${entry.outcome}`,
        '',
        '**Directive**',
        '',
        codeBlock(clip(entry.directive, maxResultChars), 'text'),
        '',
        '**Result**',
        '',
        codeBlock(clip(entry.result, maxResultChars), 'text'),
      ].join('\n'),
    )
    .join('\n\n');
}

/** One line per cycle, for places where the whole history is too much. */
export function renderHistoryLines(history: HistoryEntry[]): string {
  return history.map((e, i) => `${i + 1}. ${e.outcome}: ${escapeHtml(clip(e.directive.split('\n')[0] ?? '', 200))}`).join('\n');
}
