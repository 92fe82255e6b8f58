import { appendFileSync, existsSync } from 'node:fs';
import { EOL } from 'node:os';

/**
 * Reports an ignored event the way main.ts does (`outcome` = `ignored` and a "Nothing to do" line),
 * without @actions/core: loading it costs more than the rest of an ignored run. The output file
 * format is GitHub's documented `name=value` line in the file GITHUB_OUTPUT names; a single-line
 * value needs no heredoc delimiter. Returns false, having written nothing, when there is no output
 * file to append to (or it cannot be written), so the caller can leave the report to main.ts and @actions/core.
 */
export function reportIgnored(
  reason: string,
  env: NodeJS.ProcessEnv = process.env,
  write: (text: string) => void = (text) => void process.stdout.write(text),
): boolean {
  const file = env.GITHUB_OUTPUT;
  if (!file || !existsSync(file)) return false;
  try {
    appendFileSync(file, `outcome=ignored${EOL}`, 'utf8');
  } catch {
    // An output file that cannot be written is main.ts's failure to report, with @actions/core.
    return false;
  }
  write(`Nothing to do: ${reason}.${EOL}`);
  return true;
}
