import { makerRunning } from '../../repo/temp-folders.js';
import { asRoot, type Helpers } from '../account/account-switch.js';

/**
 * iptables rules a killed job left (network-iptables.ts): where the action and its holder were both
 * killed outright (a runner that ends a whole process tree with SIGKILL, a machine that lost power
 * mid-job and kept its rules in a saved set), nothing removed them, and they would keep holding the
 * sandbox account, and other accounts off a loopback port, after the job. Their chains carry the
 * pid and start of the action that made them, in the kernel's ticks since boot, as the folders of
 * such a job do (repo/temp-folders.ts), so the next job removes only those whose action no longer
 * runs, never a live job's, and never takes a later process with a dead action's pid for it.
 */

const chainName = /^-N (plangate-([1-9]\d*)-(\d+))$/;

/** One action's chains as `iptables -S` lists them: the main chain, its maker, and OUTPUT's rules that jump to it. */
export interface ListedChain {
  chain: string;
  pid: number;
  start: number;
  /** Each rule of OUTPUT that jumps to the chain, as `-D` arguments that delete it. */
  jumps: string[][];
}

/** The actions whose main chains `iptables -S` lists, each once. */
export function listedChains(listing: string): ListedChain[] {
  const lines = listing.split('\n').map((line) => line.trim());
  const out: ListedChain[] = [];
  for (const line of lines) {
    const match = chainName.exec(line);
    if (!match) continue;
    const chain = match[1] ?? '';
    const jumps = lines
      .filter((l) => l.startsWith('-A OUTPUT ') && l.endsWith(` -j ${chain}`) && !/["']/.test(l))
      .map((l) => ['-D', ...l.split(/\s+/).slice(1)]);
    out.push({ chain, pid: Number(match[2]), start: Number(match[3]), jumps });
  }
  return out;
}

/**
 * Removes, as root, from both families, the chains of actions that no longer run, with OUTPUT's
 * jump to them. Never throws: a leftover not removed must not fail the job, whose own chains come
 * first in OUTPUT.
 */
export async function removeLeftoverChains(
  h: Helpers,
  how: 'root' | 'sudo',
  programs: { iptables: string; ip6tables: string },
): Promise<void> {
  for (const program of [programs.iptables, programs.ip6tables]) {
    try {
      const { stdout } = await asRoot(h, program, ['-w', '-S'], how);
      for (const { chain, pid, start, jumps } of listedChains(stdout)) {
        if (await makerRunning({ pid, start })) continue;
        for (const args of [...jumps, ['-F', chain], ['-F', `${chain}r`], ['-X', chain], ['-X', `${chain}r`]])
          await asRoot(h, program, ['-w', ...args], how).catch(() => undefined);
      }
    } catch {
      // Unlisted: nothing is removed this time.
    }
  }
}
