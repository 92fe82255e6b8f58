import { code } from '../text/markdown.js';

/**
 * The review threads a run was asked to address, as links: in the pull request's section for the
 * run, in the job summary and, on one line, in the progress comment, so a reviewer sees which of
 * their threads the run took up.
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

/** The thread's place, linked to its first comment when the link is a plain https URL. */
function threadLink(t: ReviewThreadRef): string {
  const where = code(`${t.path}${t.line !== null ? `:${t.line}` : ''}`);
  const url = safeUrl(t.url);
  return url ? `[${where}](${url})` : where;
}

/** A Markdown section listing the threads with links; empty when there are none. */
export function renderReviewThreads(
  threads: readonly ReviewThreadRef[],
  heading = '## Review threads addressed',
): string {
  if (threads.length === 0) return '';
  const lines = threads.slice(0, maxListed).map((t) => {
    return `- ${threadLink(t)} by @${t.author.replace(/[^A-Za-z0-9_.[\]-]/g, '')}${t.outdated ? ' (outdated)' : ''}`;
  });
  const more = threads.length - maxListed;
  if (more > 0) lines.push(`- … and ${more} more`);
  return `${heading}\n\nThe run was asked to address these review threads:\n\n${lines.join('\n')}`;
}

/** Threads linked on the progress comment's one line; the rest are counted. */
const maxInline = 10;

/** One short line linking the threads, for the progress comment; empty when there are none. */
export function renderReviewThreadLine(threads: readonly ReviewThreadRef[]): string {
  if (threads.length === 0) return '';
  const links = threads.slice(0, maxInline).map(threadLink);
  const more = threads.length - maxInline;
  return `**Review threads to address:** ${links.join(' · ')}${more > 0 ? ` · and ${more} more` : ''}`;
}
