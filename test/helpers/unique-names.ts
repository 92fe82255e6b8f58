import { randomBytes } from 'node:crypto';

/**
 * Names for what tests create outside their own temp dirs (accounts, fixed-place folders), unique
 * per test run: two runs at once, or a run after one that crashed, never share or trip over one.
 * Every name carries the run's tag, so the global teardown (test/helpers/global-setup.ts) can find
 * and remove whatever a test left behind.
 */

/** The variable the global setup sets to this run's tag; every worker, and what it spawns, inherits it. */
export const RUN_TAG_ENV = 'PLANGATE_TEST_RUN';

/** Six fresh lowercase letters and digits: valid in account names, short enough for their 32-character limit. */
export function freshTag(): string {
  return randomBytes(4).readUInt32BE(0).toString(36).padStart(6, '0').slice(-6);
}

let ownTag: string | undefined;

/**
 * This run's tag: the one the global setup chose for the whole `vitest run`, or, in a process
 * started some other way, one of its own.
 */
export function runTag(): string {
  const tag = process.env[RUN_TAG_ENV];
  if (tag && /^[a-z0-9]{1,12}$/.test(tag)) return tag;
  return (ownTag ??= freshTag());
}

let made = 0;

/**
 * `<prefix>-<run tag>-<pid>-<n>`: unique across runs, across the workers of one run and across calls;
 * at most 32 characters, so it serves as an account name too (prefix: lowercase, short).
 */
export function uniqueName(prefix: string): string {
  made += 1;
  const name = `${prefix}-${runTag()}-${process.pid.toString(36)}-${made}`;
  if (!/^[a-z_][a-z0-9_-]*$/.test(name) || name.length > 32)
    throw new Error(`uniqueName: ${JSON.stringify(name)} is not a usable account name; shorten the prefix`);
  return name;
}

/** Whether `name` was made for the run tagged `tag` by {@link uniqueName} or the runner accounts. */
export function madeForRun(name: string, tag: string): boolean {
  return name.startsWith('pg') && (name.endsWith(`-${tag}`) || name.includes(`-${tag}-`));
}
