import type { StageableField } from '../machine/fields.js';

/**
 * The last line of every summoning message: what the state requires, in one fixed form the models
 * learn to answer, e.g. `Stage: update_context(field=plan, ...) and update_context(field=directive, ...)`.
 */
export function stageLine(fields: readonly StageableField[]): string {
  return `Stage: ${fields.map((field) => `update_context(field=${field}, ...)`).join(' and ')}`;
}
