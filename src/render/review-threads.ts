import { code } from '../text/markdown.js';

/**
 * The review threads a run was asked to address, as links: in the pull request's section for the
 * run and in the job summary, so a reviewer sees which of their threads the run took up.
 */

/** A review thread given to the planner: where it is and its first comment's link. */
export interface ReviewThreadRef {
  url: string;
  path: string;
  line: number | null;
  author: string;
  outdated: boolean;
}

/** Threads listed; the rest are counted. Keeps the section bounded whatever the review's size. */
const maxListed = 50;

const safeUrl = (url: string) => (/^https:\/\/[^\s()<>]+$/.test(url) ? url : '');

/** A Markdown section listing the threads with links; empty when there are none. */
export function renderReviewThreads(
  threads: readonly ReviewThreadRef[],
  heading = '## Review threads addressed',
): string {
  if (threads.length === 0) return '';
  const lines = threads.slice(0, maxListed).map((t) => {
    const where = code(`${t.path}${t.line !== null ? `:${t.line}` : ''}`);
    const url = safeUrl(t.url);
    const link = url ? `[${where}](${url})` : where;
    return `- ${link} by @${t.author.replace(/[^A-Za-z0-9_.[\]-]/g, '')}${t.outdated ? ' (outdated)' : ''}`;
  });
  const more = threads.length - maxListed;
  if (more > 0) lines.push(`- … and ${more} more`);
  return `${heading}\n\nThe run was asked to address these review threads:\n\n${lines.join('\n')}`;
}
