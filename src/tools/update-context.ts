import { z } from 'zod';
import { outcomeSchema, planSchema, stageableBy } from '../machine/fields.js';
import type { Role, StageableField, StagedFields } from '../machine/fields.js';
import { maskStrings } from '../repo/credential-mask.js';
import { defineTool } from './tool.js';
import type { Tool } from './tool.js';

/**
 * update_context is how an agent moves the machine: it stages typed fields and the host's reducer
 * decides what happens next. The schema is built from `stageableBy`, so a role is offered exactly
 * the fields it may stage and a planner can never report a result (nor an executor write a plan).
 */

const nonEmpty = (what: string) => z.string().trim().min(1, `${what} must not be empty`);

/** Each stageable field's schema, shared with every other boundary through machine/fields. */
const fieldSchemas = {
  plan: planSchema.describe('The structured plan: ordered steps, plus assumptions and risks.'),
  directive: nonEmpty('directive').describe("The instruction for the executor's next cycle."),
  summary: nonEmpty('summary').describe('What the run achieved, for the pull request or the abort report.'),
  question: z
    .union([
      nonEmpty('question'),
      z
        .object({ text: nonEmpty('question text'), options: z.array(nonEmpty('an option')).min(2).max(10).optional() })
        .strict(),
    ])
    // The context keeps one string: the options become part of the question the maintainer reads.
    .transform((q) =>
      typeof q === 'string' ? q : [q.text, ...(q.options ?? []).map((o, i) => `${i + 1}. ${o}`)].join('\n'),
    )
    .describe('A clarifying question for the maintainer, as text or { text, options }; planning waits for the answer.'),
  result: nonEmpty('result').describe('What you did for the current directive and what you observed.'),
  outcome: outcomeSchema.describe('done: directive complete; replan: the plan needs revising; abort: cannot continue.'),
} satisfies Record<StageableField, z.ZodType>;

/** Builds the role's strict argument schema; exported so tests and docs can inspect it per role. */
export function stagedFieldsSchema(role: Role): z.ZodType<StagedFields> {
  const fields: readonly StageableField[] = stageableBy[role];
  const shape: Partial<Record<StageableField, z.ZodOptional<z.ZodType>>> = {};
  for (const field of fields) shape[field] = fieldSchemas[field].optional();
  const listed = fields.join(', ');
  return z
    .object(shape, {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `the ${role} cannot stage ${issue.keys.join(', ')}; it may stage only ${listed}`
          : undefined,
    })
    .strict()
    .refine((staged) => fields.some((field) => (staged as Record<string, unknown>)[field] !== undefined), {
      message: `stage at least one field: ${listed}`,
      // Only when the object is otherwise valid: "cannot stage result" says it all for a planner.
      when: (payload) => payload.issues.length === 0,
    }) as z.ZodType<StagedFields>;
}

/**
 * The update_context tool for `role`. `stage` hands the parsed fields to the host, which applies
 * them and returns the text the model sees (what was staged, what is still required).
 */
export function createUpdateContextTool(role: Role, stage: (fields: StagedFields) => string): Tool {
  const listed = stageableBy[role].join(', ');
  return defineTool({
    name: 'update_context',
    description: `Stage context fields for the ${role} (${listed}). Staged fields drive the run: the host checks what the current stage requires and moves on when it is complete. Pass one or more fields in one call.`,
    schema: stagedFieldsSchema(role),
    async run(fields) {
      // What an agent stages is recorded, shown and published: a credential in it is masked here, once.
      return stage(await maskStrings(fields));
    },
  });
}
