import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lookUpUser, prepareCommandUser, sudoArgs } from '../../src/tools/command-user.js';
import type { CommandUserDeps } from '../../src/tools/command-user.js';
import { createRunCommandTool } from '../../src/tools/run-command.js';
import type { Tool } from '../../src/tools/tool.js';
import { ToolError } from '../../src/tools/tool-error.js';
import { makeTempDir, removeDir } from './tools-git-fixture.js';
import { isAlive, waitForFile, waitUntilGone } from './tools-process-fixture.js';

/**
 * run_command as a separate user, for real: a throwaway user is created and commands run as it.
 * Only this file uses that user, because after every command everything the user runs is ended
 * (another test file running in parallel with the same user would have its commands killed).
 */

const USER = 'plangate-test-cmd';

function firstExisting(candidates: string[]): string | undefined {
  return candidates.find((file) => fs.existsSync(file));
}

/** Why commands cannot switch users here, or undefined when they can (the throwaway user exists). */
function switchUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'creating a user and switching to it needs root';
  const useradd = firstExisting(['/usr/sbin/useradd', '/sbin/useradd']);
  if (useradd === undefined) return 'useradd is not installed';
  try {
    execFileSync(useradd, ['--no-create-home', '--shell', '/usr/sbin/nologin', USER], { stdio: 'pipe' });
  } catch (error) {
    // Exit status 9: the user exists already, from an earlier run.
    if ((error as { status?: number }).status !== 9) return `useradd ${USER} failed: ${String(error)}`;
  }
  return undefined;
}

const unavailable = switchUnavailable();
const runuser = firstExisting(['/usr/sbin/runuser', '/sbin/runuser']);

// Enough to find node and the system tools; nothing of the test runner's own environment.
const env = { PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`, CI: 'true' };

let dir: string;

beforeEach(() => {
  dir = makeTempDir('plangate-cmd-user-');
  // The command user must be able to enter and write the workspace, as the README asks.
  fs.chmodSync(dir, 0o777);
});

afterEach(() => {
  removeDir(dir);
});

function tool(allowedCommands: string[], commandUser?: string, userSwitch?: CommandUserDeps, timeoutMs = 60_000): Tool<{ command: string }> {
  return createRunCommandTool(dir, { allowedCommands, timeoutMs, env, commandUser, userSwitch }) as Tool<{ command: string }>;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

/** A process that stays alive for a minute, as the action's user, with `extra` in its environment. */
function holder(extra: NodeJS.ProcessEnv): { pid: number; stop(): void } {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { env: extra, stdio: 'ignore' });
  if (child.pid === undefined) throw new Error('holder did not start');
  return { pid: child.pid, stop: () => child.kill('SIGKILL') };
}

/** A node one-liner that starts a detached (setsid) grandchild, records its pid and exits at once. */
function leaveBehind(pidFile: string): string {
  const script = [
    `const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(()=>{}, 60000)'], { detached: true, stdio: 'ignore' });`,
    `require('fs').writeFileSync('${pidFile}', String(c.pid));`,
    `c.unref();`,
  ].join(' ');
  return `node -e "${script}"`;
}

describe('sudoArgs', () => {
  it('runs argv through env -i with exactly the given variables, after sudo’s own options', () => {
    expect(sudoArgs('builder', { PATH: '/usr/bin', HOME: '/home/builder', UNSET: undefined }, ['npm', 'test'])).toEqual([
      '-n',
      '-u',
      'builder',
      '--',
      'env',
      '-i',
      'PATH=/usr/bin',
      'HOME=/home/builder',
      'npm',
      'test',
    ]);
  });

  it('refuses a program name env would read as a variable', () => {
    expect(() => sudoArgs('builder', {}, ['A=b', 'x'])).toThrow(/may not contain "="/);
  });
});

describe.skipIf(unavailable !== undefined)(`run_command as another user${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('looks the user up once, and refuses root and missing users', async () => {
    const identity = await lookUpUser(USER);
    expect(identity.user).toBe(USER);
    expect(identity.uid).toBeGreaterThan(0);
    await expect(prepareCommandUser('root')).rejects.toThrow(/is root \(uid 0\)/);
    await expect(prepareCommandUser('plangate-no-such-user')).rejects.toThrow(/does not exist on this runner/);
  });

  it('runs commands with the user’s uid and gid, HOME and USER', async () => {
    const identity = await lookUpUser(USER);
    const runAs = tool(['id *', 'env'], USER);
    expect(await runAs.run({ command: 'id -u' })).toBe(`$ id -u\nexit code: 0\n${identity.uid}\n`);
    expect(await runAs.run({ command: 'id -g' })).toBe(`$ id -g\nexit code: 0\n${identity.gid}\n`);
    const listed = await runAs.run({ command: 'env' });
    expect(listed).toContain(`\nHOME=${identity.home}\n`);
    expect(listed).toContain(`\nUSER=${USER}\n`);
    expect(listed).toContain('\nCI=true\n');
  });

  it('cannot read the environment of the action’s processes', async () => {
    // /proc/<pid>/environ shows the environment a process started with (setting process.env later
    // does not change it), so the canary sits in the start environment of a process of this user.
    const canary = `plangate-canary-${process.pid}`;
    const other = holder({ PLANGATE_CANARY: canary });
    try {
      // The same command as the action's own user does see it: the check below can fail.
      const asAction = await tool(['cat *']).run({ command: `cat /proc/${other.pid}/environ` });
      expect(asAction).toContain(canary);

      const asUser = await tool(['cat *'], USER).run({ command: `cat /proc/${other.pid}/environ` });
      expect(asUser).not.toContain(canary);
      expect(asUser).toMatch(/exit code: 1\n.*Permission denied/);
      const ownProcess = await tool(['cat *'], USER).run({ command: `cat /proc/${process.pid}/environ` });
      expect(ownProcess).toMatch(/exit code: 1\n.*Permission denied/);
    } finally {
      other.stop();
    }
  });

  it('fails closed with a clear error when the user does not exist, every time', async () => {
    const marker = path.join(dir, 'ran');
    const missing = tool(['touch *'], 'plangate-no-such-user');
    for (let i = 0; i < 2; i += 1) {
      expect(await refusal(missing.run({ command: `touch ${marker}` }))).toMatch(
        /command-user plangate-no-such-user does not exist on this runner.*Nothing was run/s,
      );
    }
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('kills the command’s process group on timeout', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const sleeper = [
      `const fs = require('fs');`,
      `const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(()=>{}, 60000)'], { stdio: 'ignore' });`,
      `fs.writeFileSync('${pidFile}.tmp', String(c.pid)); fs.renameSync('${pidFile}.tmp', '${pidFile}');`,
      `setTimeout(()=>{}, 60000);`,
    ].join(' ');
    // Resolve the user before faking timers; the timeout is then fired by hand.
    const runAs = tool(['node -e *', 'id -u'], USER, undefined, 5_000);
    await runAs.run({ command: 'id -u' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const outcome = refusal(runAs.run({ command: `node -e "${sleeper}"` }));
      await waitForFile(pidFile);
      const pid = Number(fs.readFileSync(pidFile, 'utf8'));
      expect(isAlive(pid)).toBe(true);
      expect(fs.statSync(`/proc/${pid}`).uid).toBe((await lookUpUser(USER)).uid);
      vi.advanceTimersByTime(5_000);
      expect(await outcome).toMatch(/Timed out after 5000 ms/);
      await waitUntilGone(pid);
      expect(isAlive(pid)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends what a command left running outside its process group, which the action’s own user keeps', async () => {
    const ownPidFile = path.join(dir, 'own.pid');
    await tool(['node -e *']).run({ command: leaveBehind(ownPidFile) });
    const ownPid = Number(fs.readFileSync(ownPidFile, 'utf8'));
    try {
      // Without a command user only the process group is ended; setsid escapes it.
      expect(isAlive(ownPid)).toBe(true);
    } finally {
      process.kill(ownPid, 'SIGKILL');
    }

    const pidFile = path.join(dir, 'user.pid');
    expect(await tool(['node -e *'], USER).run({ command: leaveBehind(pidFile) })).toContain('exit code: 0');
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    await waitUntilGone(pid);
    expect(isAlive(pid)).toBe(false);
  });
});

describe.skipIf(unavailable !== undefined || runuser === undefined)(
  `run_command through sudo${unavailable ? ` (skipped: ${unavailable})` : runuser === undefined ? ' (skipped: runuser, which stands in for sudo, is not installed)' : ''}`,
  () => {
    /**
     * A stand-in for sudo that really switches users (runuser, as root) and, like a permissive
     * sudoers policy, adds a variable of its own, which `env -i` must keep away from the command.
     */
    function fakeSudo(body?: string): string {
      const file = path.join(dir, 'sudo');
      const script = body ?? [
        `[ "$1" = -n ] && [ "$2" = -u ] && [ "$4" = -- ] || { echo "fake sudo: unexpected arguments $*" >&2; exit 2; }`,
        `user=$3; shift 4`,
        `SUDO_LEAK=leaked exec ${runuser} -u "$user" -- "$@"`,
      ].join('\n');
      fs.writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
      return file;
    }

    const viaSudo = (sudo: string): CommandUserDeps => ({ isRoot: false, sudo });

    it('runs commands as the user with exactly the curated environment', async () => {
      const identity = await lookUpUser(USER);
      const runAs = tool(['id -u', 'env'], USER, viaSudo(fakeSudo()));
      expect(await runAs.run({ command: 'id -u' })).toBe(`$ id -u\nexit code: 0\n${identity.uid}\n`);
      const listed = await runAs.run({ command: 'env' });
      expect(listed).not.toContain('SUDO_LEAK');
      expect(listed).toContain(`\nHOME=${identity.home}\n`);
      expect(listed).toContain('\nCI=true\n');
    });

    it('fails closed with a clear error when sudo asks for a password', async () => {
      const marker = path.join(dir, 'ran');
      const sudo = fakeSudo(`echo "sudo: a password is required" >&2\nexit 1`);
      const message = await refusal(tool(['touch *'], USER, viaSudo(sudo)).run({ command: `touch ${marker}` }));
      expect(message).toMatch(/Cannot run commands as command-user plangate-test-cmd: sudo -n -u plangate-test-cmd failed \(sudo: a password is required\)/);
      expect(message).toMatch(/passwordless sudo/);
      expect(fs.existsSync(marker)).toBe(false);
    });

    it('fails closed when sudo runs the check as someone else', async () => {
      // A sudo that ignores -u and runs everything as the caller.
      const sudo = fakeSudo(`shift 4\nexec "$@"`);
      expect(await refusal(tool(['id -u'], USER, viaSudo(sudo)).run({ command: 'id -u' }))).toMatch(/ran the check as uid "0"/);
    });

    it('reports a missing program as not found', async () => {
      expect(await refusal(tool(['plangate-no-such-program'], USER, viaSudo(fakeSudo())).run({ command: 'plangate-no-such-program' }))).toMatch(
        /Command not found: plangate-no-such-program/,
      );
    });

    it('ends what a command left running, which killing the sudo process group cannot', async () => {
      const pidFile = path.join(dir, 'left.pid');
      expect(await tool(['node -e *'], USER, viaSudo(fakeSudo())).run({ command: leaveBehind(pidFile) })).toContain('exit code: 0');
      const pid = Number(fs.readFileSync(pidFile, 'utf8'));
      await waitUntilGone(pid);
      expect(isAlive(pid)).toBe(false);
    });
  },
);
