import type { z } from 'zod';

/**
 * One capability offered to a model. The schema is both the validator for the model's arguments
 * and the source of the JSON Schema the model sees, so the two can never disagree.
 */
export interface Tool<A = unknown> {
  name: string;
  description: string;
  schema: z.ZodType<A>;
  /** Returns the text the model sees; throws ToolError for failures the model can fix. */
  run(args: A): Promise<string>;
}

/**
 * Ties `run`'s parameter type to the schema's output type, so a handler cannot drift from the
 * arguments its schema actually accepts.
 */
export function defineTool<A>(tool: Tool<A>): Tool<A> {
  return tool;
}
