import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { defaultPrograms } from '../../src/repo/programs.js';
import { findNft, installNetworkRules } from '../../src/tools/network-rules.js';

const h = { sudo: 'sudo', programs: defaultPrograms() };
const canInstall = process.getuid?.() === 0 && findNft(h) !== undefined;

describe.runIf(canInstall)('network rules', () => {
  it('refuses what the account sends beyond loopback, counts it, and is gone once closed', async () => {
    const rules = await installNetworkRules({ uid: 65534, how: 'root', helpers: h });
    const probe = `
      const net = require('node:net');
      const s = net.connect(80, '10.9.8.7');
      s.on('error', (e) => { console.log(e.code); process.exit(0); });
      s.on('connect', () => { console.log('connected'); process.exit(0); });`;
    const out = execFileSync('setpriv', [
      '--reuid',
      '65534',
      '--regid',
      '65534',
      '--clear-groups',
      process.execPath,
      '-e',
      probe,
    ]).toString();
    expect(out.trim()).toBe('ECONNREFUSED');
    const refused = await rules.blocked();
    expect(refused.destinations).toContainEqual({ address: '10.9.8.7', protocol: 'tcp', port: 80, packets: 1 });
    expect(refused.packets).toBe(refused.destinations.reduce((sum, b) => sum + b.packets, 0));
    await rules.close();
    expect(execFileSync(findNft(h)!, ['list', 'tables']).toString()).not.toContain(rules.table);
  });
});
