/**
 * The two ways the CLI fails on purpose. Both end as one line on stderr: a CliError says what to
 * fix in the repository or the environment (exit 1), a UsageError says the command line itself is
 * wrong (exit 2), so scripts can tell a mistyped call from a refused one.
 */
export class CliError extends Error {
  override name = 'CliError';
}

export class UsageError extends Error {
  override name = 'UsageError';

  constructor(
    message: string,
    /** The command whose `--help` explains the fix; undefined: the top-level help. */
    readonly command?: 'plan' | 'run',
  ) {
    super(message);
  }
}

/** Exit codes the CLI promises in its help. */
export const exitCodes = { ok: 0, failed: 1, usage: 2 } as const;
