import type { StopHook } from '../run/run-context.js';

/**
 * What the flows of a run ask to have said if the job is stopped while they run (the progress
 * comment of an execution, see run/checkpoint.ts): the stop handler in main.ts runs every hook
 * registered at the time, together, while the step still has the runner's grace. A flow that
 * registers after the signal hears it at once, so it does not go on as if the job ran on.
 */
export interface StopHooks {
  register(hook: StopHook): () => void;
  /** Runs every registered hook at once; settles when all have, never throws. */
  run(signal: string): Promise<void>;
}

export function stopHooks(): StopHooks {
  const hooks = new Set<StopHook>();
  let stoppedBy: string | undefined;
  // A hook that throws before its promise must not keep the others from running.
  const call = async (hook: StopHook, signal: string) => hook(signal);
  return {
    register(hook) {
      if (stoppedBy !== undefined) {
        // Too late for the stop handler's bounded wait: said as the process ends, if there is time.
        void call(hook, stoppedBy).catch(() => undefined);
        return () => undefined;
      }
      hooks.add(hook);
      return () => void hooks.delete(hook);
    },
    async run(signal) {
      stoppedBy ??= signal;
      await Promise.allSettled([...hooks].map((hook) => call(hook, signal)));
    },
  };
}
