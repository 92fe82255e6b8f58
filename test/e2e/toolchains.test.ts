import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { uniqueName } from '../helpers/unique-names.js';
import { toolCall } from '../fakes/scripted-model.js';
import { closeOpenWorlds, createWorld, workerCommandUser, type World } from './harness.js';
import { commentEvent, toolResults } from './thread-helpers.js';
import { accountFor, REQUIRE_ACCOUNTS_ENV, rootAndSudoRunners } from './runner-accounts.js';

/**
 * Toolchains where setup actions put them: under the runner user's home, which only that user may
 * enter (0700). With default inputs, as root and as a non-root account with passwordless sudo, a
 * command whose program is in such a folder on the PATH runs in the sandbox; afterwards the folder
 * is exactly as closed as before, with no ACL entry left for the command account. Where the entry
 * cannot be made, the command is refused with the cause and the fix, not a bare "not found".
 */

const homes: string[] = [];
afterEach(async () => {
  await closeOpenWorlds();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const runners = rootAndSudoRunners;

/** Without the acl package there is nothing to let the account through with: CI installs it, so it never skips. */
const noSetfacl =
  process.env[REQUIRE_ACCOUNTS_ENV] !== '1' && spawnSync('setfacl', ['--version'], { stdio: 'ignore' }).status !== 0;

/**
 * A home only its owner (the runner's user) may enter, with a toolchain's bin folder inside: beside
 * the world's folder (which holds the workspace), or `inside` it.
 */
function toolchainHome(w: World, extra: Record<string, string> = {}, inside = false): { home: string; bin: string } {
  const home = inside ? path.join(w.dir, 'runner-home') : mkdtempSync(path.join(os.tmpdir(), uniqueName('pg-home')));
  homes.push(home);
  const bin = path.join(home, 'toolcache', 'greeter', '1.0.0', 'bin');
  mkdirSync(bin, { recursive: true, mode: 0o755 });
  // 6*7 computed, so no file holds the words the tool prints.
  const programs = { 'greet-tool': '#!/bin/sh\necho "TOOLCHAIN-$((6*7)) ran as $(id -u)"\n', ...extra };
  for (const [name, text] of Object.entries(programs)) writeFileSync(path.join(bin, name), text, { mode: 0o755 });
  const owner = w.runAs ?? { uid: 0, gid: 0 };
  execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, home]);
  execFileSync('chmod', ['0700', home]);
  return { home, bin };
}

/** The uid of the account commands run as in this worker's action runs. */
function sandboxUid(): number {
  return Number(execFileSync('id', ['-u', workerCommandUser()], { encoding: 'utf8' }).trim());
}

/** The named-user ACL entries on `folder` (numeric), e.g. `user:991:--x`. */
function namedEntries(folder: string): string[] {
  const acl = execFileSync('getfacl', ['-p', '-n', '--omit-header', folder], { encoding: 'utf8' });
  return acl.split('\n').filter((line) => /^user:\d+:/.test(line));
}

const plan = { steps: [{ title: 'Greet', files: ['NOTES.md'], verify: 'greet-tool' }] };

async function runGreet(w: World, bin: string): Promise<string> {
  w.gh.setPermission('mona', 'maintain');
  const issue = w.gh.addIssue({ title: 'Greet', body: 'Run the greeter.', login: 'outsider' }).number;
  const env = { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` };
  const inputs = { 'allowed-commands': 'greet-tool' };
  for (const body of ['/plan greet', '/approve']) {
    w.freshCheckout();
    const run = await w.runAction(commentEvent(w, issue, 'mona', body), inputs, env);
    expect(run.outputs.outcome, run.stdout + run.stderr).toBe(body === '/plan greet' ? 'planned' : 'done');
  }
  return toolResults(w, 'executor')[0] ?? '';
}

function scripted() {
  return {
    planner: [
      toolCall('update_context', { plan, directive: 'Run greet-tool, then write NOTES.md.' }),
      toolCall('update_context', { summary: 'Greeted.' }),
    ],
    executor: [
      toolCall('run_command', { command: 'greet-tool' }),
      toolCall('write_file', { path: 'NOTES.md', content: 'notes\n' }),
      toolCall('update_context', { result: 'Greeted.', outcome: 'done' }),
    ],
  };
}

for (const runner of runners) {
  const { runAs, skip } = accountFor(runner.kind);
  describe.skipIf(skip !== undefined)(
    `toolchains under a closed home ${runner.title}${skip ? ` (skipped: ${skip})` : ''}`,
    () => {
      it.skipIf(noSetfacl)(
        'runs a program from a PATH folder under a 0700 home, and leaves the home as closed as it was',
        async () => {
          const w = await createWorld(scripted(), undefined, { runAs });
          const { home, bin } = toolchainHome(w);
          const greeted = await runGreet(w, bin);
          expect(greeted).toContain('exit code: 0');
          expect(greeted).toContain(`TOOLCHAIN-42 ran as ${sandboxUid()}`);
          // Nothing stays open: no entry for the command account, on the home or anywhere on the way.
          expect(statSync(home).mode & 0o777).toBe(0o700);
          for (let folder = bin; folder !== '/'; folder = path.dirname(folder))
            expect(namedEntries(folder), folder).toEqual([]);
        },
      );

      it('refuses, with the cause and the fix, a program the command account cannot be let through to', async () => {
        const w = await createWorld(scripted(), undefined, { runAs });
        // A file system without ACLs: setfacl fails as it would there.
        const { bin } = toolchainHome(w, {
          setfacl: '#!/bin/sh\necho "setfacl: $2: Operation not supported" >&2\nexit 1\n',
        });
        const greeted = await runGreet(w, bin);
        expect(greeted).not.toContain('TOOLCHAIN-42');
        expect(greeted).toContain(`greet-tool is in ${bin}, which the command account`);
        expect(greeted).toContain('Operation not supported');
        expect(greeted).toContain('the acl package, so plangate can let the account through');
      });

      it.skipIf(noSetfacl)(
        'never opens a folder above the workspace, even for a toolchain inside it, and says why',
        async () => {
          const w = await createWorld(scripted(), undefined, { runAs });
          // The runner's own folder holds the checkout (as _work holds it on a self-hosted runner) and the toolchain.
          const { bin } = toolchainHome(w, {}, true);
          const greeted = await runGreet(w, bin);
          expect(greeted).not.toContain('TOOLCHAIN-42');
          expect(greeted).toContain(`greet-tool is in ${bin}, which the command account`);
          expect(greeted).toContain(`passage through ${w.dir} would let it reach ${w.workspace}`);
          expect(namedEntries(w.dir)).toEqual([]);
        },
      );
    },
  );
}
