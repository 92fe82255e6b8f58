import { execFileSync, spawnSync } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  chownSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { openCheckoutPassage } from '../helpers/checkout-passage.js';
import { runTag } from '../helpers/unique-names.js';

/**
 * The accounts real runners run the action as, made on this machine so the end-to-end tests can run
 * the bundled action the same way (see `createWorld`'s `runAs`):
 *
 * - `pg-e2e-runner-<run tag>` ({@link RUNNER_ACCOUNT_NAMES}.sudo): non-root with passwordless sudo,
 *   like the `runner` user of GitHub-hosted runners (`/etc/sudoers.d/<its name>`: `ALL=(ALL) NOPASSWD:ALL`).
 * - `pg-e2e-nosudo-<run tag>` ({@link RUNNER_ACCOUNT_NAMES}.nosudo): non-root with no sudo rule at all,
 *   like a self-hosted runner's service account, where no account switch is possible.
 *
 * Both are created on first use, idempotently (another test file's worker of the same run finds them
 * made), and only when the test process is root. They are named for the test run (the run tag of
 * test/helpers/unique-names.ts), so no other run, at the same time or later, shares one or finds
 * what a crashed run left in it; the global teardown (test/helpers/global-setup.ts) deletes them, with
 * their homes and sudoers rules. The names carry a `pg-e2e-` prefix so they cannot collide with an
 * account anything else on the machine relies on. Nothing is installed
 * here: a test never reaches the network, so a missing `sudo` or `useradd` is a skip reason, or, with
 * `PLANGATE_E2E_REQUIRE_ACCOUNTS=1` (set by .ci/run, which installs sudo), a failure.
 */

/** An account the action can be run as: what spawning a process as it needs. */
export interface RunnerAccount {
  user: string;
  uid: number;
  gid: number;
  home: string;
}

/** The account, or why these tests cannot have it here. */
export type RunnerAccountResult = { account: RunnerAccount; skip?: undefined } | { account?: undefined; skip: string };

/** Which kind of runner account: with passwordless sudo, or with no sudo rule. */
export type RunnerAccountKind = 'sudo' | 'nosudo';

/** The account names' stems, one per kind, as test titles name them; see {@link runnerAccountName}. */
export const RUNNER_ACCOUNT_NAMES: Readonly<Record<RunnerAccountKind, string>> = {
  sudo: 'pg-e2e-runner',
  nosudo: 'pg-e2e-nosudo',
};

/** The account of this kind for this test run: its stem and the run's tag. */
export function runnerAccountName(kind: RunnerAccountKind): string {
  return `${RUNNER_ACCOUNT_NAMES[kind]}-${runTag()}`;
}

/** Makes a missing prerequisite fail the tests instead of skipping them (CI sets it). */
export const REQUIRE_ACCOUNTS_ENV = 'PLANGATE_E2E_REQUIRE_ACCOUNTS';

const SUDOERS_DIR = '/etc/sudoers.d';
/** Where root's tools live even when the test process's PATH leaves them out. */
const ADMIN_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** The executable `name` on PATH or in the usual admin folders, or undefined. */
function findExecutable(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...ADMIN_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Reads an account from the passwd database (NSS included), or undefined when there is none. */
function lookUp(user: string): RunnerAccount | undefined {
  const result = spawnSync('getent', ['passwd', user], { encoding: 'utf8' });
  let line = result.status === 0 ? result.stdout.trim() : undefined;
  if (result.error) {
    // No getent: the local passwd file is where useradd writes anyway.
    line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${user}:`));
  }
  if (!line) return undefined;
  const [name = '', , uid = '', gid = '', , home = ''] = line.split(':');
  if (name !== user || !/^\d+$/.test(uid) || !/^\d+$/.test(gid) || home === '') {
    throw new Error(`unreadable passwd entry for ${user}: ${line}`);
  }
  return { user, uid: Number(uid), gid: Number(gid), home };
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Creates the account with a home directory unless it exists. useradd locks the passwd files, so a
 * worker creating the same account at the same moment makes this attempt fail: look again, retry.
 */
function ensureAccount(user: string, useradd: string): RunnerAccount {
  let lastError = '';
  for (let attempt = 0; attempt < 10; attempt++) {
    const existing = lookUp(user);
    if (existing) {
      if (existing.uid === 0) throw new Error(`account ${user} exists with uid 0: it must be an unprivileged account`);
      if (!existsSync(existing.home)) {
        mkdirSync(existing.home, { recursive: true, mode: 0o755 });
        chownSync(existing.home, existing.uid, existing.gid);
      }
      return existing;
    }
    const result = spawnSync(
      useradd,
      ['--create-home', '--user-group', '--comment', 'plangate e2e runner account', user],
      { encoding: 'utf8' },
    );
    if (result.status === 0) continue;
    lastError = (result.error?.message ?? result.stderr).trim();
    sleepMs(100 * (attempt + 1));
  }
  throw new Error(`could not create account ${user}: ${lastError}`);
}

/** Writes `/etc/sudoers.d/<user>` granting passwordless sudo, checked before it takes effect. */
function grantSudo(user: string): void {
  const file = path.join(SUDOERS_DIR, user);
  const rule = `${user} ALL=(ALL) NOPASSWD:ALL\n`;
  if (existsSync(file) && readFileSync(file, 'utf8') === rule) {
    chmodSync(file, 0o440);
    return;
  }
  mkdirSync(SUDOERS_DIR, { recursive: true, mode: 0o755 });
  // sudo ignores names with a dot, so the file is inert until the rename puts it in place.
  const staged = path.join(SUDOERS_DIR, `.${user}.${process.pid}.tmp`);
  writeFileSync(staged, rule, { mode: 0o440 });
  try {
    chmodSync(staged, 0o440);
    const visudo = findExecutable('visudo');
    if (visudo) execFileSync(visudo, ['-cf', staged], { stdio: ['ignore', 'pipe', 'pipe'] });
    renameSync(staged, file);
  } finally {
    rmSync(staged, { force: true });
  }
}

/** Whether `sudo -n true` succeeds when run as the account: what "passwordless sudo" means. */
function canSudo(account: RunnerAccount, sudo: string): boolean {
  const result = spawnSync(sudo, ['-n', 'true'], {
    uid: account.uid,
    gid: account.gid,
    env: { PATH: ADMIN_DIRS.join(':'), HOME: account.home },
    cwd: '/',
    stdio: 'ignore',
  });
  return result.status === 0;
}

/**
 * Why the account cannot run this checkout's node and read its files (for one under a folder only
 * root may enter, such as /root), or undefined when it can.
 */
function unreachable(account: RunnerAccount): string | undefined {
  const project = process.cwd();
  const result = spawnSync(process.execPath, ['-e', 'require("node:fs").readdirSync(process.argv[1])', project], {
    uid: account.uid,
    gid: account.gid,
    env: { PATH: ADMIN_DIRS.join(':'), HOME: account.home },
    cwd: '/',
    encoding: 'utf8',
  });
  if (result.status === 0) return undefined;
  const why =
    (result.error?.message ?? result.stderr)
      .trim()
      .split('\n')
      .find((l) => /EACCES|denied/i.test(l)) ?? `exit ${result.status}`;
  return `${account.user} cannot run ${process.execPath} or read ${project} (${why})`;
}

/** What sudo itself says the account may run, asked as root (so no "incident" is logged). */
function sudoRules(user: string, sudo: string): string {
  // In the C locale, so the answer is in the words matched below.
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C', LANGUAGE: '' };
  return execFileSync(sudo, ['-n', '-l', '-U', user], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] });
}

function prepare(kind: RunnerAccountKind): RunnerAccountResult {
  const user = runnerAccountName(kind);
  const uid = process.getuid?.();
  if (uid !== 0) {
    return {
      skip: `the test process is not root (uid ${uid ?? 'unknown'}), so it cannot create ${user} or run the action as it`,
    };
  }
  const useradd = findExecutable('useradd');
  if (!useradd) return { skip: `useradd is not installed, so ${user} cannot be created` };
  const sudo = findExecutable('sudo');
  if (kind === 'sudo' && !sudo)
    return { skip: `sudo is not installed, so ${user} cannot have passwordless sudo (.ci/run installs it)` };

  const account = ensureAccount(user, useradd);
  let blocked = unreachable(account);
  if (blocked !== undefined) {
    // A checkout under a folder only its owner may enter: the account is let through, as a real runner's user owns its copy.
    const why = openCheckoutPassage(account.uid, account.gid);
    blocked = why === undefined ? unreachable(account) : `${blocked} (${why})`;
  }
  if (blocked) return { skip: blocked };
  if (kind === 'sudo') {
    grantSudo(user);
    if (sudo && !canSudo(account, sudo)) {
      throw new Error(
        `${user} has ${SUDOERS_DIR}/${user} but \`sudo -n true\` fails as it: does /etc/sudoers include ${SUDOERS_DIR}?`,
      );
    }
  } else {
    // Only a rule of ours is removed; a rule from elsewhere (a group, say) is a broken premise, reported below.
    rmSync(path.join(SUDOERS_DIR, user), { force: true });
    if (sudo) {
      const rules = sudoRules(user, sudo);
      if (!/is not allowed to run sudo/.test(rules)) {
        throw new Error(`${user} must have no sudo rule, but sudo lists:\n${rules}`);
      }
    }
  }
  return { account };
}

const prepared = new Map<RunnerAccountKind, RunnerAccountResult>();

/**
 * The runner account of this kind, created if needed, or the reason it cannot be had here (not root,
 * sudo or useradd missing, the checkout unreadable to other accounts). With PLANGATE_E2E_REQUIRE_ACCOUNTS=1 a reason throws instead, so CI
 * never skips these tests silently. A machine in a state the tests cannot trust (the no-sudo account
 * able to sudo, the sudo account unable to) always throws.
 */
export function runnerAccount(kind: RunnerAccountKind): RunnerAccountResult {
  let result = prepared.get(kind);
  if (!result) {
    result = prepare(kind);
    prepared.set(kind, result);
  }
  if (result.skip !== undefined && process.env[REQUIRE_ACCOUNTS_ENV] === '1') {
    throw new Error(`${REQUIRE_ACCOUNTS_ENV}=1 requires the ${kind} runner account, but ${result.skip}`);
  }
  return result;
}

/** A way to run the action in the end-to-end tests: as root, or as the runner account of `kind`. */
export interface RunnerChoice {
  title: string;
  kind?: RunnerAccountKind;
}

/** As root and as a non-root account with passwordless sudo, as GitHub-hosted runners run it. */
export const rootAndSudoRunners: readonly RunnerChoice[] = [
  { title: 'as root' },
  { title: `as ${RUNNER_ACCOUNT_NAMES.sudo}, a non-root account with passwordless sudo`, kind: 'sudo' },
];

/** The account the action runs as, or a reason to skip (never under CI, where it throws). */
export function accountFor(kind: RunnerAccountKind | undefined): { runAs?: RunnerAccount; skip?: string } {
  if (kind === undefined) return process.getuid?.() === 0 ? {} : { skip: 'the test process is not root' };
  const prepared = runnerAccount(kind);
  return prepared.skip !== undefined ? { skip: prepared.skip } : { runAs: prepared.account };
}
