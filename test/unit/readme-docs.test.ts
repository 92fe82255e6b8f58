import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainGitHubError } from '../../src/github/errors.js';
import { repoConfigSchema } from '../../src/config/settings.js';

/**
 * The reference blocks of docs/configuration.md are generated (scripts/readme-tables.mjs) and CI
 * runs its --check: these tests prove the check fails on a stale or wrong page, on a temporary copy
 * so the real one is never touched.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = path.join(root, 'scripts', 'readme-tables.mjs');
const slow = { timeout: 60_000 };

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function run(...args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { cwd: root }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let dir = '';
let fresh = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plangate-readme-'));
  // A copy brought up to date first, so these tests do not depend on the real page being current.
  await writeFile(path.join(dir, 'fresh.md'), await readFile(path.join(root, 'docs', 'configuration.md'), 'utf8'));
  const written = await run('--write', path.join(dir, 'fresh.md'));
  expect(written.code, written.stderr).toBe(0);
  fresh = await readFile(path.join(dir, 'fresh.md'), 'utf8');
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A copy of the fresh page with one change, checked. */
async function checkCopy(name: string, change: (text: string) => string): Promise<Outcome & { text: string }> {
  const file = path.join(dir, name);
  const text = change(fresh);
  expect(text).not.toBe(fresh);
  await writeFile(file, text);
  return { ...(await run('--check', file)), text };
}

/** Replaces the first line of a generated block that contains `needle`. */
function editBlockLine(block: string, needle: string, replacement: (line: string) => string) {
  return (text: string) => {
    const start = text.indexOf(`<!-- ${block}:start -->`);
    const end = text.indexOf(`<!-- ${block}:end -->`);
    const at = text.indexOf(needle, start);
    expect(start).toBeGreaterThan(-1);
    expect(at).toBeGreaterThan(start);
    expect(at).toBeLessThan(end);
    const lineEnd = text.indexOf('\n', at);
    const lineStart = text.lastIndexOf('\n', at) + 1;
    return text.slice(0, lineStart) + replacement(text.slice(lineStart, lineEnd)) + text.slice(lineEnd);
  };
}

describe('readme-tables --check', () => {
  it('passes on an up-to-date docs/configuration.md', slow, async () => {
    const outcome = await run('--check', path.join(dir, 'fresh.md'));
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain('match their sources');
  });

  it.each([
    ['a config-file row', 'config', '`plan-max-age-days`', (line: string) => line.replace('`7`', '`14`')],
    ['an input row', 'inputs', '`max-iterations`', (line: string) => line.replace('`8`', '`10`')],
    ['an output row', 'outputs', '`pr-url`', (line: string) => `${line} (edited)`],
    ['a cost row', 'cost', '| plan only |', (line: string) => line.replace(/\$[0-9.]+/, '$9.9999')],
    ['the proxy cost line', 'network', '`npm ci`', (line: string) => line.replace('`npm ci`', '`npm install`')],
  ])('fails when %s is stale', slow, async (_what, block, needle, replace) => {
    const outcome = await checkCopy(`stale-${block}.md`, editBlockLine(block, needle, replace));
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('differ from their sources');
    expect(outcome.stderr).toContain('--write');
  });

  it('fails when a generated block lost its markers', slow, async () => {
    const outcome = await checkCopy('no-markers.md', (text) => text.replace('<!-- config:end -->', ''));
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('<!-- config:start --> ... <!-- config:end -->');
  });

  it('fails on a .github/plangate.yml example plangate would reject, naming the key', slow, async () => {
    const bad = '\n```yaml\n# .github/plangate.yml\nplan-max-age-dayz: 3\n```\n';
    const outcome = await checkCopy('bad-example.md', (text) => `${text}${bad}`);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('examples plangate would reject');
    expect(outcome.stderr).toContain('plan-max-age-dayz');
  });

  it('ignores YAML blocks that are not the config file', slow, async () => {
    const other = '\n```yaml\nname: some workflow\nunknown-key: 1\n```\n';
    const outcome = await checkCopy('other-yaml.md', (text) => `${text}${other}`);
    expect(outcome.code, outcome.stderr).toBe(0);
  });

  it('--write brings a stale copy back to the generated text', slow, async () => {
    const file = path.join(dir, 'rewrite.md');
    await writeFile(file, editBlockLine('config', '`plan-max-age-days`', (line) => line.replace('`7`', '`14`'))(fresh));
    expect((await run('--write', file)).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(fresh);
    expect((await run('--check', file)).code).toBe(0);
  });

  it.each([
    [
      'a default differs',
      (yml: string) => yml.replace("default: '8'\n  parallel-steps", "default: '12'\n  parallel-steps"),
      'max-iterations: action.yml says "12", the table "8"',
    ],
    [
      'an input has no row',
      (yml: string) =>
        yml.replace('\noutputs:', '  new-input:\n    description: A new input.\n    required: false\n\noutputs:'),
      'new-input is an input without a row in the table',
    ],
    [
      'a row has no input',
      (yml: string) => yml.replace(/\n {2}stall-limit:\n( {4}.*\n)+?(?= {2}\S)/, '\n'),
      'stall-limit is in the table but is no input of action.yml',
    ],
  ])('fails when action.yml and the defaults table disagree: %s', slow, async (_what, change, message) => {
    const manifest = await readFile(path.join(root, 'action.yml'), 'utf8');
    const changed = change(manifest);
    expect(changed).not.toBe(manifest);
    const file = path.join(dir, 'action.yml');
    await writeFile(file, changed);
    const outcome = await run('--check', path.join(dir, 'fresh.md'), '--action', file);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('src/config/defaults.ts');
    expect(outcome.stderr).toContain(message);
  });

  it('documents every key of the config schema', slow, async () => {
    const printed = await run();
    expect(printed.code, printed.stderr).toBe(0);
    for (const key of Object.keys(repoConfigSchema.shape)) {
      expect(printed.stdout).toContain(`| \`${key}\` |`);
    }
  });

  it(
    "states on the README's first screen what a /plan and an /approve cost and take, with the models",
    slow,
    async () => {
      const printed = await run();
      expect(printed.code, printed.stderr).toBe(0);
      const block = /<!-- typical-run:start -->\n([\s\S]*?)\n<!-- typical-run:end -->/.exec(printed.stdout)?.[1] ?? '';
      expect(block).toMatch(/a `\/plan` cost \$0\.\d+ on the default planner `gpt-4\.1`/);
      expect(block).toMatch(/`\/approve` of a three-step plan \$0\.\d+ \(\d+ requests: `gpt-4\.1-mini` executing/);
      expect(block).toMatch(/took \d+\.\d s and \d+\.\d s, plangate's own time/);
      // The README is checked by --check without a file; here: it holds this block, near its top.
      const readme = await readFile(path.join(root, 'README.md'), 'utf8');
      expect(readme.indexOf(block)).toBeGreaterThan(-1);
      expect(readme.indexOf(block)).toBeLessThan(readme.indexOf('## Quick start'));
    },
  );
});

describe('docs/troubleshooting.md quotes plangate', () => {
  const forbidden = (message: string, url: string, method = 'POST') =>
    Object.assign(new Error(message), {
      status: 403,
      request: { method, url },
      response: { headers: {}, data: { message } },
    });

  it('quotes the pull-requests-disabled explanation word for word', async () => {
    const page = await readFile(path.join(root, 'docs', 'troubleshooting.md'), 'utf8');
    const { kind, message } = explainGitHubError(
      forbidden(
        'GitHub Actions is not permitted to create or approve pull requests.',
        'https://api.github.com/repos/octo/widgets/pulls',
      ),
    );
    expect(kind).toBe('pull-requests-disabled');
    expect(page).toContain(message);
  });

  it('quotes the missing-permission explanation word for word', async () => {
    const page = await readFile(path.join(root, 'docs', 'troubleshooting.md'), 'utf8');
    const { kind, message } = explainGitHubError(
      forbidden('Resource not accessible by integration', 'https://api.github.com/repos/octo/widgets/pulls'),
    );
    expect(kind).toBe('missing-permission');
    expect(page).toContain(message);
  });
});
