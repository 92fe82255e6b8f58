import type { StopHook } from '../run/run-context.js';

/**
 * What the flows of a run ask to have said if the job is stopped while they run (the progress
 * comment of an execution, see run/checkpoint.ts): the stop handler in main.ts runs every hook
 * registered at the time, together, while the step still has the runner's grace.
 */
export interface StopHooks {
  register(hook: StopHook): () => void;
  /** Runs every registered hook at once; settles when all have, never throws. */
  run(signal: string): Promise<void>;
}

export function stopHooks(): StopHooks {
  const hooks = new Set<StopHook>();
  return {
    register(hook) {
      hooks.add(hook);
      return () => void hooks.delete(hook);
    },
    async run(signal) {
      // A hook that throws before its promise must not keep the others from running.
      await Promise.allSettled([...hooks].map(async (hook) => hook(signal)));
    },
  };
}
