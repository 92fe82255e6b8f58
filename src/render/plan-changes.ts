import type { Plan, PlanStep } from '../machine/fields.js';
import { clip } from '../text/limits.js';
import { code } from '../text/markdown.js';

/**
 * What a replan changed in the plan a maintainer approved, so the progress comment and the pull
 * request show where the run left what was approved instead of silently showing a different plan.
 *
 * Steps are matched by a longest common subsequence over their titles: two steps can be paired when
 * their titles are the same (ignoring case and spacing) or similar: every word of one is in the
 * other ("Document it" and "Document it in the README"), or the words they share make up at least
 * half of all their words (a Dice coefficient of 0.5 or more over their sets of words). Among
 * the pairings with the most pairs, the one with the most identical titles wins. Paired steps whose
 * title, detail, files or verify differ are reworded; unpaired approved steps are removed and
 * unpaired current steps are added, except that a removed and an added step with the same title are
 * reported as one moved step. A paired step whose position shifted only because steps were added or
 * removed before it is not a change.
 */

/** The parts of a step a revision can change. */
export type StepField = 'title' | 'detail' | 'files' | 'verify' | 'network';

/** One difference between the approved plan and the current one; `step` and `was` count from 1. */
export type PlanChange =
  /** A step the approved plan does not have, at position `step` of the current plan. */
  | { kind: 'added'; step: number; title: string }
  /** Approved step `was`, which the current plan no longer has. */
  | { kind: 'removed'; was: number; title: string }
  /** Approved step `was` is step `step` now, with `fields` changed; `before` is its approved title. */
  | { kind: 'reworded'; step: number; was: number; title: string; before: string; fields: StepField[] }
  /** Approved step `was` moved to `step`, past other steps, with `fields` changed (maybe none). */
  | { kind: 'moved'; step: number; was: number; title: string; before: string; fields: StepField[] }
  /** The plan's assumptions or risks differ from the approved ones. */
  | { kind: 'list'; list: 'assumptions' | 'risks' };

/** How a step of the current plan differs from the approved plan, for marking it where the plan is listed. */
export type StepRevision = 'added' | 'reworded' | 'moved';

/** A title as the matching compares it: case and runs of white space do not count. */
const sameForm = (title: string) => title.trim().replace(/\s+/g, ' ').toLowerCase();

/** The distinct words (letters and digits) of a title, lower-cased. */
const words = (title: string) => new Set(Array.from(title.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu), (m) => m[0]));

/** Whether two titles' word sets are similar (see the module comment); titles without words never are. */
function similar(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared === Math.min(a.size, b.size) || (2 * shared) / (a.size + b.size) >= 0.5;
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((item, i) => item === b?.[i]);

/** Which of a step's fields differ between its approved and current form, in a fixed order. */
export function changedFields(approved: PlanStep, current: PlanStep): StepField[] {
  const fields: StepField[] = [];
  if (approved.title !== current.title) fields.push('title');
  if ((approved.detail ?? '') !== (current.detail ?? '')) fields.push('detail');
  if (!sameList(approved.files, current.files)) fields.push('files');
  if ((approved.verify ?? '') !== (current.verify ?? '')) fields.push('verify');
  if (!sameList(approved.network, current.network)) fields.push('network');
  return fields;
}

type Step = { kind: 'pair'; a: number; c: number } | { kind: 'removed'; a: number } | { kind: 'added'; c: number };

/** The alignment of the two step lists, in plan order (see the module comment for the matching). */
function align(approved: readonly PlanStep[], current: readonly PlanStep[]): Step[] {
  const n = approved.length;
  const m = current.length;
  const formsA = approved.map((s) => sameForm(s.title));
  const formsC = current.map((s) => sameForm(s.title));
  const wordsA = approved.map((s) => words(s.title));
  const wordsC = current.map((s) => words(s.title));
  // A pair is worth more than all identical-title bonuses together, so the pair count decides first.
  const pairWorth = Math.min(n, m) + 1;
  const worth = (i: number, j: number): number => {
    if (formsA[i] === formsC[j]) return pairWorth + 1;
    return similar(wordsA[i] ?? new Set(), wordsC[j] ?? new Set()) ? pairWorth : 0;
  };
  // best[i][j]: the best score aligning the first i approved steps with the first j current steps.
  const best: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  const at = (i: number, j: number) => best[i]?.[j] ?? 0;
  for (let i = 1; i <= n; i++) {
    const row = best[i] ?? [];
    for (let j = 1; j <= m; j++) {
      const w = worth(i - 1, j - 1);
      row[j] = Math.max(at(i - 1, j), at(i, j - 1), w > 0 ? at(i - 1, j - 1) + w : 0);
    }
  }
  const steps: Step[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const w = i > 0 && j > 0 ? worth(i - 1, j - 1) : 0;
    if (w > 0 && at(i, j) === at(i - 1, j - 1) + w) {
      steps.push({ kind: 'pair', a: --i, c: --j });
    } else if (j > 0 && at(i, j) === at(i, j - 1)) {
      // Walking backwards, additions go first, so in plan order a removal reads before the step that replaced it.
      steps.push({ kind: 'added', c: --j });
    } else {
      steps.push({ kind: 'removed', a: --i });
    }
  }
  return steps.reverse();
}

/**
 * The changes from the approved plan to the current one, in plan order; empty when the two read
 * the same. Pure, so the progress comment and the pull request always agree on them.
 */
export function planChanges(approved: Plan, current: Plan): PlanChange[] {
  const changes: (PlanChange | undefined)[] = [];
  for (const step of align(approved.steps, current.steps)) {
    if (step.kind === 'pair') {
      const before = approved.steps[step.a];
      const now = current.steps[step.c];
      if (!before || !now) continue;
      const fields = changedFields(before, now);
      if (fields.length > 0)
        changes.push({
          kind: 'reworded',
          step: step.c + 1,
          was: step.a + 1,
          title: now.title,
          before: before.title,
          fields,
        });
    } else if (step.kind === 'added') {
      changes.push({ kind: 'added', step: step.c + 1, title: current.steps[step.c]?.title ?? '' });
    } else {
      changes.push({ kind: 'removed', was: step.a + 1, title: approved.steps[step.a]?.title ?? '' });
    }
  }
  // A step taken out in one place and put back in another, title unchanged, moved.
  for (const [index, change] of changes.entries()) {
    if (change?.kind !== 'added') continue;
    const from = changes.findIndex((c) => c?.kind === 'removed' && sameForm(c.title) === sameForm(change.title));
    const removed = changes[from];
    if (removed?.kind !== 'removed') continue;
    const before = approved.steps[removed.was - 1];
    const now = current.steps[change.step - 1];
    const fields = before && now ? changedFields(before, now) : [];
    changes[index] = {
      kind: 'moved',
      step: change.step,
      was: removed.was,
      title: change.title,
      before: removed.title,
      fields,
    };
    changes[from] = undefined;
  }
  const out = changes.filter((c): c is PlanChange => c !== undefined);
  if (!sameList(approved.assumptions, current.assumptions)) out.push({ kind: 'list', list: 'assumptions' });
  if (!sameList(approved.risks, current.risks)) out.push({ kind: 'list', list: 'risks' });
  return out;
}

/** The steps of the current plan a revision added, reworded or moved, by their position (counted from 1). */
export function revisedSteps(changes: readonly PlanChange[]): Map<number, StepRevision> {
  const marks = new Map<number, StepRevision>();
  for (const change of changes) {
    if (change.kind === 'added' || change.kind === 'reworded' || change.kind === 'moved')
      marks.set(change.step, change.kind);
  }
  return marks;
}

/** At most this many changes are listed, in at most this many characters; the rest are counted. */
const maxListedChanges = 30;
const maxChangesChars = 4_000;
const maxTitleChars = 200;

/** A title in a code span: whatever it holds (markup, mentions, an HTML comment) shows as text. */
const title = (text: string) => code(clip(text.trim() || '(untitled)', maxTitleChars));

function fieldList(change: { fields: StepField[]; before: string }): string {
  return change.fields.map((f) => (f === 'title' ? `title (was ${title(change.before)})` : f)).join(', ');
}

function line(change: PlanChange): string {
  switch (change.kind) {
    case 'added':
      return `- Added step ${change.step}: ${title(change.title)}`;
    case 'removed':
      return `- Removed approved step ${change.was}: ${title(change.title)}`;
    case 'reworded': {
      const where =
        change.was === change.step ? `step ${change.step}` : `step ${change.step} (approved as step ${change.was})`;
      return `- Reworded ${where} ${title(change.title)}: changed ${fieldList(change)}`;
    }
    case 'moved':
      return `- Moved approved step ${change.was} ${title(change.title)} to step ${change.step}${change.fields.length > 0 ? `; changed ${fieldList(change)}` : ''}`;
    case 'list':
      return `- Revised the ${change.list}`;
  }
}

/**
 * The changes as a Markdown list, one line each and bounded like the neighbouring sections (a
 * replan can rewrite a plan of hundreds of steps): the rest are counted in a last "and N more"
 * line. '' when there is no change.
 */
export function renderPlanChanges(changes: readonly PlanChange[]): string {
  const lines: string[] = [];
  let used = 0;
  for (const change of changes) {
    const text = line(change);
    if (lines.length >= maxListedChanges || used + text.length + 1 > maxChangesChars) break;
    lines.push(text);
    used += text.length + 1;
  }
  const more = changes.length - lines.length;
  if (more > 0) lines.push(`- and ${more} more`);
  return lines.join('\n');
}

/** The sentence that opens the section in both bodies, so a reader knows what the list compares. */
export const planChangesIntro = 'The planner revised the plan during the run. Against the plan that was approved:';

/**
 * The changes a view's run made to its approved plan, or none when nothing was approved (an
 * executor-only run) or nothing changed.
 */
export function changesSinceApproval(approved: Plan | undefined, current: Plan | undefined): PlanChange[] {
  if (!approved || !current) return [];
  return planChanges(approved, current);
}
