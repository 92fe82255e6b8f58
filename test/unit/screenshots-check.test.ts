import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The docs' pictures are made by scripts/screenshots.mjs from what the demo posts, and CI runs its
 * --check, which plays the demo again (the bundled action, the emulator, the scripted model) without
 * a browser. These tests prove it passes on the committed images and fails on stale or replaced ones:
 * on copies of docs/images, so the real ones are never touched.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = path.join(root, 'scripts', 'screenshots.mjs');
const slow = { timeout: 120_000 };

function check(images: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, '--check', '--images', images], { cwd: root }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plangate-screenshots-'));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('screenshots --check', () => {
  it('passes on the committed images: the demo posts today what they show', slow, async () => {
    const outcome = await check(path.join(root, 'docs', 'images'));
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain('3 images match what the demo posts');
  });

  it('fails on an image rendered from other Markdown, and on an image the script did not make', slow, async () => {
    const copy = path.join(dir, 'images');
    await cp(path.join(root, 'docs', 'images'), copy, { recursive: true });
    const manifestFile = path.join(copy, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as {
      images: Record<string, { markdownSha256: string }>;
    };
    const progress = manifest.images['progress-comment.png'];
    expect(progress?.markdownSha256).toMatch(/^[0-9a-f]{64}$/);
    if (progress) progress.markdownSha256 = '0'.repeat(64);
    await writeFile(manifestFile, JSON.stringify(manifest));
    await writeFile(path.join(copy, 'plan-comment.png'), Buffer.from('not the rendered picture'));
    const outcome = await check(copy);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('progress-comment.png shows the progress comment as it was');
    expect(outcome.stderr).toContain('plan-comment.png is not the image the script made');
    expect(outcome.stderr).not.toContain('pull-request-body.png');
    expect(outcome.stderr).toContain('run: node scripts/screenshots.mjs');
  });
});
