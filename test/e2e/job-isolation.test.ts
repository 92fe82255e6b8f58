import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { toolCall, type Reply } from '../fakes/scripted-model.js';
import {
  apiKey,
  closeOpenWorlds,
  createWorld,
  git,
  token,
  type ActionRun,
  type StartedAction,
  type World,
} from './harness.js';
import { commentEvent, everythingSeen, toolResults } from './thread-helpers.js';
import { accountFor, rootAndSudoRunners, type RunnerAccount } from './runner-accounts.js';
import { uniqueName } from '../helpers/unique-names.js';

/**
 * What a command finds that its own job did not give it, attacked as an exploit would on a runner
 * that outlives its jobs, with default inputs, as root and as a non-root account with passwordless
 * sudo (each job's commands under the same sandbox account, this worker's):
 *
 * - a descriptor the runner left open, without close-on-exec, on a file only root may read: job 1's
 *   command reads every descriptor it holds;
 * - files job 1's command left in /tmp, /dev/shm and /var/tmp (one in a folder it made read-only),
 *   and job 1 killed outright, so nothing of it cleaned up: job 2, of another repository, reads them
 *   with its command; then job 2's own such files are gone once job 2 has ended.
 *
 * No canary reaches any output, model request, comment or commit, and each job does its work.
 */

afterEach(closeOpenWorlds);

const canaries = {
  'inherited descriptor': 'canary-inherited-descriptor-5e0b1d',
  'left in a temp place': 'canary-left-in-tmp-8c2f7a',
};
const reverse = (text: string) => [...text].reverse().join('');
/** In a script, a canary's source text that holds no canary (the model reads the scripts). */
const hidden = (text: string) => `[...${JSON.stringify(reverse(text))}].reverse().join('')`;

/** Where job 1's command leaves files: the shared temp places, and a read-only folder in /tmp. */
function leftPaths(name: string): string[] {
  return ['/tmp', '/dev/shm', '/var/tmp'].map((place) => path.join(place, name)).concat(`/tmp/${name}.d/kept`);
}

/** A command that reads every descriptor above 2 it holds on a file, and prints what it read. */
const probeScript = [
  "import { readdirSync, readlinkSync, readSync } from 'node:fs';",
  'const seen = [];',
  "for (const fd of readdirSync('/proc/self/fd').map(Number).filter((fd) => fd > 2)) {",
  "  let target = '';",
  "  try { target = readlinkSync('/proc/self/fd/' + fd); } catch { continue; }",
  // Node's own pipes and event descriptors, and the listing's own folder, are no file to read.
  "  if (!target.startsWith('/') || /^\\/(proc|dev)\\//.test(target)) { seen.push(fd + ' ' + target.replace(/\\d+/g, 'N')); continue; }",
  '  const buffer = Buffer.alloc(4096);',
  "  try { seen.push(fd + ' ' + target + ': ' + buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0)).trim()); }",
  "  catch (error) { seen.push(fd + ' ' + target + ': ' + error.code); }",
  '}',
  "console.log('FDS ' + seen.join('; '));",
  '',
].join('\n');

/**
 * A command that leaves the canary in the shared temp places (its folder in /tmp made read-only, so
 * the account itself cannot delete what is in it), tells `stash` its pid, then waits for its job to die.
 */
function leaveScript(name: string, stash: string, linger: boolean): string {
  const [tmp, shm, varTmp, kept] = leftPaths(name) as [string, string, string, string];
  return [
    "import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';",
    `const words = ${hidden(canaries['left in a temp place'])};`,
    `for (const file of ${JSON.stringify([tmp, shm, varTmp])}) writeFileSync(file, words, { mode: 0o644 });`,
    `mkdirSync(${JSON.stringify(path.dirname(kept))}, { mode: 0o755 });`,
    `writeFileSync(${JSON.stringify(kept)}, words, { mode: 0o644 });`,
    `chmodSync(${JSON.stringify(path.dirname(kept))}, 0o555);`,
    ...(linger
      ? [
          `writeFileSync(${JSON.stringify(path.join(stash, 'left.tmp'))}, String(process.pid));`,
          `renameSync(${JSON.stringify(path.join(stash, 'left.tmp'))}, ${JSON.stringify(path.join(stash, 'left'))});`,
          'setInterval(() => {}, 1 << 30);',
        ]
      : ["console.log('LEAVE done');"]),
    '',
  ].join('\n');
}

/** A command that reads what an earlier job's command left at `paths`, and says what it found. */
function lookScript(paths: string[]): string {
  return [
    "import { readFileSync } from 'node:fs';",
    `for (const file of ${JSON.stringify(paths)}) {`,
    "  let found = '';",
    "  try { found = readFileSync(file, 'utf8'); } catch (error) { found = error.code; }",
    "  console.log('LEFT ' + file + ': ' + found);",
    '}',
    '',
  ].join('\n');
}

const runners = rootAndSudoRunners;

/** A world whose executor runs `commands` and is done; the planner plans, and sums up when asked. */
async function commandWorld(
  runAs: RunnerAccount | undefined,
  commands: string[],
  files: Record<string, string>,
): Promise<World> {
  // The plan names every command the executor runs: the approval allows those only.
  const detail = commands.map((command) => `Run \`${command}\`.`).join(' ');
  const plan = { steps: [{ title: 'Run the scripts', detail, files: ['README.md'], verify: commands[0] }] };
  const executor: Reply[] = [
    ...commands.map((command) => toolCall('run_command', { command })),
    toolCall('update_context', { result: 'Ran the scripts.', outcome: 'done' }),
  ];
  const w = await createWorld(
    {
      planner: [
        toolCall('update_context', { plan, directive: 'Run the scripts.' }),
        toolCall('update_context', { summary: 'Ran the scripts.' }),
      ],
      executor,
    },
    undefined,
    { runAs },
  );
  w.pushToOrigin('main', files, 'Add the scripts');
  w.freshCheckout();
  w.gh.setPermission('mona', 'maintain');
  return w;
}

/** /plan on a new issue of `w`, then starts the /approve job (options for it), each in a new checkout. */
async function planThenApprove(
  w: World,
  commands: string[],
  options: Parameters<World['startAction']>[3] = {},
): Promise<{ planned: ActionRun; approve: StartedAction }> {
  const issue = w.gh.addIssue({ title: 'Run the scripts', body: 'Run them.', login: 'outsider' }).number;
  const inputs = { 'allowed-commands': commands.join('\n') };
  const planned = await w.runAction(commentEvent(w, issue, 'mona', '/plan run the scripts'), inputs);
  w.freshCheckout();
  return { planned, approve: w.startAction(commentEvent(w, issue, 'mona', '/approve'), inputs, {}, options) };
}

/** Waits (on the file, not the clock) until job 1's command has left its files; fails if the run ends first. */
async function untilLeft(run: StartedAction, marker: string): Promise<number> {
  const ended = run.done.then(() => true);
  while (!existsSync(marker)) {
    if (await Promise.race([ended, new Promise<false>((resolve) => setTimeout(() => resolve(false), 50))]))
      throw new Error(`job 1 ended before its command left its files:\n${(await run.done).stdout}`);
  }
  return Number(readFileSync(marker, 'utf8'));
}

/** SIGKILL to `pid`, if it still exists (job 2 ends what the account runs). */
function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

for (const runner of runners) {
  const { runAs, skip } = accountFor(runner.kind);
  describe.skipIf(skip !== undefined)(
    `what a command finds of others ${runner.title}${skip ? ` (skipped: ${skip})` : ''}`,
    () => {
      it('inherits no descriptor the runner left open, and finds nothing an earlier job of another repository left in /tmp, /dev/shm or /var/tmp', async () => {
        const [left, leftByJob2] = [uniqueName('pg-left'), uniqueName('pg-left')];
        // The root-only file the runner holds open: in a folder only root may enter, itself 0600.
        const secretDir = mkdtempSync(path.join('/tmp', 'pg-fd-secret-'));
        const secretFile = path.join(secretDir, 'secret');
        writeFileSync(secretFile, `${canaries['inherited descriptor']}\n`, { mode: 0o600 });
        const descriptor = openSync(secretFile, 'r');
        // Where job 1's command says it is done leaving files; every account may write it.
        const stash = path.join('/tmp', uniqueName('pg-stash'));
        mkdirSync(stash);
        chmodSync(stash, 0o777);
        onTestFinished(() => {
          closeSync(descriptor);
          for (const name of [left, leftByJob2])
            for (const file of [...leftPaths(name).slice(0, 3), `/tmp/${name}.d`])
              rmSync(file, { recursive: true, force: true });
          for (const folder of [secretDir, stash]) rmSync(folder, { recursive: true, force: true });
        });

        // Job 1: reads its descriptors, leaves its files, and is killed outright while its command runs.
        const job1Commands = ['node scripts/probe.mjs', 'node scripts/leave.mjs'];
        const first = await commandWorld(runAs, job1Commands, {
          'scripts/probe.mjs': probeScript,
          'scripts/leave.mjs': leaveScript(left, stash, true),
        });
        // Low and high: Node marks the ones it finds at 0 to 15 close-on-exec by itself, not those above a gap.
        const { planned, approve } = await planThenApprove(first, job1Commands, {
          inherit: { 3: descriptor, 40: descriptor },
        });
        expect(planned.outputs.outcome, planned.stdout).toBe('planned');
        const lingering = await untilLeft(approve, path.join(stash, 'left'));
        onTestFinished(() => killQuietly(lingering));
        approve.kill('SIGKILL');
        const killed = await approve.done;
        const [probe = ''] = toolResults(first, 'executor');
        expect(probe).toContain('exit code: 0');
        // It looked at what it holds (Node's own descriptors at least), and held nothing of the runner's.
        expect(probe).toMatch(/^FDS \d+ /m);
        expect(probe).not.toContain(secretFile);
        // The killed job cleaned nothing up: its files are there for the next job to find.
        for (const file of leftPaths(left)) expect(existsSync(file), `job 1 left ${file}`).toBe(true);

        // Job 2, of another repository, on the same runner with the same command account.
        const second = await commandWorld(runAs, ['node scripts/look.mjs', 'node scripts/leave.mjs'], {
          'scripts/look.mjs': lookScript(leftPaths(left)),
          'scripts/leave.mjs': leaveScript(leftByJob2, stash, false),
        });
        const job2 = await planThenApprove(second, ['node scripts/look.mjs', 'node scripts/leave.mjs']);
        const approved = await job2.approve.done;
        expect(approved.outputs.outcome, approved.stdout).toBe('done');
        const [look = '', leave = ''] = toolResults(second, 'executor');
        for (const file of leftPaths(left)) expect(look).toContain(`LEFT ${file}: ENOENT`);
        expect(leave).toContain('LEAVE done');
        // What job 2's own command left is gone once job 2 has ended.
        for (const file of leftPaths(leftByJob2)) expect(existsSync(file), `job 2 left ${file}`).toBe(false);

        const seen = [
          everythingSeen(first, [planned, killed]),
          everythingSeen(second, [job2.planned, approved]),
          ...[first, second].map((w) => git(w.origin, 'log', '--all', '-p', '--format=%H%n%B')),
        ].join('\n');
        for (const [label, value] of Object.entries({ ...canaries, token, 'api key': apiKey })) {
          const at = seen.indexOf(value);
          expect(at, `the ${label} reached this: ${seen.slice(Math.max(0, at - 200), at)}<CANARY>`).toBe(-1);
        }
      });
    },
  );
}
