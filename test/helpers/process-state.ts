import fs from 'node:fs';

/**
 * Process checks for the run_command tests: whether a process still runs, waiting (without
 * wall-clock timing) until a killed one is gone, and finding, as this process sees it, a process a
 * command named from inside its own PID namespace.
 */

/** A killed process lingers as a zombie until its new parent reaps it; that counts as gone. */
export function isAlive(pid: number): boolean {
  try {
    const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    // No /proc entry: either gone, or a platform without /proc; ask the kernel.
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILL is asynchronous; give the kernel a bounded number of turns to finish it. */
export async function waitUntilGone(pid: number): Promise<void> {
  for (let i = 0; i < 10_000 && isAlive(pid); i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Waits (in event-loop turns, not time) until a file a child process writes exists. */
export async function waitForFile(file: string): Promise<void> {
  while (!fs.existsSync(file)) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * JavaScript (one line, no double quote, in a module or a script) for the words a process writes to name the process `pid`
 * of its own PID namespace (`process.pid`, a child's pid), for {@link hostPid}: a command in a
 * namespace of its own knows only the namespace's pids.
 */
export function namingPid(pid: string): string {
  return `${pid} + ' ' + process.getBuiltinModule('fs').readlinkSync('/proc/self/ns/pid')`;
}

/**
 * The pid, as this process sees it, of the process that {@link namingPid}'s words name; undefined
 * when it is gone. Reads every process's namespace link, so it needs to be able to (root, or the
 * same user).
 */
export function hostPid(words: string): number | undefined {
  const [pid = '', namespace] = words.trim().split(' ');
  if (namespace === undefined) return Number(pid) || undefined;
  for (const entry of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      if (fs.readlinkSync(`/proc/${entry}/ns/pid`) !== namespace) continue;
      const inside = /^NSpid:\s+(.*)$/m
        .exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]
        ?.trim()
        .split(/\s+/);
      if (inside?.at(-1) === pid) return Number(entry);
    } catch {
      // Gone between the listing and the read.
    }
  }
  return undefined;
}

/**
 * A `node -e` script that starts a grandchild, names it in `pidFile` ({@link namingPid}, through a
 * rename, so the file is whole once it exists), and where both would sleep for a minute: for the
 * timeout tests, which kill the whole process group.
 */
export function grandchildSleeper(pidFile: string): string {
  return [
    `const fs = require('fs');`,
    `const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(()=>{}, 60000)'], { stdio: 'ignore' });`,
    `fs.writeFileSync('${pidFile}.tmp', ${namingPid('c.pid')}); fs.renameSync('${pidFile}.tmp', '${pidFile}');`,
    `setTimeout(()=>{}, 60000);`,
  ].join(' ');
}
