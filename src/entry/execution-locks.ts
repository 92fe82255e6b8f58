import * as core from '@actions/core';
import { failureMessage } from '../github/errors.js';
import { acquireLock, releaseLock } from '../github/lock.js';
import type { GitHubClient } from '../github/client.js';
import type { RepoRef } from '../github/thread-api.js';
import type { Git } from '../repo/git.js';
import type { ExecutionLocks } from '../run/run-context.js';

/**
 * The run's execution locks, which it also remembers while they are held: a stopped step releases
 * them before it exits, so the next `/approve` starts at once instead of taking the lock over from a
 * cancelled run, which needs the Actions API (`actions: read`) to tell that run has ended.
 */
export interface HeldExecutionLocks extends ExecutionLocks {
  /** Releases every lock still held or being acquired, each at most once; never throws. */
  releaseHeld(): Promise<void>;
}

export interface ExecutionLockDeps {
  git: Git;
  octokit: GitHubClient;
  repoRef: RepoRef;
  runId: string;
  runUrl: string;
}

export function executionLocks(deps: ExecutionLockDeps): HeldExecutionLocks {
  const held = new Set<() => Promise<void>>();
  // Acquisitions under way, each settled only once its lock is in `held`.
  const acquiring = new Set<Promise<unknown>>();

  const take: ExecutionLocks['acquire'] = async (issue) => {
    const attempt = await acquireLock({ ...deps, issue });
    if (!attempt.acquired) return attempt;
    if (attempt.lock.tookOverFrom)
      core.info(
        `Took over the lock of #${issue} from run ${attempt.lock.tookOverFrom.runId}, which is no longer running.`,
      );
    const release = async () => {
      // Released once: by the flow when it ends, or by the stop signal, whichever comes first.
      if (!held.delete(release)) return;
      await releaseLock({ git: deps.git, lock: attempt.lock }).catch((error: unknown) =>
        core.warning(`Could not release the lock of #${issue}: ${failureMessage(error)}`),
      );
    };
    held.add(release);
    return { acquired: true, release };
  };

  return {
    async acquire(issue, baseSha) {
      const taking = take(issue, baseSha);
      acquiring.add(taking);
      try {
        return await taking;
      } finally {
        acquiring.delete(taking);
      }
    },
    async releaseHeld() {
      // A lock whose push was under way when the step was stopped lands, and then goes too.
      await Promise.allSettled([...acquiring]);
      await Promise.all([...held].map((release) => release()));
    },
  };
}
