import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';

vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

import { coreLog, resetCoreLog } from '../helpers/core-mock.js';
import {
  createSandbox,
  lookUpAccount,
  probeAccountSwitch,
  sudoPlan,
  type Sandbox,
  type SandboxDeps,
} from '../../src/sandbox/sandbox.js';
import { createRunCommandTool } from '../../src/tools/run-command.js';
import { accountUsedBy } from '../../src/sandbox/account/account-in-use.js';
import { processStart, tempFolderPrefix } from '../../src/repo/temp-folders.js';
import { findPrograms, ProgramNotFoundError, type Programs } from '../../src/repo/programs.js';
import { SandboxError } from '../../src/sandbox/account/sandbox-types.js';
import type { Tool } from '../../src/tools/tool.js';
import { makeTempDir, removeDir } from './tools-git-fixture.js';
import {
  grandchildSleeper,
  hostPid,
  isAlive,
  namingPid,
  waitForFile,
  waitUntilGone,
} from '../helpers/process-state.js';
import { deleteAccount } from '../helpers/accounts.js';
import { nodeOutOfReach } from '../helpers/checkout-passage.js';
import { REQUIRE_ACCOUNTS_ENV } from '../e2e/runner-accounts.js';
import { uniqueName } from '../helpers/unique-names.js';
import { refusal } from './tool-refusal.js';

/**
 * The sandbox for real: run_command under a separate account, made by the sandbox itself (as root,
 * and through real sudo as a non-root action would), plus a runner where no switch is possible.
 * The account is this file's own: after every command everything it runs is ended, so no other
 * test file may share it.
 */

// Named for this run and this worker: no other run or test file shares it, and teardown finds it should afterAll not run.
const ACCOUNT = uniqueName('pgt-sbx');
const isRoot = process.getuid?.() === 0;
// These commands start this suite's node again as the account; CI installs acl, so it never skips them.
const nodeUnreachable = process.env[REQUIRE_ACCOUNTS_ENV] === '1' ? false : nodeOutOfReach() !== undefined;
const sudoInstalled = ['/usr/bin/sudo', '/bin/sudo'].some((file) => fs.existsSync(file));
const required = process.env.PLANGATE_E2E_REQUIRE_ACCOUNTS === '1';
if (required && (!isRoot || !sudoInstalled))
  throw new Error('PLANGATE_E2E_REQUIRE_ACCOUNTS=1, but these tests need root and sudo');

// Enough to find node and the system tools; nothing of the test runner's own environment.
const env = { PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin`, CI: 'true' };
const programs = findPrograms(env.PATH);
const viaSudo: SandboxDeps = { isRoot: false, programs };

let base: string;
let tree: string;
const open: Sandbox[] = [];

beforeEach(() => {
  resetCoreLog();
  base = makeTempDir('plangate-sandbox-test-');
  // A folder the account may pass through to the work tree, as the sandbox opens repo/work-tree.ts's (tested below).
  fs.chmodSync(base, 0o711);
  tree = path.join(base, 'work');
  fs.mkdirSync(tree);
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  removeDir(base);
});

afterAll(() => {
  const failed = isRoot ? deleteAccount(ACCOUNT) : undefined;
  if (failed) throw new Error(failed);
});

function sandbox(deps: SandboxDeps = {}, isolation: 'account' | 'none' = 'account'): Sandbox {
  const made = createSandbox({
    isolation,
    account: ACCOUNT,
    workTree: tree,
    deps: { programs, tmpDir: base, ...deps },
  });
  open.push(made);
  return made;
}

type CommandTool = Tool<{ command: string }>;

function tool(allowedCommands: string[], box: Sandbox, timeoutMs = 60_000, commandEnv = env): CommandTool {
  return createRunCommandTool({ allowedCommands, timeoutMs, env: commandEnv, sandbox: box }) as CommandTool;
}

/** A process that stays alive for a minute, as the action's user, with `extra` in its environment. */
function holder(extra: NodeJS.ProcessEnv): { pid: number; stop(): void } {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { env: extra, stdio: 'ignore' });
  if (child.pid === undefined) throw new Error('holder did not start');
  return { pid: child.pid, stop: () => child.kill('SIGKILL') };
}

/** A node one-liner that starts a detached (setsid) grandchild, names it ({@link namingPid}) and exits at once. */
function leaveBehind(pidFile: string): string {
  const script = [
    `const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(()=>{}, 60000)'], { detached: true, stdio: 'ignore' });`,
    `require('fs').writeFileSync('${pidFile}', ${namingPid('c.pid')});`,
    `c.unref();`,
  ].join(' ');
  return `node -e "${script}"`;
}

/** Whether the process a command named in `pidFile` is gone, once SIGKILL has had its turns. */
async function goneAfterward(pidFile: string): Promise<boolean> {
  const pid = hostPid(fs.readFileSync(pidFile, 'utf8'));
  if (pid === undefined) return true;
  await waitUntilGone(pid);
  return !isAlive(pid);
}

/**
 * A shell loop that forks as fast as it can and moves on: each turn appends to its file, starts the
 * next turn in the background and exits, so its pid changes about every millisecond.
 */
const stormScript = 'printf x >> "$1"; sh "$0" "$1" & exit 0';

/** The pid of the process running as the account whose command line holds `marker`, once it runs. */
async function runningAsAccount(marker: string): Promise<number> {
  const owner = (await lookUpAccount(ACCOUNT))?.uid;
  for (let i = 0; i < 100_000; i += 1) {
    const found = fs
      .readdirSync('/proc')
      .filter((e) => /^\d+$/.test(e))
      .find((e) => {
        // A process may end between the listing and the read: it is not the one looked for.
        try {
          const cmdline = fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').toString();
          const status = fs.readFileSync(`/proc/${e}/status`, 'utf8').toString();
          return cmdline.includes(marker) && new RegExp(`^Uid:\\s+\\d+\\s+${owner}\\b`, 'm').test(status);
        } catch {
          return false;
        }
      });
    if (found) return Number(found);
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`no process with ${marker} ever ran as the account`);
}

/** The kernel's one-letter state of a process (T: stopped), or undefined when it is gone. */
function stateOf(pid: number): string | undefined {
  try {
    return /^State:\s+(\S)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/** `programs` without unshare: a runner where commands cannot have a PID namespace of their own. */
function withoutUnshare(found: Programs): Programs {
  return {
    path: found.path,
    find: (name) => {
      if (name === 'unshare') throw new ProgramNotFoundError(name, found.path);
      return found.find(name);
    },
  };
}

describe('sudoPlan', () => {
  it('runs argv through env -i, by its absolute path, with exactly the given variables, after sudo’s own options', () => {
    expect(
      sudoPlan('builder', { PATH: '/usr/bin', HOME: '/home/builder', UNSET: undefined }, ['npm', 'test']).args,
    ).toEqual([
      '-n',
      '-u',
      'builder',
      '--',
      programs.find('env'),
      '-i',
      'PATH=/usr/bin',
      'HOME=/home/builder',
      'npm',
      'test',
    ]);
  });

  it('keeps secrets off the command line, handing them over through sudo’s environment', () => {
    const plan = sudoPlan('builder', { PATH: '/usr/bin', API_TOKEN: 'value-of-a-secret' }, ['server'], ['API_TOKEN']);
    expect(plan.args.join(' ')).not.toContain('value-of-a-secret');
    expect(plan.args).toContain('--preserve-env=API_TOKEN');
    expect(plan.env.API_TOKEN).toBe('value-of-a-secret');
  });

  it('refuses a program name env would read as a variable', () => {
    expect(() => sudoPlan('builder', {}, ['A=b', 'x'])).toThrow(/may not contain "="/);
  });
});

describe('a runner where no account switch is possible', () => {
  it('refuses every command with the cause and the opt-out, and runs nothing', async () => {
    const marker = path.join(tree, 'ran');
    const box = sandbox({ isRoot: false, sudo: path.join(base, 'no-such-sudo') });
    expect(await probeAccountSwitch({ isRoot: false, sudo: path.join(base, 'no-such-sudo') })).toMatchObject({
      kind: 'impossible',
    });
    for (let i = 0; i < 2; i += 1) {
      const message = await refusal(tool(['touch *'], box).run({ command: `touch ${marker}` }));
      expect(message).toMatch(
        /Commands cannot run here: the action does not run as root and cannot use passwordless sudo: sudo is not installed/,
      );
      expect(message).toMatch(/command-isolation: none/);
      expect(message).toMatch(/Nothing was run/);
    }
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('runs commands as the action’s own user only when command-isolation is none', async () => {
    const out = await tool(['id -u'], sandbox({ isRoot: false, sudo: path.join(base, 'no-such-sudo') }, 'none')).run({
      command: 'id -u',
    });
    expect(out).toBe(`$ id -u\nexit code: 0\n${process.getuid?.()}\n`);
  });
});

const modes: Array<[string, SandboxDeps, string | undefined]> = [
  ['as root', {}, isRoot ? undefined : 'creating an account and switching to it needs root'],
  [
    'through sudo',
    viaSudo,
    !isRoot ? 'the account is created as root first' : !sudoInstalled ? 'sudo is not installed' : undefined,
  ],
];

for (const [how, deps, skip] of modes) {
  describe.skipIf(skip !== undefined)(`run_command in the sandbox ${how}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    it('creates the account when missing, and runs commands as it with its own HOME and temp dir', async () => {
      const box = sandbox(deps);
      const run = tool(['id *', 'env'], box);
      expect(await run.run({ command: 'id -u' })).toMatch(/exit code: 0\n\d+\n$/);
      const identity = await lookUpAccount(ACCOUNT);
      expect(identity?.uid).toBeGreaterThan(0);
      expect(await run.run({ command: 'id -u' })).toBe(`$ id -u\nexit code: 0\n${identity?.uid}\n`);
      expect(await run.run({ command: 'id -G' })).toBe(`$ id -G\nexit code: 0\n${identity?.gid}\n`);
      const listed = await run.run({ command: 'env' });
      expect(listed).toMatch(new RegExp(`\\nHOME=${base}/plangate-sandbox-[^/\\n]+/home\\n`));
      expect(listed).toMatch(new RegExp(`\\nTMPDIR=${base}/plangate-sandbox-[^/\\n]+/tmp\\n`));
      expect(listed).toContain(`\nUSER=${ACCOUNT}\n`);
      expect(listed).toContain('\nCI=true\n');
      expect(listed).not.toContain('SUDO_');
    });

    it('lends the work tree for the command and takes it back, readable, after', async () => {
      fs.writeFileSync(path.join(tree, 'kept.txt'), 'from the action\n');
      const run = tool(['node -e *'], sandbox(deps));
      const script = `require('fs').appendFileSync('kept.txt', 'and the command\\n'); require('fs').writeFileSync('secret.txt', 'x', { mode: 0 }); require('fs').mkdirSync('closed', { mode: 0 })`;
      expect(await run.run({ command: `node -e "${script}"` })).toContain('exit code: 0');
      expect(fs.readFileSync(path.join(tree, 'kept.txt'), 'utf8')).toBe('from the action\nand the command\n');
      for (const entry of ['', 'kept.txt', 'secret.txt', 'closed']) {
        expect(fs.statSync(path.join(tree, entry)).uid, entry).toBe(process.getuid?.());
      }
      expect(fs.readFileSync(path.join(tree, 'secret.txt'), 'utf8')).toBe('x');
      fs.writeFileSync(path.join(tree, 'closed', 'inside'), 'writable again');
    });

    it('cannot read the environment of the action’s processes', async () => {
      // /proc/<pid>/environ shows the environment a process started with, so the canary sits in
      // the start environment of a process of the action's user.
      const canary = `plangate-canary-${process.pid}`;
      const other = holder({ PLANGATE_CANARY: canary });
      try {
        // The same command as the action's own user does see it: the check below can fail.
        const asAction = await tool(['cat *'], sandbox({}, 'none')).run({ command: `cat /proc/${other.pid}/environ` });
        expect(asAction).toContain(canary);
        const box = sandbox(deps);
        const asAccount = await tool(['cat *'], box).run({ command: `cat /proc/${other.pid}/environ` });
        expect(asAccount).not.toContain(canary);
        // In a PID namespace of its own, the command does not even see the process; else it may not read it.
        expect(asAccount).toMatch(/exit code: 1\n.*(Permission denied|No such file or directory)/);
        expect(await tool(['cat *'], box).run({ command: `cat /proc/${process.pid}/environ` })).toMatch(
          /exit code: 1\n.*(Permission denied|No such file or directory)/,
        );
      } finally {
        other.stop();
      }
    });

    it('reports a missing program as not found', async () => {
      // Only folders every account may search: past one it may not (this checkout's node, when the
      // checkout sits under a 0700 folder), env reports a name it did not find as "Permission denied".
      const searchable = { ...env, PATH: '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin' };
      const run = tool(['plangate-no-such-program'], sandbox(deps), 60_000, searchable);
      expect(await refusal(run.run({ command: 'plangate-no-such-program' }))).toMatch(
        /Command not found: plangate-no-such-program/,
      );
    });

    it('lets the account, and no other, through the folder around the work tree', async () => {
      // As repo/work-tree.ts makes it: closed to every other account.
      const enclosure = path.join(base, 'enclosure');
      const inner = path.join(enclosure, 'work');
      fs.mkdirSync(inner, { recursive: true, mode: 0o700 });
      fs.chmodSync(enclosure, 0o700);
      fs.chmodSync(inner, 0o755);
      fs.writeFileSync(path.join(inner, 'kept.txt'), 'from the action\n');
      const box = createSandbox({
        isolation: 'account',
        account: ACCOUNT,
        workTree: inner,
        enclosure,
        deps: { programs, tmpDir: base, ...deps },
      });
      open.push(box);
      expect(await tool(['cat *'], box).run({ command: 'cat kept.txt' })).toBe(
        '$ cat kept.txt\nexit code: 0\nfrom the action\n',
      );
      const identity = await lookUpAccount(ACCOUNT);
      const folder = fs.statSync(enclosure);
      expect([folder.uid, folder.gid, folder.mode & 0o777]).toEqual([process.getuid?.(), identity?.gid, 0o710]);
      // Any other account (nobody here) is stopped at the folder.
      const asNobody = spawnSync(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', 'cat', path.join(inner, 'kept.txt')],
        {
          encoding: 'utf8',
        },
      );
      expect([asNobody.status, asNobody.stdout]).toEqual([1, '']);
      expect(asNobody.stderr).toMatch(/Permission denied/);
    });

    it.skipIf(nodeUnreachable)('ends what a command left running outside its process group', async () => {
      const pidFile = path.join(base, `left-${how.replace(/\W/g, '')}.pid`);
      fs.chmodSync(base, 0o777);
      expect(await tool(['node -e *'], sandbox(deps)).run({ command: leaveBehind(pidFile) })).toContain('exit code: 0');
      expect(await goneAfterward(pidFile)).toBe(true);
    });

    it.skipIf(nodeUnreachable)(
      'ends, before its first command, what an earlier run that was killed left running as the account',
      async () => {
        const pidFile = path.join(base, `earlier-${how.replace(/\W/g, '')}.pid`);
        fs.chmodSync(base, 0o777);
        // The earlier run started it and died without a sweep: its sandbox is never closed or used again.
        // Started outside a command's namespace, which would end it with its command: as a server's child is.
        const earlier = createSandbox({
          isolation: 'account',
          account: ACCOUNT,
          workTree: tree,
          deps: { programs, tmpDir: base, ...deps },
        });
        await earlier.ready();
        const script = `const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(()=>{}, 60000)'], { detached: true, stdio: 'ignore' }); require('fs').writeFileSync('${pidFile}', String(c.pid)); c.unref();`;
        const plan = earlier.plan(['node', '-e', script], env, { lifetime: 'run' });
        await new Promise((resolve) =>
          spawn(plan.file, plan.args, { env: plan.env, cwd: base, stdio: 'ignore' }).on('exit', resolve),
        );
        const left = Number(fs.readFileSync(pidFile, 'utf8'));
        expect(isAlive(left)).toBe(true);
        try {
          await sandbox(deps).ready();
          await waitUntilGone(left);
          expect(isAlive(left)).toBe(false);
        } finally {
          if (isAlive(left)) process.kill(left, 'SIGKILL');
        }
      },
    );

    it('removes, before its first command, the folders a killed run left the account in the temp dir, and nothing a live run, another account or another user has', async () => {
      await sandbox(deps).ready();
      const account = await lookUpAccount(ACCOUNT);
      if (!account) throw new Error(`${ACCOUNT} was not created`);
      const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
        encoding: 'utf8',
      });
      const dead = Number(ended.stdout);
      const live = holder({});
      const me = [process.getuid?.() ?? 0, process.getgid?.() ?? 0] as const;
      /** A run's folder as a run leaves it: `top` owns the folder, `inner` the work tree or HOME in it. */
      const folder = (name: string, top: readonly [number, number], inner: readonly [number, number]) => {
        const at = path.join(base, name);
        const within = path.join(at, name.startsWith('plangate-sandbox-') ? 'home' : 'work');
        fs.mkdirSync(within, { recursive: true });
        fs.writeFileSync(path.join(within, 'PRIVATE.md'), 'another repository\n');
        fs.chownSync(within, ...inner);
        fs.chownSync(at, ...top);
        return at;
      };
      const accountGroup = [me[0], account.gid] as const;
      const accountOwn = [account.uid, account.gid] as const;
      const nobody = [65534, 65534] as const;
      try {
        const liveStart = await processStart(live.pid);
        const left = [
          folder(`plangate-${dead}-1-AbC123`, accountGroup, accountOwn),
          folder(`plangate-${dead}-1-Unlent`, me, me),
          folder(`plangate-sandbox-${dead}-1-xYz789`, me, accountOwn),
          // A dead action's pid that a later process has taken: it started at another time.
          folder(`plangate-${live.pid}-1-ReUse1`, accountGroup, accountOwn),
        ];
        const kept = [
          folder(`plangate-${live.pid}-${liveStart}-AbC123`, accountGroup, accountOwn),
          folder(`${tempFolderPrefix('sandbox')}AbC123`, me, accountOwn),
          // Another account's: that account's next run removes them.
          folder(`plangate-${dead}-1-Other1`, [me[0], 65534], nobody),
          folder(`plangate-sandbox-${dead}-1-Other2`, me, nobody),
          // The account's own, named like a leftover: no account may have root remove what it chooses.
          folder(`plangate-${dead}-1-Plant1`, accountOwn, accountOwn),
          folder(`plangate-${dead}-1-toolong1`, accountGroup, accountOwn),
        ];
        fs.symlinkSync(kept[0] ?? '', path.join(base, `plangate-${dead}-1-LiNk12`));
        await sandbox(deps).ready();
        expect(left.filter((at) => fs.existsSync(at))).toEqual([]);
        expect(kept.filter((at) => fs.readdirSync(at).length === 1)).toEqual(kept);
        expect(fs.readlinkSync(path.join(base, `plangate-${dead}-1-LiNk12`))).toBe(kept[0]);
      } finally {
        live.stop();
      }
    });

    it('refuses the account while another running job gives it a HOME, runs nothing and keeps no folder, but passes over a folder the account made', async () => {
      await sandbox(deps).ready();
      const account = await lookUpAccount(ACCOUNT);
      if (!account) throw new Error(`${ACCOUNT} was not created`);
      // The other job: a live action's folder (the action's user's) holding a HOME of the account.
      const live = holder({});
      const other = path.join(base, `plangate-sandbox-${live.pid}-${await processStart(live.pid)}-OthEr1`);
      fs.mkdirSync(path.join(other, 'home'), { recursive: true });
      fs.chownSync(path.join(other, 'home'), account.uid, account.gid);
      const marker = path.join(base, 'ran');
      fs.chmodSync(base, 0o777);
      const homes = () =>
        fs
          .readdirSync(base)
          .filter((name) => name.startsWith('plangate-sandbox-'))
          .sort();
      const before = homes();
      try {
        const message = await refusal(tool(['touch *'], sandbox(deps)).run({ command: `touch ${marker}` }));
        expect(message).toContain(
          `command-user ${ACCOUNT} is in use by another plangate job on this machine (process ${live.pid}).`,
        );
        expect(message).toMatch(/must each name their own command-user/);
        expect(fs.existsSync(marker), 'the refused command ran').toBe(false);
        expect(homes(), 'the refused run kept its HOME folder').toEqual(before);
        // The account's own folder, named like a live job's: a command must not lock the account's next jobs out.
        fs.chownSync(other, account.uid, account.gid);
        expect(await tool(['touch *'], sandbox(deps)).run({ command: `touch ${marker}` })).toContain('exit code: 0');
        expect(fs.existsSync(marker)).toBe(true);
      } finally {
        live.stop();
      }
    });

    it('refuses the account while another account is in its group, names it and runs nothing', async () => {
      await sandbox(deps).ready();
      const account = await lookUpAccount(ACCOUNT);
      if (!account) throw new Error(`${ACCOUNT} was not created`);
      const marker = path.join(base, 'ran');
      fs.chmodSync(base, 0o777);
      // One account whose primary group it is, one the group lists as a member.
      const [primary, listed] = [uniqueName('pgt-grp'), uniqueName('pgt-mem')];
      const removeBoth = () => [primary, listed].map((name) => deleteAccount(name)).filter((failed) => failed);
      onTestFinished(() => void removeBoth());
      execFileSync('useradd', ['--no-create-home', '--gid', String(account.gid), primary]);
      execFileSync('useradd', ['--no-create-home', '--groups', String(account.gid), listed]);
      const message = await refusal(tool(['touch *'], sandbox(deps)).run({ command: `touch ${marker}` }));
      expect(message).toContain(
        `command-user ${ACCOUNT} shares its group (gid ${account.gid}) with ${[primary, listed].sort().join(', ')}, who could read the work tree lent to it.`,
      );
      expect(fs.existsSync(marker), 'the refused command ran').toBe(false);
      // The group is the account's alone again: its commands run.
      expect(removeBoth()).toEqual([]);
      expect(await tool(['touch *'], sandbox(deps)).run({ command: `touch ${marker}` })).toContain('exit code: 0');
      expect(fs.existsSync(marker)).toBe(true);
    });

    it('starts nothing more as the account once closed', async () => {
      const box = sandbox(deps);
      const run = tool(['id -u'], box);
      expect(await run.run({ command: 'id -u' })).toContain('exit code: 0');
      await box.close();
      expect(() => box.plan(['id', '-u'], env)).toThrow(/sandbox is closed/);
      await expect(box.lend(() => Promise.resolve('ran'))).rejects.toThrow(/sandbox is closed/);
    });

    it.skipIf(nodeUnreachable)('spares a kept process across sweeps and ends it on close', async () => {
      const box = sandbox(deps);
      await box.ready();
      const marker = `setTimeout(() => {}, 60000 + ${process.pid})`;
      const plan = box.plan(['node', '-e', marker], env, { lifetime: 'run' });
      const kept = spawn(plan.file, plan.args, { env: plan.env, cwd: tree, stdio: 'ignore' });
      box.keep(kept.pid ?? 0);
      // The kept node (under sudo, a child of sudo) as the account, once it runs.
      const server = await runningAsAccount(marker);
      const pidFile = path.join(base, `stray-${how.replace(/\W/g, '')}.pid`);
      fs.chmodSync(base, 0o777);
      expect(await tool(['node -e *'], box).run({ command: leaveBehind(pidFile) })).toContain('exit code: 0');
      expect(await goneAfterward(pidFile)).toBe(true);
      expect(isAlive(server)).toBe(true);
      // A command sees its own processes only: not the server, which runs as the same account.
      const listing = `require('fs').readdirSync('/proc').filter((e) => Number(e) > 0).forEach((e) => console.log(e, require('fs').readFileSync('/proc/' + e + '/cmdline', 'utf8')))`;
      const listed = await tool(['node -e *'], box).run({ command: `node -e "${listing}"` });
      expect(listed).toContain('exit code: 0');
      expect(listed).not.toContain(String(process.pid));
      expect(isAlive(server)).toBe(true);
      await box.close();
      await waitUntilGone(server);
      expect(isAlive(server)).toBe(false);
    });

    it.skipIf(nodeUnreachable)('kills the command’s process group on timeout', async () => {
      const pidFile = path.join(base, `grandchild-${how.replace(/\W/g, '')}.pid`);
      fs.chmodSync(base, 0o777);
      const sleeper = grandchildSleeper(pidFile);
      const box = sandbox(deps);
      // Prepare the account before faking timers; the timeout is then fired by hand.
      await box.ready();
      const run = tool(['node -e *'], box, 5_000);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const outcome = refusal(run.run({ command: `node -e "${sleeper}"` }));
        await waitForFile(pidFile);
        const pid = hostPid(fs.readFileSync(pidFile, 'utf8')) ?? 0;
        expect(isAlive(pid)).toBe(true);
        vi.advanceTimersByTime(5_000);
        expect(await outcome).toMatch(/Timed out after 5000 ms/);
        await waitUntilGone(pid);
        expect(isAlive(pid)).toBe(false);
      } finally {
        vi.useRealTimers();
      }
    });

    // Once, defined for the first way of switching alone: what is named and refused does not depend on how the switch is made.
    if (deps === modes[0]?.[1])
      it.skipIf(nodeUnreachable)(
        'fails the command after which a process acting as the account could not be ended, names it in the result and the log, and lends nothing while it runs',
        async () => {
          const box = sandbox(deps);
          const run = tool(['id -u'], box);
          expect(await run.run({ command: 'id -u' })).toContain('exit code: 0');
          const uid = (await lookUpAccount(ACCOUNT))?.uid ?? 0;
          // Acting as the account, but with root's real and saved uid, which the account cannot signal:
          // as something outside the sandbox (cron, a service) may start for it.
          const marker = `plangate-holdout-${process.pid}`;
          const holdout = spawn(
            process.execPath,
            ['-e', `process.seteuid(${uid}); setInterval(() => {}, 1000)`, marker],
            {
              stdio: 'ignore',
            },
          );
          onTestFinished(() => void holdout.kill('SIGKILL'));
          const pid = await runningAsAccount(marker);
          expect(pid).toBe(holdout.pid);

          const failed = await refusal(run.run({ command: 'id -u' }));
          // The command ran and its result is shown; what outlived it fails it, by pid and command line.
          expect(failed).toMatch(new RegExp(`^\\$ id -u\\nexit code: 0\\n${uid}\\n`));
          expect(failed).toContain(`plangate could not end everything that ran as ${ACCOUNT}`);
          expect(failed).toContain(
            `- pid ${pid}: ${process.execPath} -e process.seteuid(${uid}); setInterval(() => {}, 1000) ${marker}`,
          );
          expect(coreLog.errors.join('\n')).toContain(`- pid ${pid}: `);

          // While it runs, nothing runs and no work tree is lent.
          fs.writeFileSync(path.join(tree, 'mine.txt'), 'the action’s');
          const refused = await refusal(run.run({ command: 'id -u' }));
          expect(refused).toContain(`so nothing was run and no work tree was lent to ${ACCOUNT}`);
          expect(refused).toContain(`- pid ${pid}: `);
          expect(fs.statSync(path.join(tree, 'mine.txt')).uid).toBe(process.getuid?.());

          holdout.kill('SIGKILL');
          await waitUntilGone(pid);
          expect(await run.run({ command: 'id -u' })).toBe(`$ id -u\nexit code: 0\n${uid}\n`);
        },
      );

    it.skipIf(nodeUnreachable)(
      'without a PID namespace, ends a process a command left forking as fast as it can while a kept server runs on',
      async () => {
        const box = sandbox({ ...deps, programs: withoutUnshare(programs) });
        await box.ready();
        expect(coreLog.infos.join('\n')).toMatch(
          /Commands run without a PID namespace of their own on this runner \(Cannot find the program unshare/,
        );
        const marker = `setTimeout(() => {}, 60000 + ${process.pid} + 1)`;
        const plan = box.plan(['node', '-e', marker], env, { lifetime: 'run' });
        const kept = spawn(plan.file, plan.args, { env: plan.env, cwd: tree, stdio: 'ignore' });
        box.keep(kept.pid ?? 0);
        const server = await runningAsAccount(marker);

        fs.chmodSync(base, 0o777);
        const written = path.join(base, `storm-${how.replace(/\W/g, '')}`);
        fs.writeFileSync(path.join(tree, 'storm.sh'), stormScript);
        // The command returns once the storm has written twenty times: it runs when the command ends.
        const start = `const fs = require('fs'); require('child_process').spawn('sh', ['storm.sh', '${written}'], { detached: true, stdio: 'ignore' }).unref(); while (!fs.existsSync('${written}') || fs.statSync('${written}').size < 20) {}`;
        const run = tool(['node -e *', 'id -u'], box);
        expect(await run.run({ command: `node -e "${start}"` })).toContain('exit code: 0');
        const size = fs.statSync(written).size;
        // Another command, long enough for a storm still alive to write many more times: none.
        expect(await run.run({ command: 'id -u' })).toContain('exit code: 0');
        expect(fs.statSync(written).size).toBe(size);
        // The server was stopped with the account for the kill, and runs again, its parent too (sudo).
        expect(stateOf(server)).toMatch(/^[RS]$/);
        expect(stateOf(kept.pid ?? 0)).toMatch(/^[RS]$/);
        await box.close();
        await waitUntilGone(server);
      },
    );
  });
}

describe.skipIf(!isRoot)('accounts the sandbox refuses', () => {
  it('refuses root and the action’s own user', async () => {
    const root = createSandbox({
      isolation: 'account',
      account: 'root',
      workTree: tree,
      deps: { programs, tmpDir: base },
    });
    await expect(root.ready()).rejects.toThrow(/is root \(uid 0\)/);
    const invalid = createSandbox({
      isolation: 'account',
      account: 'no spaces allowed',
      workTree: tree,
      deps: { programs, tmpDir: base },
    });
    await expect(invalid.ready()).rejects.toThrow(/not a valid account name/);
  });
});

describe('the check for another job under the same account', () => {
  it('refuses, naming the folder and the fix, when the temp dir cannot be listed', async () => {
    const p = { identity: { user: 'pg-nobody-here', uid: 65533, gid: 65533 }, how: 'root' } as const;
    const missing = path.join(base, 'no-such-folder');
    const refused = accountUsedBy(p, missing);
    await expect(refused).rejects.toBeInstanceOf(SandboxError);
    await expect(refused).rejects.toThrow(
      `Cannot list the temp dir ${missing} to check that no other plangate job on this machine uses command-user pg-nobody-here (ENOENT).`,
    );
  });
});
