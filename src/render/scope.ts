import { budgetHeadroom } from '../checks/scope-derivation.js';
import { formatCost } from '../models/usage.js';
import type { ApprovedScope, ScopeBudget } from '../scope/approved-scope.js';
import { formatCount } from '../text/count.js';
import { code } from '../text/markdown.js';
import { wholeRepository } from '../text/literal-path.js';

/**
 * "This approval allows": the approved scope as the plan comment shows it before approval, so a
 * maintainer sees what the approval grants (the paths, the commands, the budget), and nothing the run
 * does beyond it goes without a second approval. A pure function of the scope: the comment is
 * re-rendered to verify it.
 */
export function renderScope(scope: ApprovedScope): string {
  const paths =
    scope.paths.length === 0
      ? 'none: the run may change no file'
      : scope.paths.map((p) => pathWords(p, code)).join(', ');
  const commands = scope.commands.length === 0 ? 'none' : scope.commands.map(code).join(', ');
  return [
    '**This approval allows**',
    '',
    `- Changes to: ${paths}`,
    `- Commands: ${commands}`,
    ...(scope.network !== undefined ? [`- Network: ${networkWords(scope.network, code)}`] : []),
    `- Budget: ${formatBudget(scope.budget)} (the estimate with ${(budgetHeadroom - 1) * 100} % headroom)`,
    ...(scope.budget.minutes !== undefined ? [`- Time: ${timeWords(scope.budget.minutes)}`] : []),
    ...(scope.parallelSteps !== undefined
      ? [`- Steps at once: ${atOnceWords(scope.parallelSteps)} (\`parallel-steps\`)`]
      : []),
    '',
    'Nothing else: the tools refuse it and the commit gate holds it back. What the run finds it needs beyond this becomes an amendment, posted here for a maintainer to approve.',
  ].join('\n');
}

/** The same as plain text, for the local command's terminal. */
export function renderScopeText(scope: ApprovedScope): string {
  const listed = (items: readonly string[], none: string) => (items.length ? items.join(', ') : none);
  return [
    'This approval allows:',
    `  changes to: ${listed(
      scope.paths.map((p) => pathWords(p, (t) => t)),
      'no file',
    )}`,
    `  commands: ${listed(scope.commands, 'none')}`,
    ...(scope.network !== undefined ? [`  network: ${networkWords(scope.network, (d) => d)}`] : []),
    `  budget: ${formatBudget(scope.budget)} (the estimate with ${(budgetHeadroom - 1) * 100} % headroom)`,
    ...(scope.parallelSteps !== undefined ? [`  steps at once: ${atOnceWords(scope.parallelSteps)}`] : []),
    'Nothing else: the tools refuse it and the commits leave it out; a run that needs more stops.',
  ].join('\n');
}

/** A scope entry as a reader takes it: a literal path, the repository root said in words. */
function pathWords(entry: string, show: (p: string) => string): string {
  return entry === wholeRepository ? `${show(entry)} (the whole repository)` : show(entry);
}

/** How many steps may run at the same time, in words. */
function atOnceWords(steps: number): string {
  return steps === 1 ? 'one at a time' : `at most ${steps}`;
}

/** The time limit in words: it holds per job, as a resumed run gets it afresh. */
function timeWords(minutes: number): string {
  return `at most ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} a job (\`timeout-minutes\`); then the run stops cleanly, its work pushed`;
}

/** The destinations commands may reach, loopback always among them. */
function networkWords(network: readonly string[], show: (d: string) => string): string {
  return network.length === 0 ? 'loopback only' : `loopback and ${network.map(show).join(', ')}`;
}

/** A budget in words: tokens and cycles always, dollars where the prices are known. */
export function formatBudget(budget: ScopeBudget): string {
  const cycles = `${budget.cycles} ${budget.cycles === 1 ? 'cycle' : 'cycles'}`;
  const usd = budget.costUsd === undefined ? '' : `, ${formatCost(budget.costUsd)}`;
  return `${formatCount(budget.tokens)} tokens, ${cycles}${usd}`;
}
