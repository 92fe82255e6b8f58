import { z } from 'zod';
import { literalPathProblem } from '../text/literal-path.js';

/**
 * The typed context fields agents stage. They live beside the machine because the machine's guards
 * read them; every boundary that accepts them (the update_context tool, the plan record) reuses
 * these schemas so a plan means the same thing everywhere.
 */

/** One step of a plan, in the order the executor should take them. */
export const planStepSchema = z
  .object({
    title: z.string().trim().min(1).max(300),
    detail: z.string().max(4000).optional(),
    /**
     * What the step may add, change or delete: literal paths, each a file or a folder (and then
     * everything under it). Never a pattern: a character only a pattern would hold is refused here,
     * naming the step, so the plan a maintainer approves means what it reads.
     */
    files: z
      .array(z.string().min(1).max(500))
      .max(100)
      .optional()
      .describe(
        'Literal paths the step adds, changes or deletes, relative to the repository root: a file, or a folder for everything under it. Never a glob or pattern.',
      ),
    verify: z.string().max(1000).optional(),
    /**
     * The network destinations the step needs, written as `allowed-domains` entries (a host,
     * `*.example.com`, `host:port`, or a bundle such as `npm`): part of the step's scope, like
     * `files` and `verify`.
     */
    network: z
      .array(z.string().trim().min(1).max(300))
      .max(50)
      .optional()
      .describe(
        'Network destinations the step needs, as allowed-domains entries: a host, *.example.com, host:port, or a bundle such as npm. Nothing else is reachable.',
      ),
    /**
     * The steps (numbered from 1, each earlier in the list) that must be finished before this one
     * starts. Without it a step follows the one before it, as in a plan that names no order.
     */
    after: z
      .array(z.number().int().min(1).max(500))
      .max(50)
      .optional()
      .describe(
        'Numbers of the earlier steps (from 1) this step needs finished first; [] for none. Without it the step follows the one before it. Steps that need nothing of each other and list different files run at the same time.',
      ),
  })
  .strict();

/** The planner's plan: ordered steps plus what it assumed and what could go wrong. */
export const planSchema = z
  .object({
    // Generous: a long plan is shown cut with a notice, never refused for its length.
    steps: z.array(planStepSchema).min(1).max(500),
    assumptions: z.array(z.string().max(1000)).max(30).optional(),
    risks: z.array(z.string().max(1000)).max(30).optional(),
  })
  .strict()
  .superRefine((plan, ctx) => {
    plan.steps.forEach((step, index) => {
      (step.files ?? []).forEach((file, at) => {
        const problem = literalPathProblem(file);
        if (problem !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['steps', index, 'files', at],
            message: `step ${index + 1} names ${JSON.stringify(file)} in files, which ${problem}`,
          });
      });
      // Only earlier steps: the order is then a graph without cycles by construction.
      for (const needed of step.after ?? [])
        if (needed > index)
          ctx.addIssue({
            code: 'custom',
            path: ['steps', index, 'after'],
            message:
              index === 0
                ? `step 1 comes first, so it can wait for no step, not step ${needed}`
                : `step ${index + 1} may only wait for earlier steps (1 to ${index}), not step ${needed}`,
          });
    });
  });

/** How the executor judges its directive: finished, plan was wrong, or cannot continue. */
export const outcomeSchema = z.enum(['done', 'replan', 'abort']);

export type PlanStep = z.infer<typeof planStepSchema>;
export type Plan = z.infer<typeof planSchema>;
export type Outcome = z.infer<typeof outcomeSchema>;

/** One execute cycle as history keeps it: what was asked, what came back, how it was judged. */
export interface HistoryEntry {
  directive: string;
  result: string;
  outcome: Outcome;
  /** The plan step (from 1) the cycle carried out, where the plan orders its steps (`after`). */
  step?: number;
  /** The steps that ran at the same time, this one included, in plan order; absent for a step run alone. */
  together?: number[];
  /** What the host did besides, e.g. that the step was run again on the merged tree after a conflict. */
  note?: string;
}

/** One step of a step graph carried out in its own session: a history entry that names its step. */
export type StepReport = HistoryEntry & { step: number };

/** A planner question and the maintainer's answer, kept so every later planning visit sees both. */
export interface Clarification {
  question: string;
  answer: string;
}

/** A plan a maintainer sent back and what they asked to change, so the revision starts from both. */
export interface Revision {
  plan: Plan;
  feedback: string;
}

/** The machine's context: everything agents stage plus what the machine and the host keep. */
export interface PlanContext {
  objective: string;
  plan?: Plan;
  directive?: string;
  result?: string;
  outcome?: Outcome;
  history: HistoryEntry[];
  summary?: string;
  question?: string;
  /**
   * What each session of a batch of steps run together reported, staged by the host for them
   * (event `steps`); never staged through a tool.
   */
  steps?: StepReport[];
  /** Filled by the machine from host answers (`recordAnswer`); never staged, so an agent cannot invent an answer. */
  clarifications?: Clarification[];
  /** Filled by the host when a maintainer asks for a revision; never staged, so an agent cannot forge feedback. */
  revisions?: Revision[];
  /**
   * The thread the objective came from (issue text, comments from trusted users), already marked as
   * untrusted data by the host; never staged.
   */
  thread?: string;
}

/**
 * Fields an agent may stage; `objective`, `history`, `clarifications` and `revisions` belong to the
 * host and the machine.
 */
export type StageableField = 'plan' | 'directive' | 'result' | 'outcome' | 'summary' | 'question';

/** What each role may stage: the planner never reports results, the executor never plans. */
export const stageableBy = {
  planner: ['plan', 'directive', 'summary', 'question'],
  executor: ['result', 'outcome'],
} as const satisfies Record<string, readonly StageableField[]>;

export type Role = keyof typeof stageableBy;
export type StagedFields = Partial<Pick<PlanContext, StageableField>>;
