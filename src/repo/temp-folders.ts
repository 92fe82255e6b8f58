import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * The names of the folders a run makes in the system's temp dir: its work-tree copy (work-tree.ts)
 * and its sandbox account's HOME and temp dir (sandbox/account/account-prepare.ts). Each carries the identity
 * of the action that made it, its pid and when that process started, so that a later run can tell a
 * folder a killed job left behind from one a live job still uses (sandbox/account/account-leftovers.ts,
 * sandbox/account/account-in-use.ts).
 *
 * The start is the kernel's own count of clock ticks since boot, compared for equality: no wall
 * clock is involved, so a clock stepped by NTP or a busy machine cannot make a live job's folder
 * look like a dead one's, and a later process that reuses a dead action's pid never matches it.
 */

/** `mkdtemp`'s prefix for a folder of this run: its kind, this action's pid and start, then mkdtemp's six characters. */
export function tempFolderPrefix(kind: 'work' | 'sandbox'): string {
  return `${kind === 'work' ? 'plangate-' : 'plangate-sandbox-'}${process.pid}-${ownStart()}-`;
}

const tempFolderName = /^plangate-(sandbox-)?([1-9]\d*)-(\d+)-[A-Za-z0-9]{6}$/;

/** A run's temp-dir folder: its kind and the action that made it (`start` 0: not known where it was made). */
export interface TempFolder {
  kind: 'work' | 'sandbox';
  pid: number;
  start: number;
}

/** What the temp-dir folder `name` is; undefined: not a run's folder. */
export function parseTempFolder(name: string): TempFolder | undefined {
  const match = tempFolderName.exec(name);
  return match ? { kind: match[1] ? 'sandbox' : 'work', pid: Number(match[2]), start: Number(match[3]) } : undefined;
}

/**
 * Whether the action that made a folder still runs: a process with its pid exists and started when
 * it did. Where a start cannot be compared (the folder's maker or this process could not read it, or
 * another account's process is hidden under hidepid), a process with the pid counts as the action:
 * a live job's folder is never taken for a leftover.
 */
export async function makerRunning({ pid, start }: Pick<TempFolder, 'pid' | 'start'>): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (start === 0) return true;
  const started = await processStart(pid);
  return started === undefined || started === start;
}

let own: number | undefined;

/** This process's start, read once; 0 where /proc cannot tell it. */
function ownStart(): number {
  if (own === undefined) {
    try {
      own = parseStart(readFileSync('/proc/self/stat', 'utf8')) ?? 0;
    } catch {
      own = 0;
    }
  }
  return own;
}

/** When process `pid` started, in clock ticks since boot, from /proc; undefined when it cannot be read. */
export async function processStart(pid: number): Promise<number | undefined> {
  return parseStart(await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined));
}

/** Field 22 (starttime) of a /proc/<pid>/stat line; the command name before it may hold spaces and parentheses. */
function parseStart(stat: string | undefined): number | undefined {
  if (stat === undefined) return undefined;
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  return Number.isSafeInteger(ticks) && ticks > 0 ? ticks : undefined;
}
