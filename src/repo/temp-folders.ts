import { lstat, readFile } from 'node:fs/promises';

/**
 * The names of the folders a run makes in the system's temp dir: its work-tree copy (work-tree.ts)
 * and its sandbox account's HOME and temp dir (tools/account-prepare.ts). Each carries the pid of
 * the action that made it, so that a later run can tell a folder a killed job left behind from one
 * a live job still uses (tools/account-leftovers.ts, tools/account-in-use.ts).
 */

/** `mkdtemp`'s prefix for a folder of this run: its kind, this action's pid, then mkdtemp's six characters. */
export function tempFolderPrefix(kind: 'work' | 'sandbox'): string {
  return `${kind === 'work' ? 'plangate-' : 'plangate-sandbox-'}${process.pid}-`;
}

const tempFolderName = /^plangate-(sandbox-)?([1-9]\d*)-[A-Za-z0-9]{6}$/;

/** The kind of the temp-dir folder `name` and the pid of the action that made it; undefined: not a run's folder. */
export function parseTempFolder(name: string): { kind: 'work' | 'sandbox'; pid: number } | undefined {
  const match = tempFolderName.exec(name);
  return match ? { kind: match[1] ? 'sandbox' : 'work', pid: Number(match[2]) } : undefined;
}

/**
 * Whether the action that made `folder` (`pid`, from its name) still runs: a process with that pid
 * exists and started before the folder last changed. A process that reuses the pid of a dead action
 * started after it, so it does not count. Where the start cannot be read (another account's process
 * under hidepid), a process with the pid counts as the action.
 */
export async function makerRunning(folder: string, pid: number): Promise<boolean> {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const [started, stat] = await Promise.all([processStart(pid), lstat(folder).catch(() => undefined)]);
  if (stat === undefined) return false;
  return started === undefined || started <= stat.ctimeMs + startSlackMs;
}

/** How much younger than it is a process may seem: its start is counted in ticks of 10 ms, and boot time is read once more. */
const startSlackMs = 250;

/** When process `pid` started, in ms since the epoch, from /proc; undefined when it cannot be read. */
async function processStart(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const uptime = await readFile('/proc/uptime', 'utf8');
    const now = Date.now();
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, starttime field 22.
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const booted = now - Number(uptime.split(' ')[0]) * 1000;
    // Linux counts a start in USER_HZ since boot: 100 per second on every architecture Actions runs on.
    const started = booted + ticks * 10;
    return Number.isFinite(started) && ticks > 0 ? started : undefined;
  } catch {
    return undefined;
  }
}
