import { accessSync, chmodSync, constants, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * PATHs for the firewalls a runner can have, so a test can run plangate as a runner with only one
 * of them would: `nftables` (nft installed; iptables may be too, and nft is chosen), and iptables
 * without nft on either of its backends, `iptables-nft` and `iptables-legacy`. For the last two, every
 * folder of PATH whose name ends in `sbin` is replaced by one folder of links to what those hold,
 * without `nft` (so useradd, setpriv, ip and the rest are still there), and with the iptables
 * programs pointing at the backend named. The folder is made once per process, readable by every
 * account (a runner account runs the action with it), and removed when the process exits.
 */

export type FirewallKind = 'nftables' | 'iptables-nft' | 'iptables-legacy';

const made = new Map<FirewallKind, string>();

/** The iptables programs a backend's multi-call binaries provide under these names. */
const iptablesPrograms = [
  'iptables',
  'ip6tables',
  'iptables-restore',
  'ip6tables-restore',
  'iptables-save',
  'ip6tables-save',
];

const isSbin = (dir: string) => /sbin\/?$/.test(dir);

/** The PATH a runner with firewall `kind` has; `base` defaults to this process's PATH. */
export function firewallPath(kind: FirewallKind, base: string = process.env.PATH ?? ''): string {
  if (kind === 'nftables') return base;
  const dirs = base.split(':').filter((d) => d !== '');
  let mirror = made.get(kind);
  if (mirror === undefined) {
    mirror = mkdtempSync(path.join(os.tmpdir(), `plangate-test-firewall-${kind}-`));
    const folder = mirror;
    chmodSync(folder, 0o755);
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    for (const dir of [...dirs.filter(isSbin), '/usr/sbin', '/sbin']) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        if (name === 'nft' || iptablesPrograms.includes(name)) continue;
        try {
          symlinkSync(path.join(dir, name), path.join(folder, name));
        } catch {
          // The first folder that has it wins, as on PATH.
        }
      }
    }
    const backend = kind === 'iptables-legacy' ? 'legacy' : 'nft';
    for (const name of iptablesPrograms) {
      const [family, ...rest] = name.split('-');
      const target = ['/usr/sbin', '/sbin']
        .map((dir) => path.join(dir, [family, backend, ...rest].join('-')))
        .find(executable);
      if (target !== undefined) symlinkSync(target, path.join(folder, name));
    }
    made.set(kind, folder);
  }
  return [...dirs.filter((d) => !isSbin(d)), mirror].join(':');
}

/** Whether this machine has the programs a runner with firewall `kind` needs. */
export function firewallInstalled(kind: FirewallKind): boolean {
  if (kind === 'nftables') return ['/usr/sbin/nft', '/sbin/nft'].some(executable);
  const backend = kind === 'iptables-legacy' ? 'legacy' : 'nft';
  return ['/usr/sbin', '/sbin'].some((dir) =>
    ['iptables', 'ip6tables', 'iptables-restore', 'ip6tables-restore'].every((name) => {
      const [family, ...rest] = name.split('-');
      return executable(path.join(dir, [family, backend, ...rest].join('-')));
    }),
  );
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
