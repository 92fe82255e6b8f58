import type { Snapshot } from '../machine/types.js';
import { createNotices, type Notices } from '../agents/notices.js';
import { mergeKeptOut, type KeptOutChange } from '../repo/change-gate.js';

/**
 * The commit that closes each cycle: its message (shared by both hosts, so a cycle's commit reads
 * the same whether the action or the CLI made it) and, for the action, what the commit gate kept
 * out of it, remembered for the run's report and told to the executor once.
 */

/** The longest directive line a commit subject quotes. */
const maxTitleChars = 60;

/**
 * `plangate: cycle <n> of plan <id>: <directive's first line>`; with the issue, a `Refs #<n>` line
 * links the commit to the thread (the CLI has none). Trailers are added by whoever commits.
 */
export function cycleCommitMessage(snapshot: Snapshot, planId: string, issue?: number): string {
  const cycle = snapshot.context.history.length;
  const title = (snapshot.context.history.at(-1)?.directive.split('\n')[0] ?? '').slice(0, maxTitleChars);
  const subject = `plangate: cycle ${cycle} of plan ${planId}: ${title}`;
  return issue === undefined ? subject : `${subject}\n\nRefs #${issue}`;
}

/**
 * What the commit gate kept out over a whole run, a resumed one included, and the notices that
 * tell the executor about each change once, in its next tool result.
 */
export interface KeptOutLog {
  /** Everything kept out so far, merged and sorted. */
  readonly all: KeptOutChange[];
  /** What the host tells the executor between its turns. */
  readonly notices: Notices;
  /** Records what the gate kept out; returns the notice for what the executor has not been told yet. */
  keep(found: readonly KeptOutChange[]): string | undefined;
}

export function createKeptOutLog(resumed: readonly KeptOutChange[] = []): KeptOutLog {
  let all: KeptOutChange[] = [...resumed];
  const told = new Set<string>();
  return {
    get all() {
      return all;
    },
    notices: createNotices(),
    keep(found) {
      all = mergeKeptOut(all, found);
      const fresh = found.filter((c) => !told.has(`${c.path}\0${c.change}`));
      for (const c of fresh) told.add(`${c.path}\0${c.change}`);
      return fresh.length > 0 ? keptOutNotice(fresh) : undefined;
    },
  };
}

/**
 * The executor's word for changes the commit gate dropped: what, why, and what became of them.
 * Changes kept out for their path are final (protected files were put back); changes held back
 * for a credential are still in the work tree, and land once the credential is gone.
 */
export function keptOutNotice(keptOut: readonly KeptOutChange[]): string {
  const byPath = keptOut.filter((c) => !c.credential);
  const held = keptOut.filter((c) => c.credential);
  const parts: string[] = [];
  if (byPath.length > 0)
    parts.push(
      [
        'plangate kept these changes out of the last commit, because nobody may change these paths through plangate; protected files were put back as they were:',
        ...listed(byPath),
        'Do not try to change them another way; if the objective needs them changed, say so in your result.',
      ].join('\n'),
    );
  if (held.length > 0)
    parts.push(
      [
        'plangate held these changes back from the last commit, because they add what looks like a credential (a key, token or password) or could not be checked; they are still in the work tree, uncommitted:',
        ...listed(held),
        'Never commit a real credential: take it out (use a placeholder, or read it from the environment at run time) and the change lands with the next commit.',
      ].join('\n'),
    );
  return parts.join('\n\n');
}

function listed(changes: readonly KeptOutChange[]): string[] {
  const lines = changes.slice(0, 20).map((c) => `- ${c.path} (${c.change}): ${c.reason}`);
  if (changes.length > 20) lines.push(`- and ${changes.length - 20} more`);
  return lines;
}
