import { describe, expect, it } from 'vitest';
import { stopGate } from '../../src/entry/stop-gate.js';
import { createGit, type GitExec } from '../../src/repo/git.js';

describe('the stop gate', () => {
  it('allows every write until the stop, then only the stop’s own, however deep in its promises', async () => {
    const gate = stopGate();
    expect(gate.allows()).toBe(true);
    gate.close();
    expect(gate.allows()).toBe(false);
    const seen = await gate.asStop(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      return Promise.resolve().then(() => gate.allows());
    });
    expect(seen).toBe(true);
    // Outside the stop's work, nothing again.
    expect(gate.allows()).toBe(false);
  });

  it('has the host’s git refuse a push to a branch once closed, and still release the execution lock', async () => {
    const gate = stopGate();
    const ran: string[][] = [];
    const exec: GitExec = async (args) => {
      ran.push([...args]);
      return { error: null, stdout: '', stderr: '' };
    };
    const git = createGit('/nowhere', { exec, mayPush: gate.allows });
    const branchPush = [
      'push',
      '--quiet',
      '--force-with-lease=refs/heads/plangate/1-ab:',
      'origin',
      'HEAD:refs/heads/plangate/1-ab',
    ];
    const lockPush = [
      'push',
      '--quiet',
      '--force-with-lease=refs/plangate/locks/1:abc',
      'origin',
      ':refs/plangate/locks/1',
    ];
    await git(branchPush);
    gate.close();
    await expect(git(branchPush)).rejects.toThrow('the job is being stopped');
    await git(lockPush);
    await git(['fetch', 'origin']);
    expect(ran.map((args) => args.join(' '))).toEqual(
      [branchPush, lockPush, ['fetch', 'origin']].map((a) => a.join(' ')),
    );
  });
});
