import type { ScopeDelta } from '../scope/approved-scope.js';
import { code, codeBlock, details, escapeProse } from '../text/markdown.js';
import { formatBudget } from './scope.js';

/**
 * The amendment comment: what a run that needs more than its approval allows asks a maintainer for,
 * with the record (encoded by record/, appended by the caller) at its end. It shows exactly the
 * difference (the extra paths with the held-back changes they would let land, the extra commands,
 * the extra network destinations, the extra budget), so an approval of it approves what its author saw. A pure function of what it
 * is given: the comment is re-rendered to verify it.
 */
export interface ShownAmendment {
  amendmentId: string;
  planId: string;
  reason: string;
  delta: ScopeDelta;
  heldDiff?: string;
  heldDiffCut?: true;
  heldWithheld?: ReadonlyArray<{ path: string; rules: readonly string[] }>;
  pushed?: string;
  status: 'proposed' | 'approved' | 'superseded';
  approvedBy?: string;
}

export function renderAmendmentComment(amendment: ShownAmendment, marker: string): string {
  const { delta } = amendment;
  const asks = [
    ...(delta.paths?.length ? [`- Changes to: ${delta.paths.map(code).join(', ')}`] : []),
    ...(delta.commands?.length ? [`- Commands: ${delta.commands.map(code).join(', ')}`] : []),
    ...(delta.network?.length ? [`- Network: ${delta.network.map(code).join(', ')}`] : []),
    ...(delta.budget ? [`- Budget: ${formatBudget(delta.budget)} more`] : []),
  ];
  const held = amendment.heldDiff
    ? [
        '',
        details(
          'Held-back changes the extra paths would let land',
          codeBlock(amendment.heldDiff, 'diff') +
            (amendment.heldDiffCut
              ? '\n\nOnly the start is carried; the executor redoes the rest after approval.'
              : ''),
        ),
      ]
    : [];
  const withheld = amendment.heldWithheld?.length
    ? [
        '',
        `Not carried, for holding a credential (the executor writes ${amendment.heldWithheld.length === 1 ? 'it' : 'them'} again without it after approval): ${amendment.heldWithheld
          .map((w) => `${code(w.path)} (${w.rules.join(', ')})`)
          .join(', ')}.`,
      ]
    : [];
  const where = amendment.pushed ? ` (its work so far is pushed, at ${code(amendment.pushed.slice(0, 7))})` : '';
  return [
    `### 📐 Amendment ${code(amendment.amendmentId)} to plan ${code(amendment.planId)}`,
    '',
    `The run needs more than its approval allows and stopped at its last checkpoint${where}.`,
    '',
    `**Why:** ${escapeProse(amendment.reason)}`,
    '',
    '**It asks to add**',
    '',
    ...asks,
    ...held,
    ...withheld,
    '',
    '---',
    statusLine(amendment),
    marker,
  ].join('\n');
}

function statusLine(amendment: ShownAmendment): string {
  switch (amendment.status) {
    case 'proposed':
      return [
        '**Status:** waiting for approval. To let the run go on with the wider scope, a maintainer replies:',
        '',
        `    /approve ${amendment.amendmentId}`,
        '',
        'Without it the run stays stopped; `/cancel` ends it, and the work so far stays on its branch.',
      ].join('\n');
    case 'approved':
      return `**Status:** approved by @${amendment.approvedBy ?? 'unknown'}; the run goes on with the wider scope.`;
    case 'superseded':
      return '**Status:** superseded; it can no longer be approved.';
  }
}
