import fs from 'node:fs';

/**
 * Process checks for the run_command tests: whether a process still runs, and waiting (without
 * wall-clock timing) until a killed one is gone.
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
 * A `node -e` script that starts a grandchild, writes its pid to `pidFile` (through a rename, so the
 * file is whole once it exists), and where both would sleep for a minute: for the timeout tests,
 * which kill the whole process group.
 */
export function grandchildSleeper(pidFile: string): string {
  return [
    `const fs = require('fs');`,
    `const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(()=>{}, 60000)'], { stdio: 'ignore' });`,
    `fs.writeFileSync('${pidFile}.tmp', String(c.pid)); fs.renameSync('${pidFile}.tmp', '${pidFile}');`,
    `setTimeout(()=>{}, 60000);`,
  ].join(' ');
}
