import type * as Core from '@actions/core';

/**
 * One stand-in for `@actions/core` in the tests that must reach it (the code under test logs
 * through it; see DESIGN.md "Conventions"). vi.mock is hoisted above the imports, so the factory
 * loads this module itself:
 *
 *     vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));
 *     import { coreLog, resetCoreLog } from '../helpers/core-mock.js';
 *
 * The dynamic import and the static one are the same module instance in a test file's worker, so
 * the test reads what the code under test logged from `coreLog`. Everything else is the real module.
 */

/** What the code under test told `@actions/core`, in order; reset it in a `beforeEach`. */
export interface CoreLog {
  /** `core.info` messages. */
  infos: string[];
  /** `core.warning` messages, an Error as its string. */
  warnings: string[];
  /** `core.notice` messages, an Error as its string. */
  notices: string[];
  /** `core.error` messages, an Error as its string. */
  errors: string[];
  /** Values passed to `core.setSecret`. */
  secrets: string[];
  /** `core.group` names, in the order the groups opened. */
  groups: string[];
}

export const coreLog: CoreLog = { infos: [], warnings: [], notices: [], errors: [], secrets: [], groups: [] };

/** Empties every list of {@link coreLog}, keeping the arrays (a test may hold a reference). */
export function resetCoreLog(): void {
  for (const list of Object.values(coreLog) as string[][]) list.length = 0;
}

/**
 * The vi.mock factory: the real module, with `info`, `warning`, `notice`, `error` and `setSecret` recorded in
 * {@link coreLog} instead of printed (no workflow commands in the test output), and `group`
 * running its function without printing `::group::` lines.
 */
export async function coreMock(importOriginal: () => Promise<unknown>): Promise<typeof Core> {
  const actual = (await importOriginal()) as typeof Core;
  return {
    ...actual,
    info: (message: string) => void coreLog.infos.push(message),
    warning: (message: string | Error) => void coreLog.warnings.push(String(message)),
    notice: (message: string | Error) => void coreLog.notices.push(String(message)),
    error: (message: string | Error) => void coreLog.errors.push(String(message)),
    setSecret: (secret: string) => void coreLog.secrets.push(secret),
    group: async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
      coreLog.groups.push(name);
      return fn();
    },
  };
}
