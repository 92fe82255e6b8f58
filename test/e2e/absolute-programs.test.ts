import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { toolCall } from '../fakes/scripted-model.js';
import { apiKey, closeOpenWorlds, createWorld, git, token, type ActionRun, type World } from './harness.js';
import { commentEvent, everythingSeen, toolResults } from './thread-helpers.js';
import { accountFor, rootAndSudoRunners } from './runner-accounts.js';

/**
 * Programs by absolute path only, attacked as an exploit would: the runner's PATH has a relative
 * entry (`bin`, as `$GITHUB_PATH` can add one), an empty one and `.`, all of which name the folder a
 * program starts in. The repository commits, at its root, a program named after each one the host
 * starts (git, sudo, setpriv, env, rm...) and the commands run (node), and the executor's command
 * writes more into the work tree's `bin`. Each planted program, wherever it runs, leaves a marker
 * with the environment of the process that started it in a folder only the action's account may
 * write, says "PLANTED-" and 6*7, and then runs the real program, as a quiet attacker's would. With
 * default inputs, as root and as a non-root account with passwordless sudo: no marker, no word of
 * it anywhere, and the run does its work.
 */

afterEach(closeOpenWorlds);

/** The executable `name` in the absolute entries of `pathList`, or undefined. */
function lookUp(name: string, pathList: string): string | undefined {
  for (const dir of pathList.split(':').filter((entry) => path.isAbsolute(entry))) {
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return path.join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}

const systemPath = `${process.env.PATH ?? ''}:/usr/sbin:/sbin`;
/** The real programs a planted one uses itself, by absolute path: by name it could run a planted one. */
const real = { cat: lookUp('cat', systemPath) ?? '/bin/cat', id: lookUp('id', systemPath) ?? '/usr/bin/id' };

/** What the host and the commands start by name; only those this machine has are planted. */
const plantedNames = [
  'git',
  'sudo',
  'setpriv',
  'env',
  'rm',
  'cp',
  'chown',
  'chmod',
  'chgrp',
  'getent',
  'id',
  'find',
  'useradd',
  'sh',
  'node',
].flatMap((name) => {
  const file = lookUp(name, systemPath);
  return file === undefined ? [] : [{ name, real: file }];
});

const planted = 'PLANTED-42';

/**
 * The program planted as `name`: leaves a marker (named for where it came from) with its starter's
 * environment, where only the action's account may write, says so (6*7 computed, so no file holds
 * the words it prints) and runs the real program.
 */
function plantedProgram(markers: string, origin: string, name: string, program: string): string {
  return [
    '#!/bin/sh',
    `${real.cat} /proc/$PPID/environ > ${markers}/${origin}-${name}-$$ 2>/dev/null || ${real.id} -u > ${markers}/${origin}-${name}-$$ 2>/dev/null`,
    `echo "PLANTED-$((6*7)) ${origin} ${name} as $(${real.id} -u)" >&2`,
    `exec ${program} "$@"`,
    '',
  ].join('\n');
}

/** The executor's command: writes a planted program for each name into the work tree's `bin`. */
function plantScript(markers: string): string {
  const programs = plantedNames.map(({ name, real: file }) => [name, plantedProgram(markers, 'written', name, file)]);
  return [
    "import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';",
    "mkdirSync('bin', { recursive: true });",
    `for (const [name, text] of ${JSON.stringify(programs)}) writeFileSync('bin/' + name, text, { mode: 0o755 });`,
    "chmodSync('bin', 0o755);",
    "console.log('PLANT wrote bin/' + " + JSON.stringify(plantedNames.map(({ name }) => name).join(', bin/')) + ');',
    '',
  ].join('\n');
}

/** A folder only the action's account may write: a marker in it means a planted program ran as the action. */
function markerFolder(w: World): string {
  const markers = path.join(w.dir, 'markers');
  mkdirSync(markers, { mode: 0o700 });
  if (w.runAs) execFileSync('chown', [`${w.runAs.uid}:${w.runAs.gid}`, markers]);
  return markers;
}

const runners = rootAndSudoRunners;

const plan = { steps: [{ title: 'Set up and write notes', files: ['NOTES.md'], verify: 'node scripts/plant.mjs' }] };

for (const runner of runners) {
  const { runAs, skip } = accountFor(runner.kind);
  describe.skipIf(skip !== undefined)(
    `programs by absolute path ${runner.title}${skip ? ` (skipped: ${skip})` : ''}`,
    () => {
      it('never runs a program named git, sudo, setpriv, env or node that the repository commits or a command writes, with empty and relative PATH entries', async () => {
        const w = await createWorld(
          {
            planner: [
              toolCall('update_context', { plan, directive: 'Run the setup script, then write NOTES.md.' }),
              // The planner's read tools run the host's git in the work tree; so does the summary's search.
              toolCall('search', { pattern: 'greet' }),
              toolCall('update_context', { summary: 'Set up and wrote notes.' }),
            ],
            executor: [
              toolCall('run_command', { command: 'node scripts/plant.mjs' }),
              // After the command: the host's git in a work tree holding bin/git too.
              toolCall('list_files', {}),
              toolCall('search', { pattern: 'greet' }),
              toolCall('write_file', { path: 'NOTES.md', content: 'notes\n' }),
              toolCall('update_context', { result: 'Set up and wrote notes.', outcome: 'done' }),
            ],
          },
          undefined,
          { runAs },
        );
        const markers = markerFolder(w);
        const committed = Object.fromEntries(
          plantedNames.map(({ name, real: file }) => [name, plantedProgram(markers, 'committed', name, file)]),
        );
        w.pushToOrigin(
          'main',
          { ...committed, '.gitignore': 'bin/\n', 'scripts/plant.mjs': plantScript(markers) },
          'Add the setup script',
          Object.keys(committed),
        );
        w.freshCheckout();
        w.gh.setPermission('mona', 'maintain');
        const issue = w.gh.addIssue({ title: 'Set up', body: 'Run the setup script.', login: 'outsider' }).number;
        // `bin` first (relative: the work tree's, once the command wrote it), then empty, then `.`.
        const env = { PATH: `bin::.:${process.env.PATH ?? '/usr/bin:/bin'}` };
        const inputs = { 'allowed-commands': 'node scripts/plant.mjs' };
        const runs: ActionRun[] = [];
        for (const body of ['/plan set up', '/approve']) {
          w.freshCheckout();
          runs.push(await w.runAction(commentEvent(w, issue, 'mona', body), inputs, env));
        }
        const [planned, approved] = runs as [ActionRun, ActionRun];
        expect(planned.outputs.outcome, planned.stdout).toBe('planned');
        expect(approved.outputs.outcome, approved.stdout).toBe('done');
        const [plant = ''] = toolResults(w, 'executor');
        // The command ran, with the real node, and wrote its programs where the relative entry points.
        expect(plant).toContain('exit code: 0');
        expect(plant).toContain('PLANT wrote bin/git, bin/sudo, bin/setpriv, bin/env');
        expect(readdirSync(markers), 'a planted program ran as the action').toEqual([]);
        const seen = [everythingSeen(w, runs), git(w.origin, 'log', '--all', '-p', '--format=%H%n%B')].join('\n');
        for (const [label, value] of Object.entries({
          'a planted program’s words': planted,
          token,
          'api key': apiKey,
        })) {
          const at = seen.indexOf(value);
          expect(at, `${label} reached this: ${seen.slice(Math.max(0, at - 300), at)}<HERE>`).toBe(-1);
        }
        // The work went on: the executor's file is on the branch, and a pull request was opened.
        expect(git(w.origin, 'show', `refs/heads/${approved.outputs.branch}:NOTES.md`)).toBe('notes');
        expect(approved.outputs['pr-number']).toMatch(/^\d+$/);
        // The planted programs do work when something runs them: started as the host would, one leaves its marker.
        execFileSync(path.join(w.workspace, 'git'), ['--version'], { stdio: 'ignore' });
        expect(readdirSync(markers)).toEqual([expect.stringMatching(/^committed-git-\d+$/)]);
      });
    },
  );
}
