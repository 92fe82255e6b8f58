import { accessSync, appendFileSync, constants, existsSync } from 'node:fs';
import { EOL } from 'node:os';
import { secretInputs } from '../config/secret-inputs.js';
import { escapeProse } from '../text/markdown.js';
import { redact } from '../text/redact.js';

/**
 * Fails the step the way main.ts does (secret inputs masked, `outcome` = `failed`, the `::error::`
 * line, exit code 1, the job summary's "could not run" section), without @actions/core: for a job
 * whose runner environment or event file is broken, found before the engine loads. The workflow
 * commands and the output line are GitHub's documented formats. Returns false, having written
 * nothing, when the runner's output or summary file is missing or cannot be written, so the caller
 * leaves the report to main.ts and @actions/core, which say what is wrong with those files.
 */
export function reportEarlyFailure(
  problem: { message: string; redactInputs: boolean },
  env: NodeJS.ProcessEnv = process.env,
  write: (text: string) => void = (text) => void process.stdout.write(text),
): boolean {
  const output = env.GITHUB_OUTPUT;
  const summary = env.GITHUB_STEP_SUMMARY;
  if (!output || !existsSync(output) || (summary && !readableAndWritable(summary))) return false;
  // As core.getInput reads them: trimmed, '' when unset.
  const secrets = secretInputs.map((name) => (env[`INPUT_${name.toUpperCase()}`] ?? '').trim()).filter(Boolean);
  // The runner environment is read before the secrets are collected for redaction; the event after.
  const message = redact(problem.message, problem.redactInputs ? secrets : []);
  try {
    for (const secret of secrets) write(`::add-mask::${escapeData(secret)}${EOL}`);
    appendFileSync(output, `outcome=failed${EOL}`, 'utf8');
    write(`::error::${escapeData(message)}${EOL}`);
    process.exitCode = 1;
    if (summary) appendFileSync(summary, `### plangate could not run\n\n${escapeProse(message)}\n${EOL}`, 'utf8');
  } catch {
    // Written this far is no harm: main.ts reports again, and fails the step all the same.
    return false;
  }
  return true;
}

/** A workflow command's data, escaped as @actions/core escapes it. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function readableAndWritable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
