import { expect } from 'vitest';
import { ToolError } from '../../src/tools/tool-error.js';

/** The message of the ToolError a tool call is refused with; fails when it resolves or throws anything else. */
export async function refusal(promise: Promise<unknown>): Promise<string> {
  let answer: unknown;
  try {
    answer = await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as Error).message;
  }
  throw new Error(`expected a refusal, got an answer: ${String(answer)}`);
}
