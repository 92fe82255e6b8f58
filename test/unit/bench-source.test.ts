import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// scripts/bench-source.mjs --check, as .ci/run runs it, on a copy of the project's sources: it passes
// for results recorded from the same sources and fails once a file that decides the figures changes.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let copy: string;

/** Runs the script in the copy; its exit code and what it printed. */
function script(...args: string[]): { code: number | null; text: string } {
  const result = spawnSync(process.execPath, [path.join(copy, 'scripts/bench-source.mjs'), ...args], {
    cwd: copy,
    encoding: 'utf8',
  });
  return { code: result.status, text: result.stdout + result.stderr };
}

/** Records `hash` as the results' source, as `npm run bench` does. */
function recordResults(hash: string, reportLine = `Source hash: \`${hash}\` over 1 files`): void {
  fs.writeFileSync(path.join(copy, 'bench/results.json'), JSON.stringify({ source: { hash, files: 1 } }));
  fs.writeFileSync(path.join(copy, 'bench/RESULTS.md'), `# results\n\n${reportLine}\n`);
}

beforeAll(() => {
  copy = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'plangate-bench-source-')));
  for (const part of ['src', 'bench', 'test', 'scripts', 'docs'])
    fs.cpSync(path.join(root, part), path.join(copy, part), { recursive: true });
  for (const file of ['package-lock.json', 'action.yml', 'tsconfig.json', 'README.md'])
    fs.copyFileSync(path.join(root, file), path.join(copy, file));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
});
afterAll(() => {
  fs.rmSync(copy, { recursive: true, force: true });
});

describe('the benchmark results check', () => {
  it('passes for results from these sources, whatever happens to docs and other tests', () => {
    const { hash, files } = JSON.parse(script().text) as { hash: string; files: number };
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(files).toBeGreaterThan(100);
    recordResults(hash);
    expect(script('--check')).toMatchObject({ code: 0 });
    fs.appendFileSync(path.join(copy, 'README.md'), '\nMore words.\n');
    fs.appendFileSync(path.join(copy, 'test/unit/layering.test.ts'), '\n// A note.\n');
    expect(script('--check')).toMatchObject({ code: 0 });
  });

  it.for(['src/tools/read-tools.ts', 'bench/targets.ts', 'test/fakes/prompt-cache.ts', 'package-lock.json'])(
    'fails once %s changes, naming both hashes and the command that regenerates them',
    (file) => {
      const before = (JSON.parse(script().text) as { hash: string }).hash;
      recordResults(before);
      const original = fs.readFileSync(path.join(copy, file));
      try {
        fs.appendFileSync(path.join(copy, file), '\n');
        const after = script('--check');
        expect(after.code).toBe(1);
        expect(after.text).toContain(`measured from sources with hash ${before}`);
        expect(after.text).toContain('npm run bench');
      } finally {
        fs.writeFileSync(path.join(copy, file), original);
      }
    },
  );

  it('fails for results without a hash, and a report not rendered from them', () => {
    const { hash } = JSON.parse(script().text) as { hash: string };
    fs.writeFileSync(path.join(copy, 'bench/results.json'), JSON.stringify({ command: 'npm run bench' }));
    expect(script('--check')).toMatchObject({ code: 1, text: expect.stringContaining('records no source hash') });
    recordResults(hash, 'Source hash: `0000` over 1 files');
    expect(script('--check')).toMatchObject({
      code: 1,
      text: expect.stringContaining('bench/RESULTS.md does not name'),
    });
  });
});
