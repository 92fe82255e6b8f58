import * as core from '@actions/core';
import type { GateInputs } from '../config/gate-inputs.js';
import { runUrlOf } from '../config/runner-environment.js';
import type { RepoRole } from '../config/permissions.js';
import type { GitHubClient } from '../github/client.js';
import { failureMessage } from '../github/errors.js';
import { createThread } from '../github/thread.js';
import { refuseUnlessRole } from '../run/refuse.js';
import { reportFailure, type ThreadCommand } from './dispatch.js';

/**
 * A command that fails before its flow starts (a mistyped input, a broken config file, a fetch that
 * failed) is answered where its author looks: a reply saying what to fix and a 😕 on the command. The
 * details go only to someone the command is for: anyone else gets the refusal they would get with a
 * working configuration, and learns nothing more.
 */

/** The permission the command's own flow checks first. */
function requiredRole(kind: ThreadCommand['kind'], gate: GateInputs): RepoRole {
  switch (kind) {
    case 'approve':
      return gate.approvePermission;
    case 'status':
    case 'help':
      return 'read';
    default:
      return gate.triggerPermission;
  }
}

/** Says on the thread why the command could not start; best effort, the step fails either way. */
export async function reportSetupFailure(
  gate: GateInputs,
  octokit: GitHubClient,
  command: ThreadCommand,
  error: unknown,
  secrets: readonly string[],
): Promise<void> {
  const { runner } = gate;
  const thread = createThread(octokit, { owner: runner.owner, repo: runner.repo }, secrets, {
    botLogin: gate.botLogin,
  });
  try {
    const name = `/${command.kind}`;
    const allowed = await refuseUnlessRole(
      thread,
      command,
      name,
      requiredRole(command.kind, gate),
      'Ask a maintainer.',
    );
    if ('refused' in allowed) return;
    await reportFailure({ thread, runUrl: runUrlOf(runner) }, command, error);
  } catch (reportError) {
    core.warning(`Could not report the failure on the thread: ${failureMessage(reportError)}`);
  }
}
