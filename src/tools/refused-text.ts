import type { RefusedDestination } from './sandbox-types.js';

/**
 * What the sealed network refused during a command, as its tool result says it: each destination
 * once, with its attempts, and what the executor can do about it (name the destination it needs,
 * which a maintainer can allow). Empty when nothing was refused.
 */
export function refusedText(refused: readonly RefusedDestination[]): string {
  if (refused.length === 0) return '';
  const lines = refused.map((r) => {
    const what =
      r.by === 'firewall'
        ? `${r.attempts} packet${r.attempts === 1 ? '' : 's'}`
        : `${r.attempts} request${r.attempts === 1 ? '' : 's'}`;
    return `- ${r.destination}: ${what} refused${r.reason ? ` (${r.reason})` : ''}`;
  });
  return [
    `The sealed network refused ${refused.length === 1 ? 'one destination' : `${refused.length} destinations`}:`,
    ...lines,
    'Commands reach only loopback and the destinations `allowed-domains` names, through the proxy in HTTP_PROXY. If the work needs one of these, say which and why in your result: a maintainer can allow it.',
  ].join('\n');
}
