import { z } from 'zod';
import type { Plan, PlanStep } from '../machine/fields.js';
import { isCommandAllowed, parseCommandLine } from '../tools/command-policy.js';
import { namedDestinations, type Destination } from '../scope/network-destinations.js';
import { matchProtected } from '../text/protected-paths.js';
import { errorMessage } from '../text/error-message.js';
import { scopePath, wholeRepository } from '../text/literal-path.js';

/**
 * Checks a staged plan against the configuration before anyone approves it, so a maintainer learns
 * from the plan comment (not from a failed run) that a step writes a protected file or the plan needs
 * more cycles than the run may take (both block approval), or that a step verifies with a command the
 * executor may not run (a warning). Pure: the base
 * commit's tree reaches it only through `fileExists`.
 */

/** Paths and commands are kept to this length in findings: the record carries them and must stay small. */
const maxText = 200;
const short = (text: string) => (text.length <= maxText ? text : `${text.slice(0, maxText - 1)}…`);

const text = z.string().max(maxText);
const stepNumber = z.number().int().positive();

/** One finding; `severity` is fixed per kind, spelled out so a reader of the record need not know the rule. */
export const findingSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('too-many-steps'),
      severity: z.literal('blocking'),
      steps: z.number().int().positive(),
      maxIterations: z.number().int().positive(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('protected-path'),
      severity: z.literal('blocking'),
      step: stepNumber,
      file: text,
      pattern: text,
    })
    .strict(),
  // A verify command the executor may not run leaves the step unverified but changes nothing the
  // executor can do (run_command refuses it at run time), so it warns instead of blocking approval.
  z
    .object({
      kind: z.literal('command-not-allowed'),
      severity: z.literal('warning'),
      step: stepNumber,
      command: text,
      reason: text.optional(),
    })
    .strict(),
  // A destination a step names that the sealed network will not let through: left out of the scope,
  // so the step may fail where it needs it; a warning, since the executor can do nothing more by it.
  z
    .object({
      kind: z.literal('network-not-allowed'),
      severity: z.literal('warning'),
      step: stepNumber,
      destination: text,
      why: z.enum(['not-allowed', 'always-closed', 'malformed']),
    })
    .strict(),
  // The runner allows no account switch (see sandbox/sandbox.ts): every command would be refused.
  z
    .object({ kind: z.literal('commands-cannot-run'), severity: z.literal('warning'), cause: z.string().max(400) })
    .strict(),
  z.object({ kind: z.literal('new-file'), severity: z.literal('info'), step: stepNumber, file: text }).strict(),
  z.object({ kind: z.literal('not-found'), severity: z.literal('info'), step: stepNumber, file: text }).strict(),
]);

export type Finding = z.infer<typeof findingSchema>;
export type FindingKind = Finding['kind'];

/** What the configuration says a plan must respect; taken from settings by the caller. */
export interface PlanRules {
  protectedPaths: readonly string[];
  allowedCommands: readonly string[];
  /**
   * The run's cycle bound (the snapshot's `policy.maxIterations`). Every execute cycle carries out one
   * directive, which the planner writes for exactly one step, and counts one iteration on leaving
   * `execute`; the loop back through `replan` is refused once the count reaches the bound. So a run
   * has at most `maxIterations` execute cycles, the last of which must end `done`: a plan with more
   * steps than that cannot finish.
   */
  maxIterations: number;
  /** Why no command can run on this runner (see sandbox/sandbox.ts); undefined: they can. */
  commandsRefused?: string;
  /** What `allowed-domains` allows, where the network is sealed; unset: the network is open, and destinations are not judged. */
  allowedNetwork?: readonly Destination[];
}

/**
 * Whether `path` exists (as a file or a directory) at the plan's base commit. Omitted: existence is
 * not judged, e.g. at approval time, when only the rules that block are re-checked.
 */
export type FileExists = (path: string) => boolean;

// Words with which a step says it brings a file into being; a missing file such a step names is "new".
const creates =
  /\b(create[sd]?|creating|add(s|ed|ing)?|new|write|writes|writing|introduce[sd]?|scaffold(s|ed)?|generate[sd]?|initiali[sz]e[sd]?|bootstrap(s|ped)?)\b/i;

const kindOrder: Record<FindingKind, number> = {
  'too-many-steps': 0,
  'protected-path': 1,
  'commands-cannot-run': 2,
  'command-not-allowed': 3,
  'network-not-allowed': 4,
  'new-file': 5,
  'not-found': 6,
};

/**
 * The findings for `plan`, blocking ones first, then by step and kind, each step's files in the
 * order it lists them: the same plan and rules always give the same list.
 */
export function checkPlan(plan: Plan, rules: PlanRules, fileExists?: FileExists): Finding[] {
  const found: Array<{ finding: Finding; at: number }> = [];
  const add = (finding: Finding) => found.push({ finding, at: found.length });
  if (plan.steps.length > rules.maxIterations) {
    add({ kind: 'too-many-steps', severity: 'blocking', steps: plan.steps.length, maxIterations: rules.maxIterations });
  }
  // Said before approval, not after: a plan that builds or verifies anything needs commands.
  const needsCommands = rules.allowedCommands.length > 0 || plan.steps.some((step) => step.verify?.trim());
  if (rules.commandsRefused !== undefined && needsCommands)
    add({ kind: 'commands-cannot-run', severity: 'warning', cause: short(rules.commandsRefused) });
  // A file an earlier step creates exists by the time a later step touches it.
  const madeEarlier = new Set<string>();
  for (const [i, step] of plan.steps.entries()) {
    const number = i + 1;
    const files = stepFiles(step);
    for (const file of files) {
      const pattern = matchProtected(file, rules.protectedPaths);
      if (pattern !== undefined)
        add({ kind: 'protected-path', severity: 'blocking', step: number, file: short(file), pattern: short(pattern) });
    }
    const verify = step.verify?.trim();
    if (verify) {
      const refusal = commandRefusal(verify, rules.allowedCommands);
      if (refusal !== undefined) {
        add({
          kind: 'command-not-allowed',
          severity: 'warning',
          step: number,
          command: short(verify),
          ...(refusal ? { reason: short(refusal) } : {}),
        });
      }
    }
    if (rules.allowedNetwork !== undefined)
      for (const { entry, why } of namedDestinations(rules.allowedNetwork, step.network ?? []).unreachable)
        add({ kind: 'network-not-allowed', severity: 'warning', step: number, destination: short(entry), why });
    if (!fileExists) continue;
    for (const file of files) {
      // A protected file is reported as such already; whether it exists changes nothing about that.
      if (
        file === wholeRepository ||
        madeEarlier.has(file) ||
        matchProtected(file, rules.protectedPaths) !== undefined ||
        fileExists(file)
      )
        continue;
      if (createsFiles(step)) {
        madeEarlier.add(file);
        add({ kind: 'new-file', severity: 'info', step: number, file: short(file) });
      } else {
        add({ kind: 'not-found', severity: 'info', step: number, file: short(file) });
      }
    }
  }
  return found
    .sort(
      (a, b) =>
        severityRank(a.finding) - severityRank(b.finding) ||
        stepOf(a.finding) - stepOf(b.finding) ||
        kindOrder[a.finding.kind] - kindOrder[b.finding.kind] ||
        a.at - b.at,
    )
    .map((f) => f.finding);
}

/** True when at least one finding stops approval (unless the configuration allows blocked plans). */
export function isBlocking(finding: Finding): boolean {
  return finding.severity === 'blocking';
}

/**
 * Why the executor would refuse to run `verify`: undefined when it may run it, '' when it is simply
 * not among the allowed commands, otherwise what makes it no single command at all.
 */
function commandRefusal(verify: string, allowedCommands: readonly string[]): string | undefined {
  if (allowedCommands.length === 0) return 'no allowed-commands are configured';
  let argv: string[];
  try {
    argv = parseCommandLine(verify);
  } catch (error) {
    // The policy's message ends with general advice for the model; the first sentence is the reason.
    const message = errorMessage(error);
    return message.split(/\.\s/)[0] ?? message;
  }
  return isCommandAllowed(argv, allowedCommands) ? undefined : '';
}

function createsFiles(step: PlanStep): boolean {
  return creates.test(step.title) || creates.test(step.detail ?? '');
}

/** A step's `files`, normalized, without blanks or repeats, in the order it lists them. */
function stepFiles(step: PlanStep): string[] {
  return [...new Set((step.files ?? []).map(scopePath).filter((f) => f !== ''))];
}

/**
 * The paths whose existence {@link checkPlan} may ask `fileExists` about: every step's files (the
 * whole repository aside), so the base tree is looked up for these alone, not listed whole.
 */
export function existenceQuestions(plan: Plan): string[] {
  return [...new Set(plan.steps.flatMap(stepFiles).filter((file) => file !== wholeRepository))];
}

const severityRank = (f: Finding) => ({ blocking: 0, warning: 1, info: 2 })[f.severity];
const stepOf = (f: Finding) => ('step' in f ? f.step : 0);
