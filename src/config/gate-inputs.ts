import * as core from '@actions/core';
import { inputDefaults } from './defaults.js';
import { roleSchema, type RepoRole } from './permissions.js';
import { readRunner, type RunnerEnvironment } from './runner-environment.js';
import { secretInputs } from './secret-inputs.js';
import { commandPrefixSchema } from './input-schemas.js';
import { inputPlace, issueSentences } from './issue-sentences.js';
import { SettingsError } from './settings-error.js';

/**
 * What the action reads before anything that can be misconfigured: enough to tell which command an
 * event carries and to answer it on its thread. Only `command-prefix` can be invalid here (a secret is
 * any string, a login any text, and a permission that does not read falls back to its default); with
 * no valid prefix no comment can be read as a command, so that mistake fails the step, in the job log,
 * with no reply. A mistake in any other input or in the config file is reported where the person who
 * typed the command looks. The full reader (settings.ts) reads them again, the same way.
 */
export interface GateInputs {
  githubToken: string;
  /** Every secret input's value ('' when unset), registered with the runner before anything else is read. */
  secrets: string[];
  botLogin: string;
  allowedBots: string[];
  /** `command-prefix`: '' for none, else the word commands follow (`/plangate`). */
  commandPrefix: string;
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

/** `command-prefix`, validated; a bad value throws a SettingsError saying what to write instead. */
export function readCommandPrefix(): string {
  const parsed = commandPrefixSchema.safeParse(core.getInput('command-prefix', { trimWhitespace: false }), {
    reportInput: true,
  });
  if (!parsed.success)
    throw new SettingsError(issueSentences(parsed.error.issues, inputPlace('command-prefix'), commandPrefixSchema));
  return parsed.data;
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
    commandPrefix: readCommandPrefix(),
    triggerPermission: roleOr('trigger-permission'),
    approvePermission: roleOr('approve-permission'),
    runner: readRunner(env),
  };
}
