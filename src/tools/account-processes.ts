import { readdir, readFile } from 'node:fs/promises';
import { asAccount, type Helpers, type Switch } from './account-switch.js';

/**
 * Ending what the sandbox account runs. A non-root action cannot kill another account's process
 * and sudo cannot relay SIGKILL, so the kill is sent as the account itself: all of its processes at
 * once, or, while some are kept (the stdio MCP servers), every process outside the kept trees.
 */

const KILL_ALL = ['/bin/sh', '-c', 'kill -s KILL -- -1'];
const KILL_LISTED = ['/bin/sh', '-c', 'kill -s KILL -- "$@" 2>/dev/null; exit 0', 'sweep'];

/** Every process of the account, or all but the kept trees. Never throws: it is cleanup. */
export async function sweepAccount(h: Helpers, p: Switch, kept: ReadonlySet<number>): Promise<void> {
  try {
    if (kept.size === 0) {
      // One kill(-1) as the account: atomic, so a forking process cannot slip past it.
      await asAccount(h, p, KILL_ALL);
      return;
    }
    for (let pass = 0; pass < 10; pass += 1) {
      const targets = await strayProcesses(p.identity.uid, kept);
      if (targets.length === 0) return;
      await asAccount(h, p, [...KILL_LISTED, ...targets.map(String)]);
    }
  } catch {
    // Cleanup: a failed sweep leaves strays of an account that holds nothing; it must not fail the run.
  }
}

/**
 * Processes of `uid` outside the kept trees. /proc/<pid>/status is readable by every account, so no
 * switch is needed to find them; a kept root may belong to another account (sudo, as root).
 */
async function strayProcesses(uid: number, keptRoots: ReadonlySet<number>): Promise<number[]> {
  const entries = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  const children = new Map<number, number[]>();
  const ofAccount: number[] = [];
  await Promise.all(
    entries.map(async (entry) => {
      const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
      const realUid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
      const pid = Number(entry);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
      if (realUid === uid) ofAccount.push(pid);
    }),
  );
  const spared = new Set<number>();
  const queue = [...keptRoots];
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    if (spared.has(pid)) continue;
    spared.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return ofAccount.filter((pid) => !spared.has(pid));
}
