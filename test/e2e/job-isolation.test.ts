import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
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
  workerCommandUser,
} from './harness.js';
import { notesServerPath } from '../fakes/mcp-notes-script.js';
import { hostPid, namingPid } from '../helpers/process-state.js';
import { commentEvent, everythingSeen, toolResults } from './thread-helpers.js';
import { accountFor, rootAndSudoRunners, type RunnerAccount } from './runner-accounts.js';
import { uniqueName } from '../helpers/unique-names.js';

/**
 * What a command finds that its own job did not give it, and what it leaves running, attacked as an
 * exploit would on a runner that outlives its jobs, with default inputs, as root and as a non-root
 * account with passwordless sudo (each job's commands under the same sandbox account, this worker's):
 *
 * - a descriptor the runner left open, without close-on-exec, on a file only root may read: job 1's
 *   command reads every descriptor it holds;
 * - files job 1's command left in /tmp, /dev/shm and /var/tmp (one in a folder it made read-only),
 *   and job 1 killed outright, so nothing of it cleaned up: job 2, of another repository, reads them
 *   with its command; then job 2's own such files are gone once job 2 has ended;
 * - with a stdio MCP server configured in job 2 (which runs as the same account for the whole job),
 *   a command that leaves a process forking every millisecond, its pid changing each time, and one
 *   that leaves a daemon (setsid, double fork), each writing to a file in a loop: once each command
 *   has returned, nothing of either runs as the account beside the server, the files stop growing,
 *   and the server still answers.
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
          `writeFileSync(${JSON.stringify(path.join(stash, 'left.tmp'))}, ${namingPid('process.pid')});`,
          `renameSync(${JSON.stringify(path.join(stash, 'left.tmp'))}, ${JSON.stringify(path.join(stash, 'left'))});`,
          'setInterval(() => {}, 1 << 30);',
        ]
      : ["console.log('LEAVE done');"]),
    '',
  ].join('\n');
}

/**
 * A command that starts `sh scripts/storm.sh <file>` in a session of its own, a shell loop that
 * forks every millisecond and moves on (each turn appends to the file, starts the next turn in the
 * background and exits), and returns once it has written twenty times: it runs when the command ends.
 */
function stormScript(file: string): string {
  return [
    "import { spawn } from 'node:child_process';",
    "import { existsSync, statSync } from 'node:fs';",
    `const file = ${JSON.stringify(file)};`,
    "spawn('/bin/sh', ['scripts/storm.sh', file], { detached: true, stdio: 'ignore' }).unref();",
    'while (!existsSync(file) || statSync(file).size < 20) {}',
    "console.log('STORM started');",
    '',
  ].join('\n');
}

/** The storm's turn: append, start the next turn in the background, exit. */
const stormTurn = 'printf x >> "$1"; sleep 0.001; sh "$0" "$1" & exit 0\n';

/**
 * A command that leaves a daemon (setsid -f: forked twice, in a session of its own) appending to
 * `file` in a loop, and returns once it has written five times.
 */
function daemonScript(file: string): string {
  return [
    "import { spawn } from 'node:child_process';",
    "import { existsSync, statSync } from 'node:fs';",
    `const file = ${JSON.stringify(file)};`,
    "spawn('setsid', ['-f', '/bin/sh', '-c', 'while :; do printf d >> \"$1\"; sleep 0.01; done', 'daemon', file], { stdio: 'ignore' });",
    'while (!existsSync(file) || statSync(file).size < 5) {}',
    "console.log('DAEMON started');",
    '',
  ].join('\n');
}

/** `.github/plangate.yml` naming the notes server (test/fakes/mcp-server.mjs), a stdio MCP server. */
const notesServerConfig = [
  'mcp-servers:',
  '  notes:',
  `    command: ${JSON.stringify(process.execPath)}`,
  `    args: [${JSON.stringify(notesServerPath)}]`,
  '',
].join('\n');

/**
 * The processes of this worker's command account, as the machine sees them, outside the notes
 * server's tree; a zombie runs nothing and is left out. Read twice; still, a process that moves
 * every millisecond can be missing from every reading of /proc, so the files the leftovers write
 * are the witness that they are gone.
 */
function accountProcessesBesidesServer(): string[] {
  const uid = execFileSync('id', ['-u', workerCommandUser()], { encoding: 'utf8' }).trim();
  const found = new Map<string, string>();
  for (let reading = 0; reading < 2; reading += 1) {
    const table = readdirSync('/proc')
      .filter((e) => /^\d+$/.test(e))
      .flatMap((pid) => {
        try {
          const status = readFileSync(`/proc/${pid}/status`, 'utf8');
          const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
          return [{ pid, status, command, ppid: /^PPid:\s+(\d+)/m.exec(status)?.[1] ?? '' }];
        } catch {
          return [];
        }
      });
    const server = new Set(table.filter((p) => p.command.includes(notesServerPath)).map((p) => p.pid));
    // Its tree: its descendants too, added until a round adds none.
    for (let size = -1; server.size !== size;) {
      size = server.size;
      for (const p of table) if (server.has(p.ppid)) server.add(p.pid);
    }
    for (const p of table) {
      const uids = /^Uid:\s+(.*)$/m.exec(p.status)?.[1]?.split(/\s+/) ?? [];
      const zombie = /^State:\s+[ZX]/m.test(p.status);
      if (uids.includes(uid) && !zombie && !server.has(p.pid)) found.set(p.pid, `${p.pid} ${p.command}`);
    }
  }
  return [...found.values()];
}

/** The size of `file`, or -1 when there is none. */
function sizeOf(file: string): number {
  return existsSync(file) ? statSync(file).size : -1;
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

/**
 * A world whose executor runs `commands`, makes the `calls` after them and is done; the planner plans,
 * and sums up when asked. `observe(n)` runs as the executor's nth reply is asked for (0 first), that
 * is once everything before it has returned.
 */
async function commandWorld(
  runAs: RunnerAccount | undefined,
  commands: string[],
  files: Record<string, string>,
  { calls = [], observe = () => undefined }: { calls?: Reply[]; observe?: (reply: number) => void } = {},
): Promise<World> {
  // The plan names every command the executor runs: the approval allows those only.
  const detail = commands.map((command) => `Run \`${command}\`.`).join(' ');
  const plan = { steps: [{ title: 'Run the scripts', detail, files: ['README.md'], verify: commands[0] }] };
  const replies: Reply[] = [
    ...commands.map((command) => toolCall('run_command', { command })),
    ...calls,
    toolCall('update_context', { result: 'Ran the scripts.', outcome: 'done' }),
  ];
  const w = await createWorld(
    {
      planner: [
        toolCall('update_context', { plan, directive: 'Run the scripts.' }),
        toolCall('update_context', { summary: 'Ran the scripts.' }),
      ],
      executor: replies.map((reply, n) => () => {
        observe(n);
        return reply;
      }),
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
  return hostPid(readFileSync(marker, 'utf8')) ?? 0;
}

/** SIGKILL to `pid`, if it still exists (job 2 ends what the account runs). */
function killQuietly(pid: number): void {
  if (pid <= 0) return;
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
      it('inherits no descriptor the runner left open, finds nothing an earlier job of another repository left in /tmp, /dev/shm or /var/tmp, and leaves nothing running beside an MCP server, a process forking every millisecond or a daemon included', async () => {
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

        // Job 2, of another repository, on the same runner with the same command account, with a
        // stdio MCP server: after the commands that leave a storm and a daemon, what runs as the
        // account beside the server, and how far the files they write in a loop have grown.
        const [storm, daemon] = [path.join(stash, 'storm'), path.join(stash, 'daemon')];
        const observed: { running: string[][]; storm: number[]; daemon: number[] } = {
          running: [],
          storm: [],
          daemon: [],
        };
        const job2Commands = [
          'node scripts/look.mjs',
          'node scripts/leave.mjs',
          'node scripts/storm.mjs',
          'node scripts/daemon.mjs',
        ];
        const second = await commandWorld(
          runAs,
          job2Commands,
          {
            'scripts/look.mjs': lookScript(leftPaths(left)),
            'scripts/leave.mjs': leaveScript(leftByJob2, stash, false),
            'scripts/storm.mjs': stormScript(storm),
            'scripts/storm.sh': stormTurn,
            'scripts/daemon.mjs': daemonScript(daemon),
            '.github/plangate.yml': notesServerConfig,
          },
          {
            calls: [toolCall('use_capability', { server: 'notes', tool: 'lookup', arguments: { key: 'afterwards' } })],
            // After the storm's command (3), the daemon's (4) and the server's call (5).
            observe: (reply) => {
              if (reply < 3) return;
              observed.running.push(accountProcessesBesidesServer());
              observed.storm.push(sizeOf(storm));
              observed.daemon.push(sizeOf(daemon));
            },
          },
        );
        const job2 = await planThenApprove(second, job2Commands);
        const approved = await job2.approve.done;
        expect(approved.outputs.outcome, approved.stdout).toBe('done');
        const [look = '', leave = '', stormed = '', daemonized = '', called = ''] = toolResults(second, 'executor');
        for (const file of leftPaths(left)) expect(look).toContain(`LEFT ${file}: ENOENT`);
        expect(leave).toContain('LEAVE done');
        // What job 2's own command left is gone once job 2 has ended.
        for (const file of leftPaths(leftByJob2)) expect(existsSync(file), `job 2 left ${file}`).toBe(false);
        // Each command returned, with what it started running at its end; once it had, nothing of it
        // ran as the account beside the server, and nothing it started wrote another byte.
        expect(stormed).toMatch(/^\$ node scripts\/storm\.mjs\nexit code: 0\nSTORM started/);
        expect(daemonized).toMatch(/^\$ node scripts\/daemon\.mjs\nexit code: 0\nDAEMON started/);
        expect(observed.running).toEqual([[], [], []]);
        const [stormAtEnd = -1] = observed.storm;
        expect(stormAtEnd).toBeGreaterThanOrEqual(20);
        expect(observed.storm).toEqual([stormAtEnd, stormAtEnd, stormAtEnd]);
        const [, daemonAtEnd = -1] = observed.daemon;
        expect(daemonAtEnd).toBeGreaterThanOrEqual(5);
        expect(observed.daemon.slice(1)).toEqual([daemonAtEnd, daemonAtEnd]);
        // The server, which runs as the same account, was spared and still answers.
        expect(called).toContain('lookup afterwards: probe=(unset)');

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
