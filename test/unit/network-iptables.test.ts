import { describe, expect, it } from 'vitest';
import { holderConfig, iptablesNames, restoreInput } from '../../src/sandbox/network/network-iptables.js';
import { keepHighest, parseHashlimit, parseRuleCounter } from '../../src/sandbox/network/network-iptables-counts.js';
import { listedChains } from '../../src/sandbox/network/network-leftovers.js';
import type { BlockedDestination } from '../../src/sandbox/network/network-rules-types.js';

const names = iptablesNames(4194303, 9876543210);
const programs = {
  iptables: '/usr/sbin/iptables',
  ip6tables: '/usr/sbin/ip6tables',
  iptablesRestore: '/usr/sbin/iptables-restore',
  ip6tablesRestore: '/usr/sbin/ip6tables-restore',
};
const options = { uid: 1001, ownUid: 1000, proxyPort: 41234 };

describe('the iptables rules', () => {
  it('are named for the action, within the kernel’s limits (28 characters a chain, 15 a hashlimit table)', () => {
    expect(names.main).toBe('plangate-4194303-9876543210');
    expect(names.refuse).toBe('plangate-4194303-9876543210r');
    expect(names.refuse.length).toBeLessThanOrEqual(28);
    for (const protocol of ['tcp', 'udp', 'icmp', 'other'] as const)
      for (const family of [4, 6] as const) expect(names.table(protocol, family).length).toBeLessThanOrEqual(15);
    expect(new Set([names.table('tcp', 4), names.table('udp', 4), names.table('tcp', 6)]).size).toBe(3);
  });

  it('leave the action alone, keep other accounts off the proxy, and hold the sandbox account to loopback without DNS', () => {
    const lines = restoreInput(4, names, options).split('\n');
    const main = lines.filter((l) => l.startsWith(`-A ${names.main} `));
    expect(main).toEqual([
      `-A ${names.main} -m owner --uid-owner 1000 -j RETURN`,
      `-A ${names.main} -d 127.0.0.0/8 -p tcp --dport 41234 -m owner ! --uid-owner 1001 -j REJECT --reject-with tcp-reset`,
      `-A ${names.main} -m owner ! --uid-owner 1001 -j RETURN`,
      `-A ${names.main} -p tcp --dport 53 -j ${names.refuse}`,
      `-A ${names.main} -p udp --dport 53 -j ${names.refuse}`,
      `-A ${names.main} -d 127.0.0.0/8 -j ACCEPT`,
      `-A ${names.main} -j ${names.refuse}`,
    ]);
    expect(lines[0]).toBe('*filter');
    expect(lines).toContain(`-I OUTPUT 1 -j ${names.main}`);
    expect(lines.at(-2)).toBe('COMMIT');
  });

  it('count every refused packet first, record each destination by protocol, and refuse it', () => {
    const refuse = restoreInput(6, names, options)
      .split('\n')
      .filter((l) => l.startsWith(`-A ${names.refuse}`));
    expect(refuse[0]).toBe(`-A ${names.refuse}`);
    expect(refuse[1]).toContain(
      `-p tcp -m hashlimit --hashlimit-upto 4/hour --hashlimit-burst 96 --hashlimit-mode dstip,dstport --hashlimit-name ${names.table('tcp', 6)}`,
    );
    expect(refuse).toContain(`-A ${names.refuse} -p tcp -j REJECT --reject-with tcp-reset`);
    expect(refuse).toContain(`-A ${names.refuse} -p udp -j REJECT --reject-with icmp6-port-unreachable`);
    expect(refuse.find((l) => l.includes(names.table('icmp', 6)))).toContain('-p ipv6-icmp');
    expect(refuse.find((l) => l.includes(names.table('other', 6)))).toContain('--hashlimit-mode dstip ');
    expect(refuse.at(-1)).toBe(`-A ${names.refuse} -j DROP`);
    // IPv6 loopback, and no proxy rule: the proxy listens on 127.0.0.1 only.
    const v6 = restoreInput(6, names, options);
    expect(v6).toContain(`-A ${names.main} -d ::1/128 -j ACCEPT`);
    expect(v6).not.toContain('41234');
  });

  it('are held by a process given every program by absolute path', () => {
    const config = holderConfig(programs, names, options, '/usr/sbin:/usr/bin');
    expect(config.install.map((i) => i.command)).toEqual([
      ['/usr/sbin/iptables-restore', '-w', '--noflush'],
      ['/usr/sbin/ip6tables-restore', '-w', '--noflush'],
    ]);
    for (const argv of [...config.remove, ...config.check, ...config.read.commands]) expect(argv[0]).toMatch(/^\//);
    expect(config.remove).toContainEqual(['/usr/sbin/ip6tables', '-w', '-D', 'OUTPUT', '-j', names.main]);
    expect(config.check).toContainEqual(['/usr/sbin/iptables', '-w', '-C', 'OUTPUT', '-j', names.main]);
    expect(config.read.files).toContain(`/proc/net/ip6t_hashlimit/${names.table('udp', 6)}`);
  });
});

describe('what the iptables rules counted', () => {
  // From the kernel: one packet to each, read at once; the IPv6 one written out in full.
  const tcp4 =
    '604799 0.0.0.0:0->10.9.8.7:80 11751031031255813888 11874725539200000000 123695057700000000\n' +
    '604790 0.0.0.0:0->10.9.8.8:443 11627335973555813888 11874725539200000000 123695057700000000\n';
  const tcp6 =
    '604799 0000:0000:0000:0000:0000:0000:0000:0000:0->fd00:0009:0000:0000:0000:0000:0000:0007:9000 11751031031255813888 11874725539200000000 123695057700000000\n';

  it('reads each destination of a hashlimit table with the packets its credit paid for', () => {
    expect(parseHashlimit(tcp4, 'tcp', true)).toEqual([
      { address: '10.9.8.7', protocol: 'tcp', port: 80, packets: 1 },
      { address: '10.9.8.8', protocol: 'tcp', port: 443, packets: 2 },
    ]);
    expect(parseHashlimit(tcp6, 'tcp', true)).toEqual([
      { address: 'fd00:9::7', protocol: 'tcp', port: 9000, packets: 1 },
    ]);
    expect(
      parseHashlimit(
        '604799 0.0.0.0:0->10.1.1.1:0 11751031031255813888 11874725539200000000 123695057700000000',
        'icmp',
        false,
      ),
    ).toEqual([{ address: '10.1.1.1', protocol: 'icmp', packets: 1 }]);
  });

  it('counts a packet whose credit time gave back as one, and skips what is not an entry', () => {
    const refilled = '600000 0.0.0.0:0->10.9.8.7:80 11874725539200000000 11874725539200000000 123695057700000000';
    expect(parseHashlimit(refilled, 'tcp', true)).toEqual([
      { address: '10.9.8.7', protocol: 'tcp', port: 80, packets: 1 },
    ]);
    expect(parseHashlimit('garbage\n\n1 2 3', 'tcp', true)).toEqual([]);
  });

  it('reads the refuse chain’s own counter', () => {
    expect(parseRuleCounter(`-A ${names.refuse} -c 17 1020\n`)).toBe(17);
    expect(parseRuleCounter('# Warning: iptables-legacy tables present\n')).toBeUndefined();
  });

  it('never lets a count go down when time gives credit back', () => {
    const seen = new Map<string, BlockedDestination>();
    const d = (packets: number): BlockedDestination => ({ address: '10.9.8.7', protocol: 'tcp', port: 80, packets });
    expect(keepHighest(seen, [d(3)])).toEqual([d(3)]);
    expect(keepHighest(seen, [d(1)])).toEqual([d(3)]);
    expect(keepHighest(seen, [d(5)])).toEqual([d(5)]);
  });
});

describe('iptables chains a killed job left', () => {
  it('are found by their names, with the rules of OUTPUT that jump to them', () => {
    const listing = [
      '-P OUTPUT ACCEPT',
      '-N plangate-123-456',
      '-N plangate-123-456r',
      '-N other-chain',
      '-A OUTPUT -j plangate-123-456',
      '-A OUTPUT -m owner --uid-owner 7 -j plangate-123-456',
      '-A OUTPUT -j other-chain',
      '-A plangate-123-456 -j plangate-123-456r',
    ].join('\n');
    expect(listedChains(listing)).toEqual([
      {
        chain: 'plangate-123-456',
        pid: 123,
        start: 456,
        jumps: [
          ['-D', 'OUTPUT', '-j', 'plangate-123-456'],
          ['-D', 'OUTPUT', '-m', 'owner', '--uid-owner', '7', '-j', 'plangate-123-456'],
        ],
      },
    ]);
  });
});
