import type { HistoryEntry } from '../machine/fields.js';
import { clip } from '../text/limits.js';
import { code, codeBlock, escapeHtml, escapeMarkdown } from '../text/markdown.js';
import { formatCount } from '../text/count.js';
import { outcomeWords, stepWords } from '../machine/reader-words.js';

/**
 * The execution history: every directive and what came back, in order. Where it shares a body with
 * other content, long texts are clipped per entry so one chatty cycle cannot push the others out;
 * where it has bodies of its own (history comments, the job summary), nothing is clipped unless a
 * single cycle could not fit in any body, and then the cut says so.
 */
const maxResultChars = 6_000;

/** A host's note on a cycle is a sentence or two; more is cut, so it cannot crowd out the cycle it belongs to. */
const maxNoteChars = 500;

/** Where the full text of a cycle cut to fit a body can still be read. */
const fullTextPlace = 'the job summary';

/** "Cycle 3", and where the cycle carried out a plan step, which one and what ran with it. */
function cycleName(entry: HistoryEntry, index: number): string {
  const step = stepWords(entry);
  return step ? `Cycle ${index + 1} · ${step}` : `Cycle ${index + 1}`;
}

/**
 * What the host did besides the cycle (e.g. ran the step again on the merged tree), as escaped
 * prose on one line: it reads as a sentence, and nothing in it can become markup, a mention or a link.
 */
function noteLines(entry: HistoryEntry): string[] {
  const note = entry.note?.trim();
  return note ? [escapeMarkdown(clip(note, maxNoteChars)), ''] : [];
}

/**
 * One cycle, its directive clipped to `directiveMax` and its result to `resultMax` (Infinity: whole).
 * A cycle of a plan that orders its steps names its step, and the steps that ran with it, in the heading.
 */
export function renderCycle(
  entry: HistoryEntry,
  index: number,
  directiveMax = Infinity,
  resultMax = directiveMax,
): string {
  return [
    `#### ${cycleName(entry, index)}: ${outcomeWords[entry.outcome]}`,
    '',
    ...noteLines(entry),
    '**Directive**',
    '',
    codeBlock(clip(entry.directive, directiveMax), 'text'),
    '',
    '**Result**',
    '',
    codeBlock(clip(entry.result, resultMax), 'text'),
  ].join('\n');
}

/**
 * Renders the history; `entryMax` bounds each directive and each result (Infinity keeps them whole,
 * for bodies that hold nothing else).
 */
export function renderHistory(history: HistoryEntry[], entryMax = maxResultChars): string {
  if (history.length === 0) return '_No cycle has run yet._';
  return history.map((entry, i) => renderCycle(entry, i, entryMax, entryMax)).join('\n\n');
}

/** One line per cycle, for places where the whole history is too much; a cycle that carried out a plan step names it. */
export function renderHistoryLines(history: HistoryEntry[]): string {
  return history
    .map((e, i) => {
      const step = stepWords(e);
      const directive = escapeHtml(clip(e.directive.split('\n')[0] ?? '', 200));
      return `${i + 1}. ${step ? `${step} · ` : ''}${outcomeWords[e.outcome]}: ${directive}`;
    })
    .join('\n');
}

/** The default size of one history body: under GitHub's limit, with room left for redaction. */
export const historyChunkLimit = 60_000;

const chunkHeading = (planId: string, part: number, parts: number) =>
  `### History of plan ${code(planId)}, part ${part} of ${parts}`;
/** Ends each history body, so the host can find its own history comments again (e.g. to replace them on a re-run). */
export function historyChunkMarker(planId: string, part: number): string {
  return `<!-- plangate:history ${planId} part ${part} -->`;
}
const cutNotice = (cycle: number, omitted: number) =>
  `> [!NOTE]\n> ${formatCount(omitted)} characters of cycle ${cycle} were cut here to fit GitHub's size limit; the full text is in ${fullTextPlace}.`;

/**
 * One cycle whole, or cut to at most `room` characters with a notice saying how much was cut and
 * where the rest is. Directive and result are clipped apart, so both code fences stay closed; the
 * shorter one keeps all it can and the longer one gets the rest.
 */
function fittedCycle(entry: HistoryEntry, index: number, room: number): string {
  const whole = renderCycle(entry, index, Infinity, Infinity);
  if (whole.length <= room) return whole;
  const total = entry.directive.length + entry.result.length;
  // The frame as the whole texts need it (a part never needs longer fences), plus the notice at its longest.
  const frame = whole.length - total + 2 + cutNotice(index + 1, total).length;
  const texts = Math.max(0, room - frame);
  const half = Math.floor(texts / 2);
  const directiveMax =
    entry.directive.length <= half ? entry.directive.length : Math.max(half, texts - entry.result.length);
  const resultMax = texts - directiveMax;
  const omitted = omittedBy(entry.directive, directiveMax) + omittedBy(entry.result, resultMax);
  return `${renderCycle(entry, index, directiveMax, resultMax)}\n\n${cutNotice(index + 1, omitted)}`;
}

/** How many characters of `text` clipping to `max` leaves out, as clip's own marker reports them. */
function omittedBy(text: string, max: number): number {
  const clipped = clip(text, max);
  if (clipped === text) return 0;
  const reported = / … \[(\d+) more characters\]$/.exec(clipped)?.[1];
  return reported === undefined ? text.length - clipped.length : Number(reported);
}

/**
 * Splits the full history into bodies of at most `limit` characters, for when it does not fit in
 * the pull request: cycles are never split across bodies, and a cycle is cut only when it alone
 * could not fit in one. Each body names its plan and part, so a reader of any one knows where it
 * belongs. An empty history has nothing to post.
 */
export function renderHistoryChunks(history: HistoryEntry[], planId: string, limit = historyChunkLimit): string[] {
  // Reserved at the longest heading and marker any part can have, so numbering never pushes a body over.
  const worst = history.length;
  const frame = chunkHeading(planId, worst, worst).length + 2 + 2 + historyChunkMarker(planId, worst).length;
  const room = limit - frame;
  if (room <= 0) throw new Error(`A history body of ${limit} characters cannot hold even its heading.`);
  const bodies: string[][] = [];
  let current: string[] = [];
  let used = 0;
  history.forEach((entry, i) => {
    const text = fittedCycle(entry, i, room);
    // A cycle that would overflow this body starts the next one; fittedCycle made sure it fits alone.
    if (current.length > 0 && used + 2 + text.length > room) {
      bodies.push(current);
      current = [];
      used = 0;
    }
    used += (current.length > 0 ? 2 : 0) + text.length;
    current.push(text);
  });
  if (current.length > 0) bodies.push(current);
  return bodies.map((cycles, i) =>
    [chunkHeading(planId, i + 1, bodies.length), cycles.join('\n\n'), historyChunkMarker(planId, i + 1)].join('\n\n'),
  );
}
