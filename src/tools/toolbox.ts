import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { Tool } from './tool.js';
import { ToolError } from './tool-error.js';
import { DEFAULT_OUTPUT_LIMIT, truncateOutput } from './truncate.js';
import { errorMessage } from '../text/error-message.js';

/** What a tool call produced; `ok: false` marks a failure the model was told about, not a crash. */
export interface ToolCallOutcome {
  ok: boolean;
  output: string;
}

/**
 * A role's fixed set of tools. `specs` is part of the session's frozen prefix, so it is built once
 * and never changes; `call` never throws, because a model's mistake must become a message it can
 * read, not the end of the run.
 */
export interface Toolbox {
  readonly specs: ChatCompletionFunctionTool[];
  call(name: string, rawArguments: string): Promise<ToolCallOutcome>;
}

export interface ToolboxOptions {
  /** Largest tool result handed to the model. */
  outputLimit?: number;
  /**
   * Masks secrets in a result. It runs before the result is cut to `outputLimit`: a cut that fell
   * inside a secret would leave a piece no mask recognises.
   */
  redact?: (text: string) => string;
}

/**
 * Builds the toolbox. Specs are sorted by name with canonically ordered JSON Schemas, so the same
 * tools always serialize to the same bytes and the provider's prompt cache keeps hitting.
 */
export function createToolbox(tools: Tool[], options: ToolboxOptions = {}): Toolbox {
  const limit = options.outputLimit ?? DEFAULT_OUTPUT_LIMIT;
  const redact = options.redact ?? ((text: string) => text);
  const bounded = (text: string) => truncateOutput(redact(text), limit);
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`Duplicate tool name: ${tool.name}`);
    byName.set(tool.name, tool);
  }
  const sorted = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const specs = deepFreeze(sorted.map(toSpec));
  const available = sorted.map((t) => t.name).join(', ');

  async function call(name: string, rawArguments: string): Promise<ToolCallOutcome> {
    const tool = byName.get(name);
    if (tool === undefined) {
      return fail(`Unknown tool ${JSON.stringify(name)}. Available tools: ${available}.`);
    }
    let args: unknown;
    try {
      // Some models send an empty string for a call without arguments.
      args = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
    } catch (error) {
      return fail(
        `The arguments for ${name} are not valid JSON (${errorMessage(error)}). Send a JSON object matching the tool's parameters.`,
      );
    }
    const parsed = tool.schema.safeParse(args);
    if (!parsed.success) {
      return fail(`Invalid arguments for ${name}: ${describeIssues(parsed.error)}. Fix them and call ${name} again.`);
    }
    try {
      return { ok: true, output: bounded(await tool.run(parsed.data)) };
    } catch (error) {
      if (error instanceof ToolError) return fail(error.message);
      return fail(`${name} failed: ${errorMessage(error)}`);
    }
  }

  function fail(message: string): ToolCallOutcome {
    return { ok: false, output: bounded(`Error: ${message}`) };
  }

  return { specs, call };
}

function toSpec(tool: Tool): ChatCompletionFunctionTool {
  const schema = z.toJSONSchema(tool.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  // The dialect URI says nothing to the model and would only be one more thing that could vary.
  delete schema.$schema;
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: canonical(schema) as Record<string, unknown>,
    },
  };
}

/** Object keys sorted recursively; arrays keep their order (it can carry meaning, as in enums). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = canonical((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** "start_line: Invalid input: expected number, received string; …", naming each bad argument. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '';
      return where === '' ? issue.message : `${where}: ${issue.message}`;
    })
    .join('; ');
}
