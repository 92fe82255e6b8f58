import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as core from '@actions/core';
import type { AmendmentRecord } from '../record/amendment-record.js';
import type { Git } from '../repo/git.js';
import { errorMessage } from '../text/error-message.js';

/**
 * The changes the commit gate held back for being outside the run's scope, carried by an amendment:
 * taken as a diff when the run stops for it, and applied to the work tree when it is approved, so
 * they land with the next commit and nothing the executor did is lost.
 */

/** Held-back changes carried by an amendment: at most this much diff, cut at a line. */
const maxHeldDiffChars = 30_000;

/**
 * The held-back changes at `paths` as a diff against HEAD: new files included (shown to git as
 * intended additions for the diff alone), cut to fit an amendment.
 */
export async function heldDiff(
  git: Git,
  workTree: string,
  paths: readonly string[],
): Promise<Pick<AmendmentRecord, 'heldDiff' | 'heldDiffCut'>> {
  if (paths.length === 0) return {};
  const present = paths.filter((p) => existsSync(path.join(workTree, p)));
  try {
    if (present.length) await git(['add', '--intent-to-add', '--', ...present]);
    const diff = await git(['diff', '--no-color', '--no-ext-diff', '--no-textconv', 'HEAD', '--', ...paths]);
    if (diff.length <= maxHeldDiffChars) return diff ? { heldDiff: diff } : {};
    const cut = diff.slice(0, diff.lastIndexOf('\n', maxHeldDiffChars));
    return { heldDiff: cut, heldDiffCut: true };
  } catch (error) {
    core.warning(`Could not record the held-back changes for the amendment: ${errorMessage(error)}`);
    return {};
  } finally {
    await git(['reset', '-q', '--', ...paths]).catch(() => undefined);
  }
}

/** Lands an approved amendment's held-back changes in the work tree, as the executor left them. */
export async function applyHeldChanges(git: Git, amendment: AmendmentRecord): Promise<void> {
  if (!amendment.heldDiff || amendment.heldDiffCut) return;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plangate-held-'));
  const file = path.join(dir, 'held.diff');
  try {
    writeFileSync(file, `${amendment.heldDiff}\n`, { mode: 0o600 });
    await git(['apply', '--whitespace=nowarn', file]);
  } catch (error) {
    core.warning(
      `The held-back changes of amendment ${amendment.amendmentId} did not apply (${errorMessage(error)}); the executor works without them.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
