import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { z } from 'zod';
import type { Helpers } from '../account/account-switch.js';
import { locate } from '../account/run-helper.js';

/**
 * The root process that holds iptables rules for the length of a job (network-iptables.ts). iptables
 * has no table that the kernel deletes with its owner, as nftables has, so a process must remove
 * the rules: this one, started as root (directly, or through `sudo -n`) in a session of its own, so
 * that the runner's signal to the action's process group does not reach it. It installs the rules,
 * answers the action's questions on its stdin (are they in force, what did they count), and when
 * its stdin ends, which the kernel does when the action exits whatever way (a SIGKILL included), it
 * removes them and exits. SIGTERM, SIGINT and SIGHUP remove them too.
 *
 * Started as `node -e <holderProgram> <config>`: plain CommonJS that needs nothing but node, so the
 * bundle carries it as text and writes no file for it; every program it runs is named by absolute
 * path in the config, which holds no secret (every account can read a command line).
 */

/** What the holder runs: each command a program by absolute path and its arguments. */
export interface HolderConfig {
  /** The PATH the commands get (absolute entries only). */
  path: string;
  /** Run in order at start, each given `input` on its stdin; the first that fails ends the start. */
  install: { command: string[]; input: string }[];
  /** Run at the end, and after a failed start; their failures are ignored (part may not exist). */
  remove: string[][];
  /** Every one succeeds while the rules are in force. */
  check: string[][];
  /** What `read` answers: each command's output, then each file's text. */
  read: { commands: string[][]; files: string[] };
}

/** A `read`'s answer: each command's output and each file's text, in the config's order; null: failed or missing. */
export interface HolderReading {
  outputs: (string | null)[];
  files: (string | null)[];
}

export interface Holder {
  /** The holder's process id (sudo's where it runs through sudo). */
  readonly pid: number | undefined;
  /** Undefined while the rules are in force; otherwise why not. */
  check(): Promise<string | undefined>;
  read(): Promise<HolderReading>;
  /**
   * Ends the holder's stdin and waits until it removed the rules and exited. Resolves false when it
   * had ended before without removing them (it was killed). Never throws.
   */
  close(): Promise<boolean>;
}

/** The words the holder names itself with on its command line, so an administrator can tell it in `ps`. */
export const holderMarker = 'plangate-firewall-holder';

export const holderProgram = `'use strict';
const { spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const config = JSON.parse(process.argv[1]);
const run = (argv, input) => {
  const r = spawnSync(argv[0], argv.slice(1), { input: input || '', encoding: 'utf8', env: { PATH: config.path }, timeout: 60000, maxBuffer: 16777216 });
  const why = String(r.stderr || (r.error && r.error.message) || '').trim().split('\\n').filter((l) => !/^# Warning/.test(l)).slice(0, 4).join(' ');
  return { ok: r.status === 0, out: String(r.stdout || ''), why: why || 'exit code ' + r.status };
};
const say = (value) => { try { process.stdout.write(JSON.stringify(value) + '\\n'); } catch (e) {} };
let removed = false;
const remove = () => { if (!removed) { removed = true; for (const argv of config.remove) run(argv); } };
const end = () => { remove(); process.exit(0); };
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, end);
process.stdout.on('error', () => undefined);
for (const step of config.install) {
  const r = run(step.command, step.input);
  if (!r.ok) { remove(); say({ failed: r.why }); process.exit(1); }
}
say({ ready: true });
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  for (let at = pending.indexOf('\\n'); at !== -1; at = pending.indexOf('\\n')) {
    const line = pending.slice(0, at);
    pending = pending.slice(at + 1);
    if (line === 'check') {
      const failed = config.check.map((argv) => run(argv)).find((r) => !r.ok);
      say(failed ? { held: false, why: failed.why } : { held: true });
    } else if (line === 'read') {
      const outputs = config.read.commands.map((argv) => run(argv)).map((r) => (r.ok ? r.out : null));
      const files = config.read.files.map((file) => { try { return readFileSync(file, 'utf8'); } catch (e) { return null; } });
      say({ outputs, files });
    }
  }
});
process.stdin.on('end', end);
process.stdin.on('error', end);
`;

const answerSchema = z.union([
  z.object({ ready: z.literal(true) }),
  z.object({ failed: z.string() }),
  z.object({ held: z.literal(true) }),
  z.object({ held: z.literal(false), why: z.string() }),
  z.object({ outputs: z.array(z.string().nullable()), files: z.array(z.string().nullable()) }),
]);
type Answer = z.infer<typeof answerSchema>;

/** How long the holder may take to install the rules or answer a question. */
const ANSWER_TIMEOUT_MS = 60_000;

/**
 * Starts the holder as root (`how`), waits until the rules are installed, and returns it. Throws an
 * Error with the firewall's own words when they could not be.
 */
export async function startHolder(
  config: HolderConfig,
  h: Helpers,
  how: 'root' | 'sudo',
  node: string = process.execPath,
): Promise<Holder> {
  const args = ['-e', holderProgram, JSON.stringify(config), holderMarker];
  const [file, argv] = how === 'root' ? [node, args] : [locate(h.programs, h.sudo), ['-n', node, ...args]];
  // detached: a session of its own, beyond the runner's signal to the action's process group.
  const child = spawn(file, argv, { cwd: '/', env: { PATH: h.programs.path }, stdio: 'pipe', detached: true });
  child.stdin.on('error', () => undefined);
  const answers = lineReader(child);
  const first = await answers.next();
  if (!('ready' in first)) {
    child.stdin.end();
    throw new Error('failed' in first ? first.failed : 'the firewall holder answered out of turn');
  }
  let queue: Promise<unknown> = Promise.resolve();
  const ask = <T>(question: string, take: (answer: Answer) => T): Promise<T> => {
    const next = queue.then(async () => {
      if (ended(child)) throw new Error('the firewall holder has ended');
      child.stdin.write(`${question}\n`);
      return take(await answers.next());
    });
    queue = next.catch(() => undefined);
    return next;
  };
  let closing: Promise<boolean> | undefined;
  return {
    pid: child.pid,
    check: () =>
      ended(child)
        ? Promise.resolve(`the process that holds the rules (pid ${child.pid ?? 'unknown'}) has ended`)
        : ask('check', (a) =>
            'held' in a ? (a.held ? undefined : a.why) : 'the firewall holder answered out of turn',
          ).catch((error: unknown) => (error instanceof Error ? error.message : String(error))),
    read: () =>
      ask('read', (a) => {
        if (!('outputs' in a)) throw new Error('the firewall holder answered out of turn');
        return a;
      }),
    close: () =>
      (closing ??= new Promise<boolean>((resolve) => {
        if (ended(child)) {
          resolve(false);
          return;
        }
        child.once('exit', (code) => resolve(code === 0));
        child.stdin.end();
      })),
  };
}

function ended(child: ChildProcessWithoutNullStreams): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * The holder's answers, one JSON line each, in order. `next` rejects when the holder ends or
 * stays silent for {@link ANSWER_TIMEOUT_MS}, with its last words on stderr.
 */
function lineReader(child: ChildProcessWithoutNullStreams): { next(): Promise<Answer> } {
  let buffered = '';
  let stderr = '';
  const lines: string[] = [];
  let waiting: { resolve(line: string): void; reject(error: Error): void } | undefined;
  let over: Error | undefined;
  const deliver = () => {
    if (!waiting) return;
    const line = lines.shift();
    if (line !== undefined) {
      const w = waiting;
      waiting = undefined;
      w.resolve(line);
    } else if (over) {
      const w = waiting;
      waiting = undefined;
      w.reject(over);
    }
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
      lines.push(buffered.slice(0, at));
      buffered = buffered.slice(at + 1);
    }
    deliver();
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  const finish = (why: string) => {
    over ??= new Error(`${why}${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : ''}`);
    deliver();
  };
  child.once('error', (error) => finish(`the firewall holder could not start (${error.message})`));
  child.once('close', (code, signal) =>
    finish(`the firewall holder ended (${signal !== null ? `signal ${signal}` : `exit code ${code ?? 'unknown'}`})`),
  );
  return {
    next: () =>
      new Promise<Answer>((resolve, reject) => {
        const timer = setTimeout(() => {
          // A late answer would be taken for the next question's: the holder is not asked again.
          over ??= new Error(`the firewall holder did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`);
          waiting = undefined;
          reject(over);
        }, ANSWER_TIMEOUT_MS);
        waiting = {
          resolve: (line) => {
            clearTimeout(timer);
            const parsed = answerSchema.safeParse(safeJson(line));
            if (parsed.success) resolve(parsed.data);
            else reject(new Error(`the firewall holder said something unreadable: ${line.slice(0, 200)}`));
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        deliver();
      }),
  };
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
