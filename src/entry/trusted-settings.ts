import * as core from '@actions/core';
import { z } from 'zod';
import { failureMessage } from '../github/errors.js';
import type { Git } from '../repo/git.js';
import { readFileAtCommit, trustedBase, type TrustedBase } from '../repo/trusted-config.js';
import { SettingsError, withRepoConfig, type ActionInputs, type Settings } from '../config/settings.js';

/**
 * The run's configuration comes from the trusted side: the config file decides what runs (MCP
 * server commands, a task's allowed commands, prices), so it is read from the default branch's
 * latest commit, out of git's objects, never from the work tree, which a pull request's head or an
 * earlier command may have written. main.ts calls this once it knows the event carries a command,
 * so ignored events never pay for the fetch.
 */

/** Every event plangate acts on names the repository's default branch; the API is asked only when one does not. */
const payloadRepositorySchema = z.object({ repository: z.object({ default_branch: z.string().min(1) }) });

/**
 * Fetches the default branch, reads the config file at its commit and builds the settings from it.
 * Every error names the branch and the file, so the user knows what to fix and where.
 */
export async function trustedSettings(
  inputs: ActionInputs,
  payload: unknown,
  git: Git,
  lookUpDefaultBranch: () => Promise<string>,
): Promise<{ settings: Settings; trusted: TrustedBase }> {
  const file = inputs.configFile;
  const named = payloadRepositorySchema.safeParse(payload);
  let branch: string;
  try {
    branch = named.success ? named.data.repository.default_branch : await lookUpDefaultBranch();
  } catch (error) {
    throw new Error(`Could not look up the repository's default branch to read ${file}: ${failureMessage(error)}`, {
      cause: error,
    });
  }
  let trusted: TrustedBase;
  try {
    trusted = await trustedBase(git, branch);
  } catch (error) {
    throw new Error(
      `Could not fetch the default branch ${branch} to read ${file}: ${failureMessage(error)} (the workflow must check out the repository with actions/checkout).`,
      {
        cause: error,
      },
    );
  }
  const at = `${branch} (${trusted.sha.slice(0, 7)})`;
  let text: string | undefined;
  try {
    text = await readFileAtCommit(git, trusted.sha, file);
  } catch (error) {
    throw new Error(`Could not read ${file} at ${at}: ${failureMessage(error)}`, { cause: error });
  }
  core.info(text === undefined ? `No ${file} on ${at}: running with the inputs alone.` : `Read ${file} from ${at}.`);
  try {
    return { settings: withRepoConfig(inputs, text), trusted };
  } catch (error) {
    // Says where the broken file is: a fix in a pull request or the work tree changes nothing.
    if (error instanceof SettingsError) throw new SettingsError(`On ${at}: ${error.message}`, { cause: error });
    throw error;
  }
}
