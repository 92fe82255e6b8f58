import type { Plan, PlanStep } from '../machine/fields.js';
import { isStepGraph } from '../machine/step-order.js';
import type { TokenUsage } from '../models/usage.js';
import { inScope, type ApprovedScope, type ScopeDelta } from '../scope/approved-scope.js';
import { scopePath, wholeRepository } from '../text/literal-path.js';
import {
  destinationCovers,
  formatDestination,
  namedDestinations,
  scopeDestinations,
  type Destination,
} from '../scope/network-destinations.js';
import { isCommandAllowed, parseCommandLine } from '../tools/command-policy.js';
import { highFactor, type CostEstimate } from './cost-estimate.js';

/**
 * The scope a plan asks for, derived from the plan itself before it is shown, so the maintainer
 * approves exactly what the run may do: the paths its steps name, the commands it names that the
 * repository allows, the network destinations it names that `allowed-domains` allows, a budget
 * from the cost estimate with headroom, and, for a plan that orders its steps, how many may run at once.
 */

/** How much the budget leaves over the estimate's high end: twice it, so an estimate that is off by a factor of two still fits. */
export const budgetHeadroom = 2;

/**
 * Tokens one step is taken to cost at the high end: the executor's share (the estimate's factor of
 * the planning session) and the planner's visit after it (one planning session).
 */
const sessionsPerStep = highFactor + 1;

/** The least a step is given, so a short planning session does not starve the executor's reading. */
export const minTokensPerStep = 50_000;

/** The fewest cycles a run is given, so a short plan has room for a retry and a revision. */
export const minCycles = 4;

export interface ScopeInput {
  plan: Plan;
  allowedCommands: readonly string[];
  /** The planner's usage for this plan alone. */
  planning: TokenUsage;
  estimate: CostEstimate;
  /** The run's cycle bound (the snapshot's `policy.maxIterations`). */
  maxIterations: number;
  /** `max-cost-usd`: the budget in dollars never goes above it. */
  maxCostUsd?: number;
  /** `timeout-minutes`: how long each job of the execution may take; unset: no limit. */
  timeoutMinutes?: number;
  /** The destinations a sealed network allows (`allowed-domains`): the ceiling the plan narrows; unset: the network is not sealed. */
  network?: readonly Destination[];
  /**
   * `parallel-steps`: how many steps may run at the same time. It enters the scope only for a plan
   * that orders its steps itself (`after`); unset, or for any other plan, the steps run one at a time.
   */
  parallelSteps?: number;
}

export function deriveScope(input: ScopeInput): ApprovedScope {
  const { plan } = input;
  const steps = plan.steps.length;
  const perStep = Math.max(
    minTokensPerStep,
    Math.ceil(sessionsPerStep * budgetHeadroom * (input.planning.promptTokens + input.planning.completionTokens)),
  );
  const estimated =
    input.estimate.kind === 'range'
      ? (input.estimate.highUsd * sessionsPerStep * budgetHeadroom) / highFactor
      : undefined;
  const costUsd =
    estimated !== undefined && input.maxCostUsd !== undefined
      ? Math.min(estimated, input.maxCostUsd)
      : (estimated ?? input.maxCostUsd);
  return {
    paths: unique(plan.steps.flatMap((step) => (step.files ?? []).map(scopePath).filter((p) => p !== ''))),
    commands: unique(
      plan.steps.flatMap((step) => namedCommands(step).filter((c) => allowed(c, input.allowedCommands))),
    ),
    budget: {
      tokens: perStep * steps,
      cycles: Math.max(1, Math.min(input.maxIterations, Math.max(minCycles, steps * budgetHeadroom))),
      ...(costUsd !== undefined && costUsd > 0 ? { costUsd } : {}),
      ...(input.timeoutMinutes !== undefined ? { minutes: input.timeoutMinutes } : {}),
    },
    ...(input.network !== undefined ? { network: namedDestinations(input.network, namedNetwork(plan)).reachable } : {}),
    ...(input.parallelSteps !== undefined && isStepGraph(plan) ? { parallelSteps: input.parallelSteps } : {}),
  };
}

/** The scope's network part for a run with no plan: every allowed destination as people write it. */
function networkOf(network: readonly Destination[] | undefined): Pick<ApprovedScope, 'network'> {
  return network === undefined ? {} : { network: unique(network.map(formatDestination)) };
}

/** The network destinations a plan's steps name, each once, as written. */
export function namedNetwork(plan: Plan): string[] {
  return unique(plan.steps.flatMap((step) => (step.network ?? []).map((d) => d.trim()).filter((d) => d !== '')));
}

/** The commands a step names: its `verify`, and command lines it quotes in code spans. */
export function namedCommands(step: PlanStep): string[] {
  const quoted = [...`${step.title}\n${step.detail ?? ''}`.matchAll(/`([^`\n]+)`/g)].map((m) => (m[1] ?? '').trim());
  return unique([step.verify?.trim() ?? '', ...quoted].filter((c) => c !== ''));
}

function allowed(command: string, allowedCommands: readonly string[]): boolean {
  try {
    return isCommandAllowed(parseCommandLine(command), allowedCommands);
  } catch {
    return false;
  }
}

const unique = (values: readonly string[]) => [...new Set(values)];

/**
 * The scope of a run with no plan (the `executor-only` policy, or `plan-first` once its planner
 * failed): nothing names paths or commands, so the configuration's own bounds are the scope (every
 * path but the protected ones, every allowed command), under a budget of a step's tokens per cycle.
 */
export function unplannedScope(input: {
  allowedCommands: readonly string[];
  maxIterations: number;
  maxCostUsd?: number;
  network?: readonly Destination[];
}): ApprovedScope {
  return {
    paths: [wholeRepository],
    commands: [...input.allowedCommands],
    budget: {
      tokens: minTokensPerStep * input.maxIterations,
      cycles: input.maxIterations,
      ...(input.maxCostUsd !== undefined ? { costUsd: input.maxCostUsd } : {}),
    },
    ...networkOf(input.network),
  };
}

/**
 * What `plan` (a revision) needs beyond `scope`: the paths its steps name that the scope does not
 * reach, the allowed commands they name that it does not allow, and, where the network is sealed
 * (`network`: what `allowed-domains` allows now), the allowed destinations they name that it does
 * not reach. Empty when the plan fits, so a re-plan inside the scope goes on without an amendment.
 * A destination `allowed-domains` does not allow is never part of a delta: no amendment grants it.
 */
export function scopeDelta(
  scope: ApprovedScope,
  plan: Plan,
  allowedCommands: readonly string[],
  network?: readonly Destination[],
): ScopeDelta {
  const wanted = deriveScope({
    plan,
    allowedCommands,
    planning: { promptTokens: 0, cachedTokens: 0, completionTokens: 0 },
    estimate: { kind: 'unknown', model: '', steps: plan.steps.length, reason: '' },
    maxIterations: plan.steps.length,
    ...(network !== undefined && scope.network !== undefined ? { network } : {}),
  });
  // Entries are literal, so one the scope covers (itself, or a folder above it) asks for nothing more.
  const paths = wanted.paths.filter((p) => !inScope(p, scope));
  const commands = wanted.commands.filter((c) => !allowed(c, scope.commands));
  const reached = scopeDestinations(scope.network ?? []);
  const destinations = (wanted.network ?? []).filter(
    (d) => !scopeDestinations([d]).every((w) => reached.some((r) => destinationCovers(r, w))),
  );
  return {
    ...(paths.length ? { paths } : {}),
    ...(commands.length ? { commands } : {}),
    ...(destinations.length ? { network: destinations } : {}),
  };
}

/** Whether a delta asks for nothing. */
export function isEmptyDelta(delta: ScopeDelta): boolean {
  return !delta.paths?.length && !delta.commands?.length && !delta.network?.length && delta.budget === undefined;
}
