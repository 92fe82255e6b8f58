import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { toolCall, type Reply } from '../fakes/scripted-model.js';
import { closeOpenWorlds, createWorld, git, type World } from './harness.js';
import { commentEvent as comment } from './thread-helpers.js';
import { RUNNER_ACCOUNT_NAMES, runnerAccount, type RunnerAccount, type RunnerAccountKind } from './runner-accounts.js';

/**
 * The harness runs the bundled action as the accounts real runners use: the test process itself
 * (root here), a non-root account with passwordless sudo (GitHub-hosted runners' `runner`) and a
 * non-root account without sudo (a self-hosted runner), each in a world folder only that account can
 * enter. The same /plan → /approve scenario must end the same way under each, and the action must
 * really have run as that account. No run_command here: how commands are run is another concern.
 */

afterEach(closeOpenWorlds);

/** Real and effective uid and gid of a running process, from /proc. */
function processIds(pid: number | undefined): { uid: number[]; gid: number[] } {
  if (pid === undefined) throw new Error('no action is running');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const ids = (key: string) => (new RegExp(`^${key}:\\s+(.*)$`, 'm').exec(status)?.[1] ?? '').split(/\s+/).map(Number);
  return { uid: ids('Uid').slice(0, 2), gid: ids('Gid').slice(0, 2) };
}

/** Replies with `reply` after noting which uid/gid the action that asked (the world's latest) runs with. */
function noting(seen: { uid: number[]; gid: number[] }[], world: () => World, reply: Reply): Reply {
  return () => {
    seen.push(processIds(world().actionPid));
    return reply;
  };
}

const ways: { title: string; kind?: RunnerAccountKind }[] = [
  { title: 'as the test process (root in CI)' },
  { title: `as ${RUNNER_ACCOUNT_NAMES.sudo}, a non-root account with passwordless sudo`, kind: 'sudo' },
  { title: `as ${RUNNER_ACCOUNT_NAMES.nosudo}, a non-root account without sudo`, kind: 'nosudo' },
];

describe('the action runs as the runner account', () => {
  for (const way of ways) {
    it(`plans, executes and pushes ${way.title}`, async (ctx) => {
      let runAs: RunnerAccount | undefined;
      if (way.kind) {
        const prepared = runnerAccount(way.kind);
        if (prepared.skip !== undefined) ctx.skip(prepared.skip);
        runAs = prepared.account;
      }
      const expected = runAs
        ? { uid: runAs.uid, gid: runAs.gid }
        : { uid: process.getuid?.(), gid: process.getgid?.() };

      const seen: { uid: number[]; gid: number[] }[] = [];
      const world = await createWorld(
        {
          planner: [
            noting(
              seen,
              () => world,
              toolCall('update_context', {
                plan: { steps: [{ title: 'Add notes', files: ['NOTES.md'] }] },
                directive: 'Write NOTES.md saying hello.',
              }),
            ),
            toolCall('update_context', { summary: 'Wrote NOTES.md.' }),
          ],
          executor: [
            noting(seen, () => world, toolCall('write_file', { path: 'NOTES.md', content: 'hello\n' })),
            toolCall('update_context', { result: 'Wrote NOTES.md.', outcome: 'done' }),
          ],
        },
        undefined,
        { runAs },
      );
      expect(world.runAs).toBe(runAs);
      // Only the account can enter its world.
      const folder = statSync(world.dir);
      expect(folder.mode & 0o777).toBe(0o700);
      if (runAs) expect({ uid: folder.uid, gid: folder.gid }).toEqual({ uid: runAs.uid, gid: runAs.gid });

      world.gh.setPermission('mona', 'write');
      const issue = world.gh.addIssue({ title: 'Say hello', login: 'mona' }).number;
      const planned = await world.runAction(comment(world, issue, 'mona', '/plan Write notes'));
      expect(planned.code, planned.stdout + planned.stderr).toBe(0);
      expect(planned.outputs.outcome).toBe('planned');
      const planId = planned.outputs['plan-id'] ?? '';

      world.freshCheckout();
      // An earlier step's exports are where the runner keeps them, beside the output file.
      const approved = await world.runAction(
        comment(world, issue, 'mona', `/approve ${planId}`),
        {},
        {},
        { runnerFiles: { env: 'EARLIER_STEP=1\n', state: 'saved=1\n' } },
      );
      expect(approved.code, approved.stdout + approved.stderr).toBe(0);
      expect(approved.outputs.outcome).toBe('done');
      expect(path.dirname(approved.paths.envPath)).toBe(approved.paths.runDir);
      expect(readFileSync(approved.paths.envPath, 'utf8')).toMatch(/^EARLIER_STEP=1\n/);
      expect(readFileSync(approved.paths.statePath, 'utf8')).toMatch(/^saved=1\n/);

      const branch = `refs/heads/plangate/${issue}-${planId}`;
      expect(git(world.origin, 'show', `${branch}:NOTES.md`)).toBe('hello');

      // Both runs' action processes (planning, then executing) ran as the account, real and effective ids.
      expect(seen).toEqual([
        { uid: [expected.uid, expected.uid], gid: [expected.gid, expected.gid] },
        { uid: [expected.uid, expected.uid], gid: [expected.gid, expected.gid] },
      ]);
      expect(world.model.remaining()).toEqual({ planner: 0, executor: 0 });
    });
  }
});
