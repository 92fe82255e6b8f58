import { readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deleteAccount, localAccounts } from './accounts.js';
import { describeProcesses, leftovers, takeBaseline, type Baseline } from './processes.js';
import { freshTag, madeForRun, RUN_TAG_ENV } from './unique-names.js';

/**
 * vitest's global setup (vitest.config.ts). Before the suite: a tag for this run, which every worker
 * inherits (test/helpers/unique-names.ts), and the process table. After it:
 *
 * - No process the suite started may still be alive. A leftover is listed and fails the run: it is
 *   a bug in a test or in plangate (a server not waited for, a child not killed), and left alone it
 *   piles up on the machine run after run.
 * - Accounts and temp-dir entries named for this run are removed: the runner accounts, which the
 *   end-to-end tests share for the whole run (test/e2e/runner-accounts.ts), and anything a test
 *   that failed half-way did not remove itself.
 */

/** How long exiting processes get to be gone (a SIGKILL just sent, a parent about to reap). */
const graceMs = 5_000;

let baseline: Baseline | undefined;
let tag = '';

export function setup(): void {
  tag = freshTag();
  process.env[RUN_TAG_ENV] = tag;
  baseline = takeBaseline(`${RUN_TAG_ENV}=${tag}`);
}

export async function teardown(): Promise<void> {
  const problems: string[] = [];
  if (baseline) {
    let left = leftovers(baseline);
    for (const deadline = Date.now() + graceMs; left.length > 0 && Date.now() < deadline; left = leftovers(baseline)) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (left.length > 0) {
      problems.push(
        `${left.length} process(es) started by the test suite outlived it:\n${describeProcesses(left)}\nEvery test must stop and wait for what it starts (see test/helpers/global-setup.ts).`,
      );
    }
  } else if (process.platform === 'linux') {
    problems.push('could not read the process table (/proc), so leftover processes were not checked');
  }
  problems.push(...removeRunLeftovers(tag));
  if (problems.length === 0) return;
  const report = `plangate test suite teardown (run ${tag}):\n${problems.map((p) => `- ${p}`).join('\n')}`;
  console.error(`\n${'!'.repeat(100)}\n${report}\n${'!'.repeat(100)}\n`);
  process.exitCode = 1;
  throw new Error(`the test suite left processes or test accounts behind (run ${tag}); the report is above`);
}

/**
 * Deletes accounts and temp-dir entries named for this run that tests did not remove themselves;
 * only the ones it could not remove are problems (a test that cleans up after itself is expected to,
 * but a crash mid-test is no reason to fail the run twice).
 */
function removeRunLeftovers(runTag: string): string[] {
  if (!runTag) return [];
  const problems: string[] = [];
  if (process.getuid?.() === 0) {
    for (const name of localAccounts().keys()) {
      if (!madeForRun(name, runTag)) continue;
      const failed = deleteAccount(name);
      if (failed) problems.push(`could not delete the test account ${name}: ${failed}`);
    }
  }
  for (const dir of new Set([os.tmpdir(), '/tmp'])) {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      continue;
    }
    for (const entry of entries.filter((e) => madeForRun(e, runTag))) {
      try {
        rmSync(path.join(dir, entry), { recursive: true, force: true });
      } catch (error) {
        problems.push(`could not remove ${path.join(dir, entry)}: ${String(error)}`);
      }
    }
  }
  return problems;
}
