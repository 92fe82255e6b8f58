import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { REQUIRE_ACCOUNTS_ENV } from './runner-accounts.js';

/**
 * Whether this machine can seal the sandbox's network (nftables' `nft`, or iptables and ip6tables
 * with their restore programs, installed), which the action's default `network: sealed` needs before
 * any command runs. Where it cannot and CI's `PLANGATE_E2E_REQUIRE_ACCOUNTS=1` is unset (a
 * developer's machine without either), the worlds run with `network: open`, so the tests of
 * everything else still run; the network's own tests then skip. .ci/run installs nftables and
 * iptables and sets the variable, so there nothing is skipped.
 */
export function networkRulesHere(): boolean {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/sbin', '/sbin'];
  const installed = (name: string) =>
    dirs.some((dir) => {
      try {
        accessSync(path.join(dir, name), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  return installed('nft') || ['iptables', 'ip6tables', 'iptables-restore', 'ip6tables-restore'].every(installed);
}

/** The `network` input a world runs with unless a test names one. */
export function defaultNetworkInput(): Record<string, string> {
  return networkRulesHere() || process.env[REQUIRE_ACCOUNTS_ENV] === '1' ? {} : { network: 'open' };
}
