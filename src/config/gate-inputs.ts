import * as core from '@actions/core';
import { inputDefaults } from './defaults.js';
import { roleSchema, type RepoRole } from './permissions.js';
import { readRunner, type RunnerEnvironment } from './runner-environment.js';
import { secretInputs } from './secret-inputs.js';

/**
 * What the action reads before anything that can be misconfigured: enough to tell which command an
 * event carries and to answer it on its thread. None of these can be invalid in a way the user must
 * be told about on the thread (a secret is any string, a login any text, and a permission that does
 * not read falls back to its default), so a mistake in any other input or in the config file can be
 * reported where the person who typed the command looks. The full reader (settings.ts) reads them
 * again, the same way.
 */
export interface GateInputs {
  githubToken: string;
  /** Every secret input's value ('' when unset), registered with the runner before anything else is read. */
  secrets: string[];
  botLogin: string;
  allowedBots: string[];
  /**
   * The permissions commands need, for deciding who is told what went wrong: the inputs' values
   * when they read, else their defaults (a mistyped permission is reported like any other input).
   */
  triggerPermission: RepoRole;
  approvePermission: RepoRole;
  runner: RunnerEnvironment;
}

/** A role input as settings.ts reads it, or its default when it does not read. */
function roleOr(name: 'trigger-permission' | 'approve-permission'): RepoRole {
  const parsed = roleSchema.safeParse(core.getInput(name).trim() || inputDefaults[name]);
  return parsed.success ? parsed.data : inputDefaults[name];
}

/**
 * Reads the inputs a command needs to be answered at all and registers every secret input. Throws
 * only for a runner environment that is not an Actions job, where there is no thread to answer on.
 */
export function readGateInputs(env: NodeJS.ProcessEnv = process.env): GateInputs {
  const secrets = secretInputs.map((name) => core.getInput(name));
  for (const secret of secrets) if (secret) core.setSecret(secret);
  return {
    githubToken: secrets[0] ?? '',
    secrets,
    botLogin: core.getInput('bot-login').trim() || inputDefaults['bot-login'],
    allowedBots: core
      .getMultilineInput('allowed-bots')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#')),
    triggerPermission: roleOr('trigger-permission'),
    approvePermission: roleOr('approve-permission'),
    runner: readRunner(env),
  };
}
