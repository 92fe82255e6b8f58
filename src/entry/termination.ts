/**
 * How a cancelled or timed-out job ends a step: the runner sends SIGINT, then SIGTERM, then kills
 * what it can reach, which is not what runs as the sandbox account when the action is not root.
 * Node's default for both signals is to exit at once, with no sweep: what a command started would
 * run on as the account after the job, and the work tree copy would stay in the temp dir. So the
 * first of them stops the run's parts (`stop`, told which signal came) and then fails the step,
 * naming the signal; a second one while that runs changes nothing.
 */

export const terminationSignals = ['SIGINT', 'SIGTERM'] as const;

export interface TerminationDeps {
  /** Fails the step with this message. */
  fail(message: string): void;
  /** Ends the process. Default: process.exit with the exit code fail() set. */
  exit?: () => void;
}

/** Handles the runner's stop signals until the returned release is called. */
export function stopOnTermination(stop: (signal: NodeJS.Signals) => Promise<void>, deps: TerminationDeps): () => void {
  let stopping = false;
  const exit = deps.exit ?? (() => process.exit());
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    void stop(signal)
      .catch(() => undefined)
      .finally(() => {
        deps.fail(
          `plangate was stopped by ${signal} (the job was cancelled or ran out of time): it ended what its commands still ran and removed its work tree. What it pushed before is kept; a re-run of an approved plan continues from there.`,
        );
        exit();
      });
  };
  for (const signal of terminationSignals) process.on(signal, handler);
  return () => {
    for (const signal of terminationSignals) process.off(signal, handler);
  };
}

/**
 * How long work on a stop signal may wait on the network: the runner kills the step some ten
 * seconds after its first signal, and what is left after this wait (removing the work tree) must
 * still happen before that.
 */
export const stopNetworkGraceMs = 5_000;
