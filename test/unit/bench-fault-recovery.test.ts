import { describe, expect, it } from 'vitest';
import { measureRecovery, recoverySection } from '../../bench/fault-recovery.js';

/** The benchmark's recovery figure: the real client and policy, waits on a virtual clock. */

describe('time to recover from transient failures', () => {
  it('counts the backoff the policy chose for plain 503s', async () => {
    const figure = await measureRecovery(3, 'backoff');
    expect(figure).toMatchObject({ failures: 3, recovered: true, requests: 4 });
    // Jitter at its midpoint: three quarters of 1, 2 and 4 s.
    expect(figure.waitedMs).toBe(750 + 1500 + 3000);
    expect(figure.overheadMs).toBeGreaterThan(0);
  });

  it('waits what retry-after asks', async () => {
    const figure = await measureRecovery(3, 'retry-after');
    expect(figure).toMatchObject({ recovered: true, requests: 4, waitedMs: 3000 });
  });

  it('renders a table, and nothing for results from before the figure', async () => {
    const section = recoverySection([await measureRecovery(1, 'backoff')]);
    expect(section).toContain('| 1 | 503, no header (backoff) | yes | 2 | 750 ms |');
    expect(recoverySection(undefined)).toBe('');
  });
});
