import type { PlanContext } from './fields.js';
import type { Policy, Snapshot, StateName } from './types.js';

/**
 * A run's first snapshot, shared by every machine so each starts with the same zeroed counters and
 * empty trail; the policy is copied so a caller's later edits cannot reach a run in progress.
 */
export function startSnapshot(state: StateName, context: PlanContext, policy: Policy): Snapshot {
  return { state, context, policy: { ...policy }, iteration: 0, stageExchanges: 0, agentExchanges: {}, trail: [] };
}
