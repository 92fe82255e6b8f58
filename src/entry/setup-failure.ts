import * as core from '@actions/core';
import type { GateInputs } from '../config/gate-inputs.js';
import { runUrlOf } from '../config/runner-environment.js';
import { canConfigure, hasRole, lowerRole, type RepoRole } from '../config/permissions.js';
import { SettingsError } from '../config/settings-error.js';
import { renderConfigurationFailure } from '../render/failure.js';
import { commandText } from '../text/comment-command.js';
import type { GitHubClient } from '../github/client.js';
import { failureMessage } from '../github/errors.js';
import { createThread } from '../github/thread.js';
import { refuseUnlessRole } from '../run/refuse.js';
import { reportFailure, type ThreadCommand } from './dispatch.js';

/**
 * A command that fails before its flow starts (a mistyped input, a broken config file, a fetch that
 * failed) is answered where its author looks: a reply and a 😕 on the command. Someone the command is
 * not for gets the refusal they would get with a working configuration, and learns nothing more; a
 * setting to fix is named only to someone who can change it (canConfigure), and otherwise left to the
 * job log; a word that is none of plangate's commands gets nothing, as it would otherwise.
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
    const runUrl = runUrlOf(runner);
    if (command.kind === 'help' && command.unknown !== undefined) {
      // Answered, if at all, only to those who may command plangate (commands/help.ts).
      const role = await thread.permissionOf(command.author);
      if (!hasRole(role, lowerRole(gate.triggerPermission, gate.approvePermission))) return;
    }
    const name = `/${command.kind}`;
    const allowed = await refuseUnlessRole(thread, command, name, requiredRole(command.kind, gate));
    if ('refused' in allowed) return;
    if (error instanceof SettingsError && !canConfigure(allowed.role)) {
      const shown = commandText(command.kind, command.prefix);
      await thread.postComment(
        command.thread.number,
        renderConfigurationFailure({ author: command.author, command: shown, runUrl }),
      );
      await thread.react(command.commentId, 'confused', command.origin).catch(() => undefined);
      return;
    }
    await reportFailure({ thread, runUrl }, command, error);
  } catch (reportError) {
    core.warning(`Could not report the failure on the thread: ${failureMessage(reportError)}`);
  }
}
