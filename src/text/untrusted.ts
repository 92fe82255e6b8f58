import { withoutHiddenCharacters } from './hidden-characters.js';
import { clip } from './limits.js';
import { stripHidden } from './strip-hidden.js';

/**
 * The fence around text plangate did not write (issue bodies, comments, file lists, check
 * annotations) before a model reads it: the system prompt tells models that what is inside is data,
 * never instructions. Inside, the model reads what GitHub shows and nothing more.
 */

// Callers that fence text also strip it where they keep it unfenced; one import serves both.
export { stripHidden } from './strip-hidden.js';

const closingTag = '</untrusted-data>';
// Opening and closing forms, spaced or not, in any case: a model reads all of them as the fence.
const fenceTag = /<(?=\s*(?:\/\s*)?untrusted-data)/gi;

const attributeEscapes: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };

/**
 * Fences text that is already what a reader sees. Every fence tag inside is escaped: otherwise the
 * data could close the fence early and follow it with text posing as the host's own words.
 */
function fence(label: string, visible: string): string {
  const source = withoutHiddenCharacters(label)
    .replace(/[\r\n]+/g, ' ')
    .replace(/[&"<>]/g, (ch) => attributeEscapes[ch] ?? ch);
  const body = withoutHiddenCharacters(visible).replace(fenceTag, '&lt;');
  return `<untrusted-data source="${source}">\n${body}\n${closingTag}`;
}

/**
 * Fences Markdown that GitHub renders (an issue body, a comment, a review): the model reads what its
 * readers see, at most `max` characters of it. The visible text is what is cut, never the Markdown:
 * a cut through a link or a comment would show what it hides.
 */
export function untrusted(label: string, markdown: string, max = Number.POSITIVE_INFINITY): string {
  return fence(label, clip(stripHidden(markdown), max));
}

/**
 * Fences text GitHub shows as it is written (file names, check annotations), or that stripHidden
 * already made visible: only invisible characters go.
 */
export function untrustedPlain(label: string, text: string): string {
  return fence(label, text);
}

/** What a thread is: its number, and its title and body as their author wrote them. */
export interface IssueText {
  number: number;
  title: string;
  body: string;
}

/** The label of an issue's fenced title and body. */
const issueLabel = (issue: Pick<IssueText, 'number'>) => `issue #${issue.number}: title and body`;

/**
 * An issue's or pull request's title and body as one fenced block: the title as GitHub shows a title
 * (as written), the body as it renders Markdown. At most `max` characters of what is visible are kept,
 * cut with a notice: hidden text takes no room, and a cut cannot expose what the Markdown hides.
 * Undefined when nothing of either is visible.
 */
export function untrustedIssue(issue: IssueText, max: number): string | undefined {
  const visible = [withoutHiddenCharacters(issue.title).trim(), stripHidden(issue.body)].filter(Boolean).join('\n\n');
  return visible.trim() === '' ? undefined : fence(issueLabel(issue), clip(visible, max));
}
