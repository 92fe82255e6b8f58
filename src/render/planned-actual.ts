import type { Plan } from '../machine/fields.js';
import { formatCost } from '../models/usage.js';
import { inScope, type ApprovedScope, type ScopeDelta } from '../scope/approved-scope.js';
import { formatCount } from '../text/count.js';
import { code, escapeMarkdown } from '../text/markdown.js';
import { formatBudget } from './scope.js';

/**
 * "Planned against actual": the approval as a contract, set beside what the run did. Per step, the
 * files and commands the approved plan named; per cycle, the files its commit changed and the
 * commands it ran; the budget and what was spent; every amendment with who approved it. What no
 * approval covered (none can land, but a change through an amendment is marked), and what was
 * planned but never touched, stand out.
 */
export interface PlannedActual {
  /** The plan as approved, and the scope its approval granted. */
  plan: Plan;
  scope: ApprovedScope;
  amendments: ReadonlyArray<{ id: string; delta: ScopeDelta; approvedBy: string }>;
  /** Each cycle's commit: the files it changed, and the commands run in it. */
  cycles: ReadonlyArray<{
    cycle: number;
    files: readonly string[];
    commands: readonly string[];
    /** What the sealed network refused a command of the cycle. */
    refused?: ReadonlyArray<{ command: string; destination: string }>;
  }>;
  spent: { tokens: number; cycles: number; costUsd: number | null };
}

/** Rows each table shows at most: the section stays bounded however long the plan or the run. */
const maxRows = 30;

const capped = (rows: string[], what: string) =>
  rows.length <= maxRows ? rows : [...rows.slice(0, maxRows), `| … | ${rows.length - maxRows} more ${what} | |`];

export function renderPlannedActual(view: PlannedActual): string {
  const list = (items: readonly string[]) => (items.length ? items.map(code).join(', ') : '—');
  const steps = view.plan.steps.map(
    (step, i) =>
      `| ${i + 1}. ${escapeMarkdown(step.title).replace(/\|/g, '\\|')} | ${list(step.files ?? [])} | ${list(step.verify ? [step.verify] : [])} |`,
  );
  const amendedPath = (file: string) =>
    view.amendments.find((a) => a.delta.paths && inScope(file, { paths: a.delta.paths }));
  const cycles = view.cycles.map((c) => {
    const files = c.files.map((f) => {
      if (inScope(f, view.scope)) return code(f);
      const through = amendedPath(f);
      // Only under `scope: report` can a change land that no approval covered.
      return through ? `${code(f)} (amendment ${code(through.id)})` : `${code(f)} ⚠️ outside the approved scope`;
    });
    return `| ${c.cycle} | ${files.length ? files.join(', ') : '—'} | ${list(c.commands)} |`;
  });
  const changed = new Set(view.cycles.flatMap((c) => c.files));
  const untouched = view.scope.paths.filter((p) => ![...changed].some((f) => inScope(f, { paths: [p] })));
  const { budget } = view.scope;
  const spent = [
    `${formatCount(view.spent.tokens)} of ${formatCount(budget.tokens)} tokens`,
    `${view.spent.cycles} of ${budget.cycles} cycles`,
    ...(budget.costUsd !== undefined ? [`${formatCost(view.spent.costUsd)} of ${formatCost(budget.costUsd)}`] : []),
  ];
  const refused = view.cycles.flatMap((c) =>
    (c.refused ?? []).map((r) => `- cycle ${c.cycle}, ${code(r.command)}: ${escapeMarkdown(r.destination)}`),
  );
  const amendments = view.amendments.length
    ? view.amendments.map((a) => `- ${code(a.id)}, approved by @${a.approvedBy}: ${describeDelta(a.delta)}`)
    : ['- none'];
  return [
    '## Planned against actual',
    '',
    `**Approved:** changes to ${list(view.scope.paths)}; commands ${list(view.scope.commands)}; budget ${formatBudget(budget)}.`,
    '',
    '| step | files planned | commands planned |',
    '| --- | --- | --- |',
    ...capped(steps, 'steps'),
    '',
    '| cycle | files changed | commands run |',
    '| --- | --- | --- |',
    ...(cycles.length ? capped(cycles, 'cycles') : ['| — | — | — |']),
    '',
    `**Spent:** ${spent.join(', ')}.`,
    '',
    '**Amendments**',
    '',
    ...amendments,
    ...(untouched.length ? ['', `**Planned but not changed:** ${list(untouched)}.`] : []),
    ...(refused.length
      ? [
          '',
          '**The sealed network refused** (destinations outside the approved scope)',
          '',
          ...refused.slice(0, maxRows),
        ]
      : []),
  ].join('\n');
}

function describeDelta(delta: ScopeDelta): string {
  return [
    ...(delta.paths?.length ? [`changes to ${delta.paths.map(code).join(', ')}`] : []),
    ...(delta.commands?.length ? [`commands ${delta.commands.map(code).join(', ')}`] : []),
    ...(delta.network?.length ? [`network ${delta.network.map(code).join(', ')}`] : []),
    ...(delta.budget ? [`${formatBudget(delta.budget)} more`] : []),
  ].join('; ');
}
