import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  destinationAllowed,
  destinationEntrySchema,
  formatDestination,
  embeddedIPv4,
  isForbiddenAddress,
  networkBundles,
} from '../../src/scope/network-destinations.js';

const parse = (entry: string) => destinationEntrySchema.parse(entry);

describe('allowed-domains entries', () => {
  it('reads host names, wildcards, ports, IP addresses and bundles', () => {
    expect(parse('Example.COM')).toEqual([{ host: 'example.com' }]);
    expect(parse('*.example.com')).toEqual([{ host: '*.example.com' }]);
    expect(parse('example.com:8443')).toEqual([{ host: 'example.com', port: 8443 }]);
    expect(parse('10.0.0.5')).toEqual([{ host: '10.0.0.5' }]);
    expect(parse('[fd00::5]:80')).toEqual([{ host: 'fd00::5', port: 80 }]);
    expect(parse('fd00::5')).toEqual([{ host: 'fd00::5' }]);
    expect(parse('npm')).toEqual(networkBundles.npm.map((host) => ({ host })));
  });

  it('refuses what is no destination, saying what an entry may be', () => {
    for (const bad of ['https://example.com', 'exa mple.com', 'example.com:0', 'example.com:70000', '*.', 'a/b'])
      expect(destinationEntrySchema.safeParse(bad).success, bad).toBe(false);
    expect(destinationEntrySchema.safeParse('exa mple.com').error?.issues[0]?.message).toContain('neither a host name');
  });
});

describe('destinationAllowed', () => {
  const list = [...parse('registry.npmjs.org'), ...parse('*.example.com'), ...parse('api.test:8443')];

  it('allows a listed host on any port, a subdomain of a wildcard, and a listed port only', () => {
    expect(destinationAllowed(list, 'registry.npmjs.org', 443)).toBe(true);
    expect(destinationAllowed(list, 'REGISTRY.npmjs.org.', 80)).toBe(true);
    expect(destinationAllowed(list, 'a.b.example.com', 443)).toBe(true);
    expect(destinationAllowed(list, 'api.test', 8443)).toBe(true);
  });

  it('refuses the rest: the wildcard’s own domain, look-alikes, other ports', () => {
    expect(destinationAllowed(list, 'example.com', 443)).toBe(false);
    expect(destinationAllowed(list, 'evilexample.com', 443)).toBe(false);
    expect(destinationAllowed(list, 'registry.npmjs.org.evil.test', 443)).toBe(false);
    expect(destinationAllowed(list, 'api.test', 443)).toBe(false);
    expect(destinationAllowed([], 'registry.npmjs.org', 443)).toBe(false);
  });

  it('spells destinations as people write them', () => {
    expect(formatDestination({ host: 'fd00::5', port: 53 })).toBe('[fd00::5]:53');
    expect(formatDestination({ host: 'example.com' })).toBe('example.com');
  });
});

describe('isForbiddenAddress', () => {
  it('closes link-local and the cloud metadata services whatever the list says', () => {
    for (const ip of [
      '169.254.169.254',
      '169.254.0.1',
      '168.63.129.16',
      '100.100.100.200',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      'FE80::1',
      'fe80::1%eth0',
    ])
      expect(isForbiddenAddress(ip), ip).toBe(true);
    for (const ip of ['10.0.0.5', '127.0.0.1', '8.8.8.8', 'fd00::5', '::1'])
      expect(isForbiddenAddress(ip), ip).toBe(false);
  });

  it('closes NAT64 whole, and holds other IPv6 spellings of an IPv4 address to what they embed', () => {
    for (const ip of [
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::169.254.169.254',
      '64:FF9B::A9FE:A9FE',
      '64:ff9b::a00:5',
      '64:ff9b::',
      '64:ff9b:1::a9fe:a9fe',
      '64:ff9b:1:ffff::1',
      '::169.254.169.254',
      '2002:a9fe:a9fe::1',
    ])
      expect(isForbiddenAddress(ip), ip).toBe(true);
    for (const ip of ['64:ff9b::1:0:0', '64:ff9b:2::1', '2002:a00:5::1', '::a00:5', '64:ff8b::a9fe:a9fe'])
      expect(isForbiddenAddress(ip), ip).toBe(false);
  });

  it('names the IPv4 address an IPv6 address stands for', () => {
    expect(embeddedIPv4('64:ff9b::a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIPv4('::ffff:a00:5')).toBe('10.0.0.5');
    expect(embeddedIPv4('2002:a9fe:a9fe::1')).toBe('169.254.169.254');
    expect(embeddedIPv4('fd00::5')).toBeUndefined();
  });
});

describe('the bundles as docs/configuration.md lists them', () => {
  it('names every bundle with exactly its hosts', () => {
    const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    for (const [name, hosts] of Object.entries(networkBundles)) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
      expect(row, name).toBe(`| \`${name}\` | ${hosts.map((h) => `\`${h}\``).join(', ')} |`);
    }
  });
});
