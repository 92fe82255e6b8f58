import { readFileSync, readdirSync } from 'node:fs';

/**
 * The process table as /proc shows it (Linux), for the check that no process a test started
 * outlives the suite (test/helpers/global-setup.ts). Elsewhere there is no /proc and no check.
 */

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Process group: what the suite's processes share unless one starts its own (setsid, setpgid). */
  pgid: number;
  /** R, S, D, Z (zombie: exited, not yet reaped), ... */
  state: string;
  /** Start time in clock ticks since boot; with the pid, it names one process even after pid reuse. */
  started: string;
  uid: number;
  comm: string;
  cmdline: string;
}

/** One process, or undefined when it is gone (or unreadable) by the time it is read. */
export function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may hold spaces and parentheses itself: the fields follow the last ')'.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replace(/\0/g, ' ');
    } catch {
      // A kernel thread or a process that just went: its comm has to do.
    }
    return {
      pid,
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      state: fields[0] ?? '?',
      started: fields[19] ?? '?',
      uid,
      comm,
      cmdline: cmdline || `[${comm}]`,
    };
  } catch {
    return undefined;
  }
}

/** Every process now, or undefined where there is no /proc. */
export function listProcesses(): ProcessInfo[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  return entries.filter((e) => /^\d+$/.test(e)).flatMap((e) => readProcess(Number(e)) ?? []);
}

/** A process's identity across a pid's reuse. */
export const identity = (p: ProcessInfo): string => `${p.pid}@${p.started}`;

/** Whether the process's environment holds `entry` (`NAME=value`); false when it cannot be read. */
export function hasEnvEntry(pid: number, entry: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(entry);
  } catch {
    return false;
  }
}

/** What the suite looked like when it began. */
export interface Baseline {
  /** The vitest main process. */
  self: number;
  /** Its process group, which every process the suite starts joins unless it starts its own. */
  pgid: number;
  /** Processes present before the suite, by {@link identity}. */
  before: ReadonlySet<string>;
  /** `NAME=value` the suite's environment carries, so a process that left the group is still recognised. */
  marker: string;
}

export function takeBaseline(marker: string): Baseline | undefined {
  const all = listProcesses();
  const self = all?.find((p) => p.pid === process.pid);
  if (!all || !self) return undefined;
  return { self: self.pid, pgid: self.pgid, before: new Set(all.map(identity)), marker };
}

/** A vitest worker of this run, which vitest itself stops after the global teardown. */
const isOwnWorker = (p: ProcessInfo, baseline: Baseline) =>
  p.ppid === baseline.self && /vitest[/\\]dist[/\\]workers[/\\]/.test(p.cmdline);

/**
 * The processes the suite started that are still alive: new since the baseline and in the suite's
 * process group, below its main process, or carrying its environment marker. Zombies (exited,
 * waiting to be reaped) and vitest's own workers do not count.
 */
export function leftovers(baseline: Baseline, now: ProcessInfo[] | undefined = listProcesses()): ProcessInfo[] {
  if (!now) return [];
  const byPid = new Map(now.map((p) => [p.pid, p]));
  const below = (p: ProcessInfo): boolean => {
    const seen = new Set<number>();
    for (let at: ProcessInfo | undefined = p; at && !seen.has(at.pid); at = byPid.get(at.ppid)) {
      if (at.ppid === baseline.self) return true;
      seen.add(at.pid);
    }
    return false;
  };
  return now.filter(
    (p) =>
      p.pid !== baseline.self &&
      p.state !== 'Z' &&
      !baseline.before.has(identity(p)) &&
      !isOwnWorker(p, baseline) &&
      (p.pgid === baseline.pgid || below(p) || hasEnvEntry(p.pid, baseline.marker)),
  );
}

/** One line per process, for a report a person reads. */
export function describeProcesses(processes: readonly ProcessInfo[]): string {
  return processes
    .map((p) => `  pid ${p.pid} (parent ${p.ppid}, group ${p.pgid}, uid ${p.uid}): ${p.cmdline.slice(0, 300)}`)
    .join('\n');
}
