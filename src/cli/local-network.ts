import { createSandbox, type Sandbox } from '../sandbox/sandbox.js';
import { sealInNamespace } from '../sandbox/sandbox.js';
import type { LocalSettings } from './local-settings.js';

/**
 * Where the CLI's commands and stdio MCP servers run: as the user who started plangate (their
 * machine, their approval), in their checkout, and by default with the network sealed as the
 * action seals it: only loopback and what --allowed-domains names, or nothing runs. Locally there
 * is no separate account for firewall rules to hold, so each process gets a network namespace of
 * its own (sandbox/network/namespace-seal.ts). --network open runs them with the network as it is.
 */
export function localSandbox(
  settings: Pick<LocalSettings, 'network' | 'allowedDestinations'>,
  workTree: string,
): Sandbox {
  const own = createSandbox({ isolation: 'none', workTree });
  if (settings.network === 'open') return own;
  return sealInNamespace(own, { destinations: settings.allowedDestinations, impossible: localNetworkImpossible });
}

/** The words for a machine where the network cannot be sealed: the cause, what was not done, and the flag that opts out. */
export function localNetworkImpossible(cause: string): string {
  return (
    `Commands cannot run here with a sealed network: ${cause}. plangate runs commands and MCP servers in a network namespace of their own that reaches only loopback and the destinations --allowed-domains names, so that code from the repository cannot send your work tree elsewhere. ` +
    'Nothing was run. Fix the cause, or run plangate with --network open to run them with the network as you have it, where they can send the work tree anywhere.'
  );
}
