import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { REQUIRE_ACCOUNTS_ENV } from './runner-accounts.js';

/**
 * Whether this machine can seal the sandbox's network (nftables' `nft` installed), which the
 * action's default `network: sealed` needs before any command runs. Where it cannot and CI's
 * `PLANGATE_E2E_REQUIRE_ACCOUNTS=1` is unset (a developer's machine without nftables), the worlds
 * run with `network: open`, so the tests of everything else still run; the network's own tests
 * then skip. .ci/run installs nftables and sets the variable, so there nothing is skipped.
 */
export function networkRulesHere(): boolean {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/sbin', '/sbin'];
  return dirs.some((dir) => {
    try {
      accessSync(path.join(dir, 'nft'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The `network` input a world runs with unless a test names one. */
export function defaultNetworkInput(): Record<string, string> {
  return networkRulesHere() || process.env[REQUIRE_ACCOUNTS_ENV] === '1' ? {} : { network: 'open' };
}
