import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPrograms } from '../../src/repo/programs.js';
import { processStart } from '../../src/repo/temp-folders.js';
import { holderMarker } from '../../src/sandbox/network/network-holder.js';
import { firewallHere, installNetworkRules } from '../../src/sandbox/network/network-rules.js';
import { firewallInstalled, firewallPath, type FirewallKind } from '../helpers/firewall-path.js';

/**
 * The firewall rules on the real kernel, as root, in each firewall a runner can have: nftables, and
 * iptables without nft on either of its backends. The sandbox account here is uid 65534; another
 * account is uid 65533 (no passwd entry is needed to run as a uid).
 */

const root = process.getuid?.() === 0;
const sandboxUid = 65534;
const otherUid = 65533;

/** A server on 127.0.0.1 standing in for the egress proxy. */
let proxy: net.Server;
let proxyPort = 0;
beforeAll(async () => {
  proxy = net.createServer((socket) => socket.end('proxy-answer'));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyPort = (proxy.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

/**
 * What connecting to each `host:port` in turn as `uid` gives: an error code, or `connected`; one
 * process for all, waited for without blocking, since the proxy's stand-in answers in this process.
 */
async function probe(uid: number, ...targets: [string, number][]): Promise<string[]> {
  const script = `
    const net = require('node:net');
    const targets = ${JSON.stringify(targets)};
    const out = [];
    const next = () => {
      const target = targets[out.length];
      if (!target) { console.log(JSON.stringify(out)); process.exit(0); }
      const s = net.connect(target[1], target[0]);
      const done = (what) => { s.destroy(); out.push(what); next(); };
      s.on('error', (e) => done(e.code));
      s.on('data', () => done('connected'));
    };
    next();`;
  const args = ['--reuid', String(uid), '--regid', String(uid), '--clear-groups', process.execPath, '-e', script];
  const { stdout } = await promisify(execFile)('setpriv', args, { encoding: 'utf8' });
  return JSON.parse(stdout) as string[];
}

const kinds: { kind: FirewallKind; chosen: 'nftables' | 'iptables' }[] = [
  { kind: 'nftables', chosen: 'nftables' },
  { kind: 'iptables-nft', chosen: 'iptables' },
  { kind: 'iptables-legacy', chosen: 'iptables' },
];

for (const { kind, chosen } of kinds) {
  const h = () => ({ sudo: 'sudo', programs: findPrograms(firewallPath(kind)) });
  const iptables = (family: 4 | 6) =>
    `/usr/sbin/${family === 4 ? 'iptables' : 'ip6tables'}-${kind === 'iptables-legacy' ? 'legacy' : 'nft'}`;
  /** Whether the kernel still has the rules `rules.name` names. */
  const present = (name: string) =>
    chosen === 'nftables'
      ? execFileSync('nft', ['list', 'tables'], { encoding: 'utf8' }).includes(`inet ${name}\n`)
      : ([4, 6] as const).some((f) =>
          execFileSync(iptables(f), ['-w', '-S'], { encoding: 'utf8' }).includes(`-N ${name}\n`),
        );

  describe.runIf(root && firewallInstalled(kind))(`network rules in ${kind}`, () => {
    it(`are installed in ${chosen} where the PATH has what it has`, () => {
      expect(firewallHere(h())).toBe(chosen);
    });

    it('refuse what the account sends beyond loopback, count it, keep other accounts off the proxy, and are gone once closed', async () => {
      const rules = await installNetworkRules({ uid: sandboxUid, how: 'root', helpers: h(), proxyPort, ownUid: 0 });
      try {
        expect(rules.firewall).toMatch(
          chosen === 'nftables' ? /^nftables/ : kind === 'iptables-legacy' ? /legacy/ : /nf_tables/,
        );
        expect(await rules.inForce()).toBeUndefined();
        // The proxy serves the sandbox account, and the action (root here), and nobody else.
        expect(
          await probe(sandboxUid, ['10.9.8.7', 80], ['10.9.8.7', 80], ['fd00:9:8::7', 443], ['127.0.0.1', proxyPort]),
        ).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED', 'connected']);
        expect(await probe(otherUid, ['127.0.0.1', proxyPort])).toEqual(['ECONNREFUSED']);
        expect(await probe(0, ['127.0.0.1', proxyPort])).toEqual(['connected']);
        const refused = await rules.blocked();
        expect(refused.destinations).toContainEqual({ address: '10.9.8.7', protocol: 'tcp', port: 80, packets: 2 });
        expect(refused.destinations).toContainEqual({ address: 'fd00:9:8::7', protocol: 'tcp', port: 443, packets: 1 });
        expect(refused.packets).toBe(3);
      } finally {
        await rules.close();
      }
      expect(present(rules.name), 'the rules outlived close').toBe(false);
      expect(await probe(otherUid, ['127.0.0.1', proxyPort])).toEqual(['connected']);
    });

    it('say they are no longer in force once their holder is killed, and are removed all the same', async () => {
      const rules = await installNetworkRules({ uid: sandboxUid, how: 'root', helpers: h(), proxyPort, ownUid: 0 });
      try {
        // nft -i is this process's child; the iptables holder names its chain on its command line.
        const killed = chosen === 'nftables' ? holders(['-i'], process.pid) : holders([holderMarker, rules.name]);
        expect(killed.length).toBe(1);
        for (const pid of killed) process.kill(pid, 'SIGKILL');
        await waitFor(async () => (await rules.inForce()) !== undefined);
        expect(await rules.inForce()).toMatch(/ended|did not/);
      } finally {
        await rules.close();
      }
      expect(present(rules.name)).toBe(false);
    });
  });

  if (chosen === 'iptables')
    describe.runIf(root && firewallInstalled(kind))(`iptables rules a killed job left (${kind})`, () => {
      it('are removed by the next job that installs rules, unless their action still runs', async () => {
        // Process 1 runs as long as the machine: a live action's chains are named for it.
        const initStart = (await processStart(1)) ?? 0;
        const chains = {
          dead: `plangate-${deadPid()}-12345`,
          reused: `plangate-1-${initStart + 1}`,
          live: `plangate-1-${initStart}`,
        };
        for (const family of [4, 6] as const) {
          for (const chain of Object.values(chains)) {
            execFileSync(iptables(family), ['-w', '-N', chain]);
            execFileSync(iptables(family), ['-w', '-N', `${chain}r`]);
            execFileSync(iptables(family), ['-w', '-A', chain, '-j', `${chain}r`]);
            execFileSync(iptables(family), ['-w', '-A', 'OUTPUT', '-m', 'owner', '--uid-owner', '65532', '-j', chain]);
          }
        }
        const rules = await installNetworkRules({
          uid: sandboxUid,
          how: 'root',
          helpers: h(),
          proxyPort,
          ownUid: 0,
        }).catch((error: unknown) => {
          removeChains(Object.values(chains));
          throw error;
        });
        try {
          expect(present(chains.dead)).toBe(false);
          expect(present(`${chains.dead}r`)).toBe(false);
          expect(present(chains.reused)).toBe(false);
          expect(present(chains.live)).toBe(true);
        } finally {
          await rules.close();
          removeChains(Object.values(chains));
        }
      });

      /** Removes what this test made, whatever is left of it. */
      function removeChains(chains: string[]): void {
        for (const family of [4, 6] as const) {
          const run = (...args: string[]) => spawnSync(iptables(family), ['-w', ...args]);
          for (const chain of chains) {
            run('-D', 'OUTPUT', '-m', 'owner', '--uid-owner', '65532', '-j', chain);
            for (const step of ['-F', '-X']) for (const name of [chain, `${chain}r`]) run(step, name);
          }
        }
      }
    });
}

/** Processes whose command line holds every one of `words` (and whose parent is `parent`, when named). */
function holders(words: string[], parent?: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== undefined && ppid !== parent) continue;
      if (words.every((w) => argv.some((a) => a.includes(w)))) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

/** A pid no process has now. */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid--) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
