import { escapeProse } from '../text/markdown.js';

/**
 * The reply to a command plangate will not carry out: who asked, why not, and what to do instead.
 * A refusal is never silent.
 */
export function renderRefusal(author: string, command: string, reason: string, fix: string): string {
  return [`@${author} \`${command}\` was not carried out: ${escapeProse(reason)}`, '', escapeProse(fix)].join('\n');
}
