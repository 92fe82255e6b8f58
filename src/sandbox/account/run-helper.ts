import { execFile } from 'node:child_process';
import { defaultPrograms, type Programs } from '../../repo/programs.js';
import type { SandboxDeps } from './sandbox-types.js';

/**
 * The short helper programs the sandbox runs (sudo, getent, useradd, chown, setpriv): by absolute
 * path (repo/programs.ts), without a shell, with only a PATH of absolute entries in their
 * environment, and failing with the exit code and the helper's own words, which the sandbox's
 * messages quote.
 */

/** How a helper failed. */
export interface RunFailure {
  /** Exit code, or the spawn error's code (ENOENT also when the program is not found). */
  code: number | string | null;
  detail: string;
}

/**
 * The absolute path of the program `name` (repo/programs.ts), or a rejection with a RunFailure
 * (code ENOENT) whose detail names it and the PATH searched.
 */
export function locate(programs: Programs, name: string): string {
  try {
    return programs.find(name);
  } catch (error) {
    throw { code: 'ENOENT', detail: error instanceof Error ? error.message : String(error) } satisfies RunFailure;
  }
}

/** Runs the helper `name` without a shell; rejects with a RunFailure. */
export function run(programs: Programs, name: string, args: string[]): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const file = locate(programs, name);
    execFile(
      file,
      args,
      {
        cwd: '/',
        env: { PATH: programs.path },
        encoding: 'utf8',
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
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

/** The helpers' programs: the ones the sandbox is given, else those on this process's PATH. */
export function helperPrograms(deps: SandboxDeps): Programs {
  return deps.programs ?? defaultPrograms();
}
