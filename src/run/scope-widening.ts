import { isEmptyDelta, namedNetwork, scopeDelta } from '../checks/scope-derivation.js';
import type { Plan } from '../machine/fields.js';
import type { Snapshot } from '../machine/types.js';
import type { ScopeDelta } from '../scope/approved-scope.js';
import { namedDestinations, type Destination } from '../scope/network-destinations.js';
import type { ExecutionRun } from './execution-run.js';

/**
 * Whether a run needs more than its scope: a revised plan that names paths, commands or network
 * destinations the scope does not allow, or a budget spent. Checked before every cycle of an
 * execution (and the budget before every model request); a re-plan inside the scope goes on, one
 * beyond it stops the run for an amendment (amendment.ts).
 */

/** What the run needs beyond its scope, and why. */
export interface AmendmentNeed {
  reason: string;
  delta: ScopeDelta;
}

/** What the revised plan of `s` needs beyond the run's scope; undefined when it fits. */
export function planWidening(run: ExecutionRun, s: Snapshot): AmendmentNeed | undefined {
  const plan = s.context.plan;
  if (!plan || s.state !== 'execute' || !run.scopeEnforced) return undefined;
  const { settings } = run.ctx;
  const allowedNetwork = settings.network === 'sealed' ? settings.allowedDestinations : undefined;
  const delta = scopeDelta(run.scope, plan, settings.allowedCommands, allowedNetwork);
  const closed = allowedNetwork ? closedDestinations(allowedNetwork, plan) : '';
  if (isEmptyDelta(delta)) return undefined;
  return {
    delta,
    reason: `The planner revised the plan from what the run found, and the revision needs ${describe(delta)} beyond what plan ${run.record.planId}'s approval allows.${closed ? ` Besides, the revision${closed}` : ''}`,
  };
}

/**
 * What a revision names that no amendment can open, as the end of a sentence: destinations
 * `allowed-domains` does not allow (the workflow must add them first) and ones closed to all.
 * Empty when there are none.
 */
function closedDestinations(allowed: readonly Destination[], plan: Plan): string {
  const { unreachable } = namedDestinations(allowed, namedNetwork(plan));
  const notAllowed = unreachable.filter((u) => u.why !== 'always-closed').map((u) => `\`${u.entry}\``);
  const closed = unreachable.filter((u) => u.why === 'always-closed').map((u) => `\`${u.entry}\``);
  return [
    notAllowed.length
      ? ` names ${notAllowed.join(', ')}, which \`allowed-domains\` does not allow, so no amendment can let commands reach ${notAllowed.length === 1 ? 'it' : 'them'}: add ${notAllowed.length === 1 ? 'it' : 'them'} to the workflow's \`allowed-domains\` first.`
      : '',
    closed.length
      ? ` names ${closed.join(', ')}, link-local, cloud metadata or NAT64 ${closed.length === 1 ? 'address' : 'addresses'}, which stay closed whatever \`allowed-domains\` says.`
      : '',
  ]
    .filter((s) => s !== '')
    .join(' It also');
}

function describe(delta: ScopeDelta): string {
  const parts = [
    ...(delta.paths?.length ? [`${delta.paths.length} more ${delta.paths.length === 1 ? 'path' : 'paths'}`] : []),
    ...(delta.commands?.length
      ? [`${delta.commands.length} more ${delta.commands.length === 1 ? 'command' : 'commands'}`]
      : []),
    ...(delta.network?.length
      ? [`${delta.network.length} more network ${delta.network.length === 1 ? 'destination' : 'destinations'}`]
      : []),
    ...(delta.budget ? ['more budget'] : []),
  ];
  return parts.join(' and ');
}

/**
 * What the run needs before its next cycle: more paths, commands or destinations for a revised plan, or more
 * cycles once it has run all its budget allows (the machine's own `max-iterations` stays the hard
 * bound). Undefined when it may go on.
 */
export function widening(run: ExecutionRun, s: Snapshot): AmendmentNeed | undefined {
  const plan = planWidening(run, s);
  if (plan || !run.scopeEnforced || s.state !== 'execute') return plan;
  const { cycles } = run.scope.budget;
  return s.iteration >= cycles
    ? budgetWidening(run, `the approved budget of ${cycles} ${cycles === 1 ? 'cycle' : 'cycles'} is spent`)
    : undefined;
}

/** The approved budget is spent: the run asks for as much again as its plan was approved with. */
export function budgetWidening(run: ExecutionRun, why: string): AmendmentNeed {
  const approved = run.record.scope?.budget ?? run.scope.budget;
  return { delta: { budget: approved }, reason: `The run stopped before its next model request: ${why}.` };
}
