import { describe, expect, it } from 'vitest';
import { deriveScope, isEmptyDelta, scopeDelta, unplannedScope } from '../../src/checks/scope-derivation.js';
import { checkPlan } from '../../src/checks/plan-checks.js';
import { describeFinding, settingsBehind } from '../../src/checks/finding-text.js';
import type { CostEstimate } from '../../src/checks/cost-estimate.js';
import type { Plan } from '../../src/machine/fields.js';
import { widenScope, type ApprovedScope } from '../../src/scope/approved-scope.js';
import {
  allowedEntries,
  destinationEntrySchema,
  namedDestinations,
  narrowDestinations,
  networkBundles,
  scopeDestinations,
  type Destination,
} from '../../src/scope/network-destinations.js';
import { unrecordedDestinations } from '../../src/sandbox/network/refusal-tally.js';
import { refusedText } from '../../src/tools/refused-text.js';

/**
 * The network part of the approved scope: `allowed-domains` is the ceiling, the plan's steps narrow
 * it to what they name, and an amendment widens it back within the ceiling, never past it.
 */

const allowed = (...entries: string[]): Destination[] => entries.flatMap((e) => destinationEntrySchema.parse(e));
const unknown: CostEstimate = { kind: 'unknown', model: 'x', steps: 1, reason: 'no price' };
const noUsage = { promptTokens: 0, cachedTokens: 0, completionTokens: 0 };
const planNaming = (...network: string[][]): Plan => ({
  steps: network.map((n, i) => ({ title: `Step ${i + 1}`, ...(n.length ? { network: n } : {}) })),
});
const derive = (plan: Plan, network?: Destination[]) =>
  deriveScope({
    plan,
    allowedCommands: [],
    planning: noUsage,
    estimate: unknown,
    maxIterations: 10,
    ...(network ? { network } : {}),
  });

describe('the network a plan is approved with', () => {
  it('is what the steps name of allowed-domains, a bundle as its hosts', () => {
    const scope = derive(planNaming(['npm'], ['10.0.0.2:8080']), allowed('npm', 'pypi', '10.0.0.2:8080', '10.0.0.3'));
    expect(scope.network).toEqual([...networkBundles.npm, '10.0.0.2:8080']);
  });

  it('is loopback only for a plan that names no destination, and unset where the network is open', () => {
    expect(derive(planNaming([]), allowed('npm')).network).toEqual([]);
    expect(derive(planNaming(['npm'])).network).toBeUndefined();
  });

  it('leaves out what allowed-domains does not allow, and a metadata address whatever it allows', () => {
    const scope = derive(
      planNaming(['evil.test', '169.254.169.254:80', 'pypi', '[fe80::1]:80']),
      allowed('npm', '169.254.169.254:80', 'fe80::1'),
    );
    expect(scope.network).toEqual([]);
  });

  it('keeps of a wider entry only what the ceiling allows, and of a narrower one the entry itself', () => {
    const ceiling = allowed('*.example.com', 'api.test:443');
    expect(derive(planNaming(['a.example.com', 'api.test', '*.test']), ceiling).network).toEqual([
      'a.example.com',
      'api.test:443',
    ]);
    expect(
      namedDestinations(ceiling, ['api.test', '*.test', 'a.example.com', 'x.example.com:8080']).unreachable,
    ).toEqual([
      { entry: 'api.test', why: 'not-allowed' },
      { entry: '*.test', why: 'not-allowed' },
    ]);
  });

  it('is all of allowed-domains for a run with no plan', () => {
    expect(unplannedScope({ allowedCommands: [], maxIterations: 2, network: allowed('pypi') }).network).toEqual([
      ...networkBundles.pypi,
    ]);
  });
});

describe('the plan check of the destinations a step names', () => {
  const rules = { protectedPaths: [], allowedCommands: [], maxIterations: 5 };

  it('warns of one allowed-domains does not allow, saying what to add, and of a metadata address', () => {
    const findings = checkPlan(planNaming(['npm'], ['10.0.0.9:80', '169.254.169.254', 'not a host']), {
      ...rules,
      allowedNetwork: allowed('npm'),
    });
    expect(findings).toEqual([
      { kind: 'network-not-allowed', severity: 'warning', step: 2, destination: '10.0.0.9:80', why: 'not-allowed' },
      {
        kind: 'network-not-allowed',
        severity: 'warning',
        step: 2,
        destination: '169.254.169.254',
        why: 'always-closed',
      },
      { kind: 'network-not-allowed', severity: 'warning', step: 2, destination: 'not a host', why: 'malformed' },
    ]);
    expect(describeFinding(findings[0]!)).toBe(
      "step 2: the network destination `10.0.0.9:80` is not in `allowed-domains`, so it is left out of the approved scope and commands cannot reach it; to allow it, add `10.0.0.9:80` to the workflow's `allowed-domains` and ask for the plan again",
    );
    expect(settingsBehind(findings)).toEqual(['allowed-domains']);
  });

  it('judges nothing where the network is open', () => {
    expect(checkPlan(planNaming(['10.0.0.9:80']), rules)).toEqual([]);
  });
});

describe('widening the network by amendment', () => {
  const ceiling = allowed('npm', '10.0.0.2:8080', '10.0.0.3:8080');
  const approved = derive(planNaming(['10.0.0.2:8080']), ceiling);

  it('asks for the destinations a revision names beyond the scope that allowed-domains allows, and no others', () => {
    const revised = planNaming(['10.0.0.2:8080'], ['10.0.0.3:8080', 'evil.test', '169.254.169.254']);
    const delta = scopeDelta(approved, revised, [], ceiling);
    expect(delta).toEqual({ network: ['10.0.0.3:8080'] });
    const wider: ApprovedScope = widenScope(approved, delta);
    expect(wider.network).toEqual(['10.0.0.2:8080', '10.0.0.3:8080']);
    expect(isEmptyDelta(scopeDelta(wider, revised, [], ceiling))).toBe(true);
  });

  it('asks for nothing when the revision stays inside, or the network is open', () => {
    expect(isEmptyDelta(scopeDelta(approved, planNaming(['10.0.0.2:8080'], []), [], ceiling))).toBe(true);
    expect(isEmptyDelta(scopeDelta(approved, planNaming(['10.0.0.3:8080']), []))).toBe(true);
    const open = derive(planNaming(['10.0.0.2:8080']));
    expect(isEmptyDelta(scopeDelta(open, planNaming(['10.0.0.3:8080']), [], ceiling))).toBe(true);
  });
});

describe('the network a sandbox is limited to', () => {
  it('is what both the approval and the workflow allow now', () => {
    const now = allowed('*.example.com', '10.0.0.2:8080');
    expect(narrowDestinations(now, scopeDestinations(['a.example.com', '10.0.0.2:8080', '10.0.0.3:8080']))).toEqual([
      { host: 'a.example.com' },
      { host: '10.0.0.2', port: 8080 },
    ]);
  });
});

describe('allowed-domains as the agents are told it', () => {
  it('names a bundle by its name', () => {
    expect(allowedEntries(allowed('npm', '10.0.0.2:8080', 'registry.npmjs.org'))).toEqual(['npm', '10.0.0.2:8080']);
  });
});

describe('the words for a refused destination', () => {
  const allowance = { allowed: allowed('10.0.0.2:8080', '10.0.0.3:8080'), approved: ['10.0.0.2:8080'] };

  it('tell how to ask for one allowed-domains allows, and that one it does not takes the workflow', () => {
    const text = refusedText(
      [
        { destination: '10.0.0.3:8080', by: 'proxy', attempts: 1, reason: 'not allowed for this run' },
        { destination: '10.0.0.9:9000 (tcp)', by: 'firewall', attempts: 2 },
        { destination: '10.0.0.2:8080 (tcp)', by: 'firewall', attempts: 1 },
      ],
      allowance,
    );
    expect(text).toContain('- `10.0.0.3:8080`: `allowed-domains` allows it, but the approved plan does not name it.');
    expect(text).toContain("a revised plan names it in a step's `network`, and that stops the run for an amendment");
    expect(text).toContain('- `10.0.0.9:9000`: not in `allowed-domains`, so no plan or amendment can open it.');
    expect(text).toContain('- `10.0.0.2:8080`: allowed for this run, but only through the proxy in HTTP_PROXY');
  });

  it('report packets whose destination the rules could not record, without advice that would name them', () => {
    const text = refusedText([{ destination: unrecordedDestinations, by: 'firewall', attempts: 2 }], allowance);
    expect(text).toContain(
      `The sealed network refused one destination:\n- ${unrecordedDestinations}: 2 packets refused`,
    );
    expect(text).not.toContain(`\`${unrecordedDestinations}\``);
  });
});
