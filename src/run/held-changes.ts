import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as core from '@actions/core';
import type { AmendmentRecord } from '../record/amendment-record.js';
import type { Git } from '../repo/git.js';
import { errorMessage } from '../text/error-message.js';
import { maskCredentials } from '../repo/credential-mask.js';

/**
 * The changes the commit gate held back for being outside the run's scope, carried by an amendment:
 * taken as a diff when the run stops for it, and applied to the work tree when it is approved, so
 * they land with the next commit and nothing the executor did is lost.
 */

/** Held-back changes carried by an amendment: at most this much diff, cut at a line. */
const maxHeldDiffChars = 30_000;

/**
 * The held-back changes at `paths` as a diff against HEAD: new files included (shown to git as
 * intended additions for the diff alone), cut to fit an amendment. The amendment comment shows the
 * diff, so each path's part is read by the credential scan first: one it finds a credential in is
 * left out and named with the rules that fired, never shown.
 */
export async function heldDiff(
  git: Git,
  workTree: string,
  paths: readonly string[],
): Promise<Pick<AmendmentRecord, 'heldDiff' | 'heldDiffCut' | 'heldWithheld'>> {
  if (paths.length === 0) return {};
  const present = paths.filter((p) => existsSync(path.join(workTree, p)));
  try {
    if (present.length) await git(['add', '--intent-to-add', '--', ...present]);
    const parts: string[] = [];
    const withheld: Array<{ path: string; rules: string[] }> = [];
    for (const held of paths) {
      const part = await git(['diff', '--no-color', '--no-ext-diff', '--no-textconv', 'HEAD', '--', held]);
      if (part === '') continue;
      const { rules } = await maskCredentials(part);
      if (rules.length > 0) withheld.push({ path: held, rules });
      else parts.push(part);
    }
    const diff = parts.join('\n');
    const shown = withheld.length > 0 ? { heldWithheld: withheld } : {};
    if (diff.length <= maxHeldDiffChars) return { ...(diff ? { heldDiff: diff } : {}), ...shown };
    const cut = diff.slice(0, diff.lastIndexOf('\n', maxHeldDiffChars));
    return { heldDiff: cut, heldDiffCut: true, ...shown };
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
