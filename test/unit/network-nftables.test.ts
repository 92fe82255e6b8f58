import { describe, expect, it } from 'vitest';
import { parseBlocked, parseRefusedPackets, ruleset } from '../../src/sandbox/network/network-nftables.js';

/** `nft -j list sets inet` as nft 1.0 prints it: this action's table's sets, and another job's. */
const listing = JSON.stringify({
  nftables: [
    { metainfo: { version: '1.0.6', json_schema_version: 1 } },
    {
      set: {
        family: 'inet',
        name: 'ports4',
        table: 'plangate_42',
        elem: [
          { elem: { val: { concat: ['10.9.8.7', 'tcp', 80] }, counter: { packets: 2, bytes: 120 } } },
          { elem: { val: { concat: ['10.9.8.7', 'udp', 53] }, counter: { packets: 1, bytes: 60 } } },
        ],
      },
    },
    {
      set: {
        family: 'inet',
        name: 'other6',
        table: 'plangate_42',
        elem: [{ elem: { val: { concat: ['fd00::7', 'ipv6-icmp'] }, counter: { packets: 3, bytes: 300 } } }],
      },
    },
    {
      set: {
        family: 'inet',
        name: 'refused',
        table: 'plangate_42',
        elem: [
          { elem: { val: 'tcp', counter: { packets: 2, bytes: 120 } } },
          { elem: { val: 'udp', counter: { packets: 1, bytes: 60 } } },
          { elem: { val: 'ipv6-icmp', counter: { packets: 4, bytes: 400 } } },
        ],
      },
    },
    {
      set: {
        family: 'inet',
        name: 'ports4',
        table: 'plangate_77',
        elem: [{ elem: { val: { concat: ['10.1.1.1', 'tcp', 443] }, counter: { packets: 9, bytes: 540 } } }],
      },
    },
  ],
});

describe('what the nftables rules counted', () => {
  it('reads this table’s refused destinations from the sets, never another table’s', () => {
    expect(parseBlocked(listing, 'plangate_42')).toEqual([
      { address: '10.9.8.7', protocol: 'tcp', port: 80, packets: 2 },
      { address: '10.9.8.7', protocol: 'udp', port: 53, packets: 1 },
      { address: 'fd00::7', protocol: 'ipv6-icmp', packets: 3 },
    ]);
  });

  it('counts every refused packet, by protocol, recorded with its destination or not', () => {
    expect(parseRefusedPackets(listing, 'plangate_42')).toBe(7);
    expect(parseRefusedPackets(listing, 'plangate_1')).toBe(0);
  });

  it('keeps other accounts off the proxy’s port, the sandbox’s and the action’s own excepted', () => {
    expect(ruleset('plangate_42', 1001, 41234, 1000)).toContain(
      'add rule inet plangate_42 output ip daddr 127.0.0.0/8 tcp dport 41234 meta skuid != { 1001, 1000 } reject with tcp reset',
    );
  });
});
