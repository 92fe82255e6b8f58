import { githubBodyLimit } from '../text/limits.js';
import { code } from '../text/markdown.js';

/**
 * A pull request that several runs worked on (plangate's own, or one in `same-branch` mode) shows
 * the latest run in full and every earlier one collapsed below it: the body the pull request had
 * becomes the newest collapsed entry, and the entries it already held follow. Oldest entries give
 * way first when the body would pass GitHub's size limit, with a notice saying how many.
 */

const prMarker = /<!-- plangate:pr ([0-9a-f]+) -->/;
const sectionMarker = '<!-- plangate:earlier-runs -->';
const entryMarker = '<!-- plangate:earlier-run -->';
const heading = '## Earlier runs on this pull request';

/** True when a body is (or holds) a run's body as plangate renders it. */
export function isPlangatePullRequestBody(body: string): boolean {
  return prMarker.test(body);
}

/** The plan id of the run a body shows in full, if plangate wrote it. */
function planIdOf(body: string): string | undefined {
  return prMarker.exec(body)?.[1];
}

/** The body's main part (the latest run, or a person's description) and its collapsed entries. */
export function splitPullRequestBody(body: string): { main: string; entries: string[]; dropped: number } {
  const at = body.indexOf(sectionMarker);
  if (at === -1) return { main: body.trim(), entries: [], dropped: 0 };
  const parts = body
    .slice(at + sectionMarker.length)
    .split(entryMarker)
    .slice(1)
    .map((entry) => entry.trim());
  const note = parts.find((entry) => entry.startsWith('> [!NOTE]'));
  const dropped = Number(/(\d+) earlier/.exec(note ?? '')?.[1] ?? 0);
  const entries = parts.filter((entry) => entry !== '' && !entry.startsWith('> [!NOTE]'));
  return { main: body.slice(0, at).trim(), entries, dropped };
}

function collapse(main: string): string {
  const id = planIdOf(main);
  const summary = id ? `Run of plan ${code(id)}` : 'The description before plangate’s runs';
  return `<details><summary>${summary}</summary>\n\n${main}\n\n</details>`;
}

/**
 * The body for a run on a pull request that had `previous` as its body: `current` in full, then the
 * earlier runs collapsed, newest first, within `limit`. The same run rendered again (a resumed
 * run) replaces its own earlier rendering instead of collapsing it.
 */
export function stackPullRequestBody(previous: string, current: string, limit: number = githubBodyLimit): string {
  const { main, entries, dropped } = splitPullRequestBody(previous);
  const sameRun = planIdOf(main) !== undefined && planIdOf(main) === planIdOf(current);
  const all = main === '' || sameRun ? entries : [collapse(main), ...entries];
  if (all.length === 0 && dropped === 0) return current;
  const start = `${current}\n\n${sectionMarker}\n${heading}\n`;
  const notice = (n: number) =>
    `\n${entryMarker}\n> [!NOTE]\n> ${n} earlier ${n === 1 ? 'run does' : 'runs do'} not fit here; ${n === 1 ? 'its plan comment is' : 'their plan comments are'} on this pull request's conversation.\n`;
  let body = start;
  let kept = 0;
  for (const entry of all) {
    const next = `\n${entryMarker}\n${entry}\n`;
    const left = all.length - kept - 1 + dropped;
    if (body.length + next.length + (left > 0 ? notice(left).length : 0) > limit) break;
    body += next;
    kept += 1;
  }
  const gone = all.length - kept + dropped;
  return gone > 0 ? body + notice(gone) : body;
}
