import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * From the moment a stop signal arrives, what the run was doing writes nothing more, whichever stage
 * it is in: no GitHub write (comment, reaction, label, pull request) and no push. The GitHub client
 * and the host's git ask `allows()` before each. What the stop itself says and undoes (the progress
 * comment saying the job stopped, the "planning stopped" reply, the lock's release) is the one
 * exception: it runs through `asStop`, and every write made inside it, however deep in its
 * promises, still goes out. A write already on the wire when the signal came is not called back.
 */
export interface StopGate {
  /** The job is being stopped: from now on only the stop's own work writes. */
  close(): void;
  /** Runs the stop's own work; its writes go out after `close()`. */
  asStop<T>(work: () => Promise<T>): Promise<T>;
  /** Whether a write may start now: before the stop, or as part of it. */
  allows(): boolean;
}

export function stopGate(): StopGate {
  const stopWork = new AsyncLocalStorage<true>();
  let closed = false;
  return {
    close: () => {
      closed = true;
    },
    asStop: (work) => stopWork.run(true, work),
    allows: () => !closed || stopWork.getStore() === true,
  };
}
