import { execFile } from 'node:child_process';
import type { SandboxDeps } from './sandbox-types.js';

/**
 * The short helper programs the sandbox runs (sudo, getent, useradd, chown, setpriv): without a
 * shell, with only a PATH in their environment, and failing with the exit code and the helper's own
 * words, which the sandbox's messages quote.
 */

/** How a helper failed. */
export interface RunFailure {
  /** Exit code, or the spawn error's code (e.g. ENOENT). */
  code: number | string | null;
  detail: string;
}

/** Runs a short helper without a shell; rejects with a RunFailure. */
export function run(file: string, args: string[], pathList: string): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd: '/', env: { PATH: pathList }, encoding: 'utf8', timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve({ stdout });
          return;
        }
        const code = (error as NodeJS.ErrnoException & { code?: number | string }).code ?? null;
        reject({ code, detail: stderr.trim() || error.message } satisfies RunFailure);
      },
    );
  });
}

/** PATH for the helpers: the one the tests give, else this process's. */
export function helperPath(deps: SandboxDeps): string {
  return deps.path ?? process.env.PATH ?? '/usr/bin:/bin';
}
