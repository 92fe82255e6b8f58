import { readdir, readFile } from 'node:fs/promises';
// Not the global timers: a test that fakes those to fire a command's timeout must not stall the sweep.
import { setTimeout as delay } from 'node:timers/promises';
import { asAccount, type Helpers, type Switch } from './account-switch.js';
import type { AccountProcess } from './sandbox-types.js';

/**
 * Ending what the sandbox account runs, and naming what could not be ended. A non-root action
 * cannot kill another account's process and sudo cannot relay SIGKILL, so the kill is sent as the
 * account itself, with `kill -1`: one system call that reaches every process of the account, a
 * process forking at that moment included, which no list of pids read first can promise.
 *
 * Commands normally leave nothing: each runs in a PID namespace of its own that ends with it
 * (account-pid-namespace.ts). The sweep is what ends the rest: a command's processes where no
 * namespace can be made, what a stdio MCP server started outside its own tree, what a job killed
 * outright left. While stdio MCP servers are kept, `kill -1 SIGKILL` would end them too, so the
 * account is first stopped whole with `kill -1 SIGSTOP` (as atomic), the stopped processes outside
 * the kept trees are killed, and the kept ones continued: nothing outside the kept trees can fork
 * or move between the listing and the kill. The servers pause for those few milliseconds.
 */

const KILL_ALL = ['/bin/sh', '-c', 'kill -s KILL -- -1'];
const STOP_ALL = ['/bin/sh', '-c', 'kill -s STOP -- -1'];
// $1: pids to kill, $2: pids to continue, each a space-separated list of numbers (split unquoted).
const KILL_AND_CONTINUE = [
  '/bin/sh',
  '-c',
  'kill -s KILL -- $1 2>/dev/null; kill -s CONT -- $2 2>/dev/null; exit 0',
  'sweep',
];

/** How long the processes just killed get to be gone before those left are named (SIGKILL is asynchronous). */
const goneWithinMs = 1_000;
const lookEveryMs = 20;
/** How long a kept server's sudo gets to stop itself after its child stopped, before it is looked at again. */
const lateStopMs = 50;
/** A command line is named up to this many characters. */
const commandChars = 200;

/**
 * Sends every process of the account outside the kept trees SIGKILL, without waiting to see them
 * gone (see {@link endAccountProcesses}). Never throws: it is cleanup, and what it failed to end
 * is found and named after it.
 */
export async function sweepAccount(h: Helpers, p: Switch, kept: ReadonlySet<number>): Promise<void> {
  try {
    if (kept.size === 0) {
      await asAccount(h, p, KILL_ALL);
      return;
    }
    // Stopped first, always: a process that forks and exits every millisecond is missing from
    // any listing of /proc as often as not, so no listing can say that nothing is left.
    await asAccount(h, p, STOP_ALL);
    const { strays, spared } = await accountTable(p.identity.uid, kept);
    let continued = false;
    try {
      await asAccount(h, p, [...KILL_AND_CONTINUE, strays.join(' '), spared.join(' ')]);
      continued = true;
    } finally {
      // Never leave a kept server stopped: continued by the account, or at least as the action.
      if (!continued) await asAccount(h, p, [...KILL_AND_CONTINUE, '', spared.join(' ')]).catch(() => undefined);
      await resumeKept([...kept, ...spared], p.identity.uid);
    }
  } catch {
    // What is left running is found by the check after the sweep and named there.
  }
}

/**
 * A quick pass for what a command in a PID namespace of its own left when it was killed (its
 * namespace's first process, under sudo, outlives sudo): kills, as the account, what one listing
 * finds outside the kept trees, and nothing at all when it finds nothing, the usual case. No
 * guarantee: the sweep after the loan ({@link endAccountProcesses}) is that. Never throws.
 */
export async function killListed(h: Helpers, p: Switch, kept: ReadonlySet<number>): Promise<void> {
  try {
    const { strays } = await accountTable(p.identity.uid, kept);
    if (strays.length > 0) await asAccount(h, p, [...KILL_AND_CONTINUE, strays.join(' '), '']);
  } catch {
    // The sweep after the loan ends what this missed.
  }
}

/**
 * Ends every process of the account outside the kept trees and returns those still running after
 * it and a second try: what `kill -1` as the account cannot reach (a process only root could end,
 * one something outside the account keeps starting). Never throws.
 */
export async function endAccountProcesses(h: Helpers, p: Switch, kept: ReadonlySet<number>): Promise<AccountProcess[]> {
  for (let attempt = 0; ; attempt += 1) {
    await sweepAccount(h, p, kept);
    const left = await leftRunning(p.identity.uid, kept);
    if (left.length === 0 || attempt === 1) return left;
  }
}

/** The words for processes the sweep could not end, one line each: pid and command line. */
export function namedProcesses(processes: readonly AccountProcess[]): string {
  return processes.map((p) => `- pid ${p.pid}: ${p.command || '(command line unreadable)'}`).join('\n');
}

/**
 * Processes of the account outside the kept trees that are still alive (a zombie is not: it runs
 * nothing), once those just killed have had {@link goneWithinMs} to go.
 */
async function leftRunning(uid: number, kept: ReadonlySet<number>): Promise<AccountProcess[]> {
  const deadline = Date.now() + goneWithinMs;
  for (;;) {
    const { strays } = await accountTable(uid, kept);
    if (strays.length === 0) return [];
    if (Date.now() >= deadline) return Promise.all(strays.map(described));
    await delay(lookEveryMs);
  }
}

/**
 * Continues, as the action, the kept processes it may signal: all of them as root; under sudo, a
 * kept server's parent, sudo, which stops itself on seeing its child stop (and continues its child
 * when continued) and would otherwise relay nothing more, the server's close included. A parent not
 * stopped yet is looked at once more, in case it saw the stop late. Never throws.
 */
async function resumeKept(pids: readonly number[], uid: number): Promise<void> {
  const resume = (pid: number) => {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // Gone, or not the action's to signal (the account continued it).
    }
  };
  const late: number[] = [];
  for (const pid of pids) {
    const info = await processInfo(pid);
    if (info !== undefined && !info.uids.includes(uid) && info.state !== 'T') late.push(pid);
    else resume(pid);
  }
  if (late.length === 0) return;
  await delay(lateStopMs);
  for (const pid of late) if ((await processInfo(pid))?.state === 'T') resume(pid);
}

interface ProcessInfo {
  ppid: number;
  /** Real, effective, saved and file-system uid. */
  uids: number[];
  /** The kernel's one-letter state: Z for a zombie, T when stopped. */
  state: string;
}

/** One process's status, read from /proc; undefined when it is gone. Readable by every account. */
async function processInfo(pid: number | string): Promise<ProcessInfo | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  if (status === undefined) return undefined;
  return {
    ppid: Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? -1),
    uids: (/^Uid:\s+(.*)$/m.exec(status)?.[1] ?? '').trim().split(/\s+/).map(Number),
    state: /^State:\s+(\S)/m.exec(status)?.[1] ?? '?',
  };
}

/**
 * The account's living processes: `strays` outside the kept trees, `spared` in them (a kept root may
 * belong to another account: sudo, as root). A process holding the account's uid as any of its
 * uids counts: it acts with the account's rights, whoever started it.
 */
async function accountTable(
  uid: number,
  keptRoots: ReadonlySet<number>,
): Promise<{ strays: number[]; spared: number[] }> {
  const entries = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  const children = new Map<number, number[]>();
  const ofAccount: number[] = [];
  await Promise.all(
    entries.map(async (entry) => {
      const info = await processInfo(entry);
      if (info === undefined) return;
      const pid = Number(entry);
      children.set(info.ppid, [...(children.get(info.ppid) ?? []), pid]);
      if (info.uids.includes(uid) && info.state !== 'Z' && info.state !== 'X') ofAccount.push(pid);
    }),
  );
  const inKeptTrees = new Set<number>();
  const queue = [...keptRoots];
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    if (inKeptTrees.has(pid)) continue;
    inKeptTrees.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return {
    strays: ofAccount.filter((pid) => !inKeptTrees.has(pid)),
    spared: ofAccount.filter((pid) => inKeptTrees.has(pid)),
  };
}

/** A process with its command line, as the sweep names it. */
async function described(pid: number): Promise<AccountProcess> {
  const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  const words = raw.replace(/\0+$/, '').split('\0').join(' ').replace(/\s+/g, ' ').trim();
  const command = words.length > commandChars ? `${words.slice(0, commandChars)}…` : words;
  return { pid, command };
}
