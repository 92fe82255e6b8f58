import type { TrustedBase } from '../repo/trusted-config.js';

/**
 * Which commit the repository's instructions for agents (AGENTS.md and the like) are read at. They
 * steer both roles, so they come from the trusted side: the work's own base commit when that is the
 * default branch (the commit the plan is bound to, so planner and executor read the same bytes),
 * and otherwise the default branch's commit the run fetched, since a pull request's head or another
 * base branch holds whatever its author committed.
 */
export function instructionsCommit(base: { ref: string; sha: string }, trusted: TrustedBase): string {
  return base.ref === trusted.ref ? base.sha : trusted.sha;
}
