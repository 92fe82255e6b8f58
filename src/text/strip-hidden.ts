/**
 * Hygiene for text plangate did not write (issue bodies, comments, the text after a command) before a
 * model reads it. Rendered Markdown hides some content from the maintainer who reviews a thread while
 * the model would read every byte, so an attacker can put instructions where only the model looks.
 * The model gets what GitHub shows instead, no more: the text is parsed as github.com parses it
 * (github-markdown.ts), and only the text a reader of the rendered page sees is kept (visible-text.ts).
 *
 * Code spans and blocks stay as written (they are shown as written); link labels stay and their
 * destinations go; HTML keeps its text and loses its tags, attributes, comments, processing
 * instructions, CDATA and declarations; reference definitions, titles and image alt text go, as do
 * footnotes nothing cites. Invisible characters go last, from the text that is left: a renderer finds
 * `-->` or a tag's end before any of them is dropped, so must we.
 */

import { githubHtml } from './github-markdown.js';
import { withoutHiddenCharacters } from './hidden-characters.js';
import { visibleText, type VisibleTextOptions } from './visible-text.js';

/** What a reader of `markdown` rendered on github.com sees, as plain Markdown-like text. */
export function stripHidden(markdown: string, options: VisibleTextOptions = {}): string {
  return withoutHiddenCharacters(visibleText(githubHtml(markdown), options));
}
